"""What a notification says, in the language active when it is rendered (the sender renders
it in the person's): a title (an e-mail's subject), the words, and the path it links to. Each
kind's words are its class's in the catalogue (notify.kinds); here, several kept for one
person said in one message."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import ngettext

from notify import kinds
from notify.kinds import Message
from notify.links import absolute
from notify.models import Notification


def render(notification: Notification) -> Message:
    """The notification's message in the active language."""
    return kinds.read(notification).message()


def render_group(notifications: list[Notification]) -> Message:
    """Several notifications kept for one person (their quiet hours), in one message: each
    title with its own link; the message's own link is theirs if they share one."""
    if len(notifications) == 1:
        return render(notifications[0])
    rendered = [render(notification) for notification in notifications]
    count = len(notifications)
    paths = {message.path for message in rendered}
    return Message(
        ngettext("%(count)s notification", "%(count)s notifications", count) % {"count": count},
        "\n".join(f"• {message.title}\n  {absolute(message.path)}" for message in rendered),
        paths.pop() if len(paths) == 1 else reverse("notify:settings"),
    )
