"""What the telegram app tells the apps above it (they connect receivers; it imports none)."""

from django.dispatch import Signal

# The bot can no longer write to a chat (`chat`: a telegram.models.Chat): it was blocked,
# removed from the group, or the chat is gone. Sent in the transaction that records it.
chat_closed = Signal()
