"""The only code that writes chats' rows: a club's group linked by a one-time code and
unlinked, and what the group is told (each a post the bot keeps up to date, telegram.outbox,
written in the transaction of its cause). Locks: the club's row, then the code's."""

from __future__ import annotations

import datetime
import secrets

from django.db import transaction
from django.utils import timezone, translation

from chats import messages
from chats.models import ChatCode, ClubChat
from clubs import rights
from clubs.models import Club
from telegram import outbox
from telegram.models import Chat
from tournaments.models import Tournament, TournamentRound

# Long enough to add the bot to a group and send it; a code seen over a shoulder is soon
# worth nothing, and is used once.
CODE_LIFETIME = datetime.timedelta(days=1)


def new_code(*, club: Club, by, language: str) -> str:
    """A fresh code for linking the club's group (the club's earlier ones stop working)."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        rights.check_runs(by, club)
        ChatCode.objects.filter(club=club).delete()
        code = secrets.token_urlsafe(12)  # 16 of [A-Za-z0-9_-], as a deep link allows
        ChatCode.objects.create(
            club=club,
            code=code,
            language=language,
            created_by=by,
            expires_at=timezone.now() + CODE_LIFETIME,
        )
    return code


def link(*, code: str, chat: Chat) -> ClubChat | None:
    """The group `chat` becomes its club's, by the code sent there; the code is used up. A
    club's earlier group, and the group's earlier club, give way. None for a code wrong, used
    or expired."""
    with transaction.atomic():
        used = ChatCode.objects.select_for_update().filter(code=code).first()
        if used is None:
            return None
        used.delete()
        if used.expires_at <= timezone.now():
            return None
        ClubChat.objects.filter(chat=chat).exclude(club_id=used.club_id).delete()
        linked, _created = ClubChat.objects.update_or_create(
            club_id=used.club_id,
            defaults={"chat": chat, "language": used.language, "linked_by": used.created_by},
        )
    return linked


def unlink(*, club: Club, by) -> bool:
    """The club's group is told nothing more (the director's tap); whether one was linked."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        rights.check_runs(by, club)
        deleted, _ = ClubChat.objects.filter(club=club).delete()
    return deleted > 0


def forget_chat(*, chat: Chat) -> None:
    """A group the bot can no longer write to (removed from it) is no club's."""
    ClubChat.objects.filter(chat=chat).delete()


# --- what a club's group is told (in the transaction of its cause) ----------------------------


def _post(club_chat: ClubChat, key: str, html: str, buttons: list | None = None) -> None:
    outbox.post(club_chat.chat, key, html, buttons=buttons)


def tell_night_opened(*, club_chat: ClubChat, night: Tournament) -> None:
    with translation.override(club_chat.language):
        html, buttons = messages.night_opened(night)
    _post(club_chat, f"night:{night.pk}", html, buttons)


def tell_round_seated(*, club_chat: ClubChat, round_: TournamentRound) -> None:
    """One message a round (by its number: seated again, it is a new row): seated again, or
    two players swapped, it is edited."""
    with translation.override(club_chat.language):
        html, buttons = messages.round_seated(round_)
    _post(club_chat, f"round:{round_.tournament_id}:{round_.number}", html, buttons)


def tell_season_after(*, club_chat: ClubChat, night: Tournament, season) -> None:
    """The season's table after `night` (one message a night; edited when it is reopened
    and finished again)."""
    with translation.override(club_chat.language):
        html, buttons = messages.season_table(season, night)
    _post(club_chat, f"season:{season.pk}:{night.pk}", html, buttons)
