"""What notify hears from the apps below it, and the notifications it writes for it (in the
transaction of the change that causes them)."""
