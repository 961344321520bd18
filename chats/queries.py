"""What chats' pages and receivers read."""

from __future__ import annotations

from chats.models import ClubChat


def chat_of_club(club_id: int) -> ClubChat | None:
    """The club's group, while the bot is in it."""
    return (
        ClubChat.objects.select_related("chat")
        .filter(club_id=club_id, chat__bot_is_member=True)
        .first()
    )
