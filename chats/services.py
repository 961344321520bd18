"""The only code that writes chats' rows: a club's group linked by a one-time code and
unlinked, and what the group is told (each a post the bot keeps up to date, telegram.outbox,
written in the transaction of its cause). Locks: the club's row, then the code's."""

from __future__ import annotations

import datetime
import secrets

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from cards101.rules import PRESETS
from chats import messages, tables
from chats.models import ChatCode, ClubChat, GroupSeat, GroupTable
from clubs import rights
from clubs.models import Club
from games import services as games
from games.models import Player
from games.services import GameError
from play import services as play
from telegram import outbox
from telegram import services as telegram_services
from telegram.models import Chat, Identity
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


# --- a group's played tables (/play) ----------------------------------------------------------


class TapRefused(Exception):
    """A button pressed by someone it is not for, or too late: said briefly, nothing done."""


def _seat_name(person) -> str:
    return (person.first_name or person.username or str(person.id))[:128]


def open_table(
    *, chat: Chat, person, language: str, kind: str = GroupTable.Kind.PLAY
) -> GroupTable:
    """`/play` (or `/score`, `kind`) in a group: a table `person` opened (signed in by their
    Telegram account, a new account if need be), they its first seat; its post has a button
    to join and one to start."""
    with transaction.atomic():
        user = telegram_services.sign_in(person)
        group_table = GroupTable.objects.create(
            chat=chat, opened_by=user, language=language, kind=kind
        )
        GroupSeat.objects.create(
            group_table=group_table, user=user, telegram_id=person.id, name=_seat_name(person)
        )
        _show(group_table)
    return group_table


def _locked(group_table_id: int) -> GroupTable:
    found = GroupTable.objects.select_for_update().filter(pk=group_table_id).first()
    if found is None:
        raise TapRefused(_("This table is gone."))
    return found


def join_table(*, group_table_id: int, chat: Chat, person) -> GroupTable:
    with transaction.atomic():
        group_table = _locked(group_table_id)
        if group_table.chat_id != chat.pk:
            raise TapRefused(_("This table is another chat's."))
        if group_table.status != GroupTable.Status.OPEN:
            raise TapRefused(_("This table has started: join the next one."))
        seats = list(group_table.seats.all())
        if any(seat.telegram_id == person.id for seat in seats):
            raise TapRefused(_("You are at this table already."))
        if len(seats) >= tables.MOST_SEATS:
            raise TapRefused(_("Every seat at this table is taken."))
        user = telegram_services.sign_in(person)
        GroupSeat.objects.create(
            group_table=group_table, user=user, telegram_id=person.id, name=_seat_name(person)
        )
        group_table.language = _language_of(
            [seat.telegram_id for seat in seats] + [person.id], group_table.language
        )
        group_table.save(update_fields=["language"])
        _show(group_table)
    return group_table


def _language_of(telegram_ids: list[int], default: str) -> str:
    """A table's language follows its people: the one most of them use Telegram in (Russian
    or English; a tie keeps what it was)."""
    codes = Identity.objects.filter(telegram_id__in=telegram_ids).values_list(
        "language_code", flat=True
    )
    spoken = ["ru" if code.startswith("ru") else "en" for code in codes if code]
    russian, english = spoken.count("ru"), spoken.count("en")
    if russian == english:
        return default
    return "ru" if russian > english else "en"


def start_table(*, group_table_id: int, chat: Chat, person) -> GroupTable:
    """The one who opened the table deals: a played table of the site, its seats the people
    who joined, in order (and a bot beside one left alone), on the chats' move clock."""
    with transaction.atomic():
        group_table = _locked(group_table_id)
        if group_table.chat_id != chat.pk:
            raise TapRefused(_("This table is another chat's."))
        if group_table.status != GroupTable.Status.OPEN:
            raise TapRefused(_("This table has started already."))
        seats = list(group_table.seats.select_related("user"))
        if seats[0].telegram_id != person.id:
            raise TapRefused(
                _("Only whoever opened the table starts it: %(name)s.") % {"name": seats[0].name}
            )
        if group_table.kind == GroupTable.Kind.SCORE:
            return _start_sheet(group_table, seats)
        places = (
            [play.ME] + [play.OPEN] * (len(seats) - 1) + (["greedy"] if len(seats) == 1 else [])
        )
        table = play.create_table(
            by=seats[0].user,
            preset="classic",
            variant=PRESETS["classic"],
            seats=places,
            move_seconds=tables.MOVE_SECONDS,
        )
        group_table.table = table
        group_table.status = GroupTable.Status.PLAYING
        group_table.save(update_fields=["table", "status"])
        for seat in seats[1:]:
            play.join(table=table, user=seat.user, invite=table.invite)
        _show(group_table)
    return group_table


def _start_sheet(group_table: GroupTable, seats: list[GroupSeat]) -> GroupTable:
    """A score sheet of real cards: a match of the site whose players are the joined people's
    (each keeps score: rounds are entered on the sheet, in the Mini App), each round
    confirmed by a second of them."""
    if len(seats) < 2:
        raise TapRefused(_("A score sheet needs at least two players: wait for them to join."))
    opener = seats[0].user
    match = games.create_match(
        created_by=opener,
        players=[Player.objects.get(user=seat.user) for seat in seats],
        preset="classic",
        variant=PRESETS["classic"],
        confirm_results=True,
    )
    for seat in seats[1:]:
        games.add_scorekeeper(match=match, username=seat.user.get_username(), by=opener)
    group_table.match = match
    group_table.status = GroupTable.Status.PLAYING
    group_table.save(update_fields=["match", "status"])
    _show(group_table)
    return group_table


def follow_sheet(*, match) -> None:
    """The sheet changed (games.signals.sheet_changed, in its transaction): its journal."""
    group_table = GroupTable.objects.filter(match=match).select_related("chat").first()
    if group_table is None:
        return
    if match.is_finished and group_table.status != GroupTable.Status.CLOSED:
        GroupTable.objects.filter(pk=group_table.pk).update(status=GroupTable.Status.CLOSED)
        group_table.status = GroupTable.Status.CLOSED
    group_table.match = match
    _show(group_table)


def confirm_in_chat(*, group_table_id: int, round_id: int, chat: Chat, person) -> None:
    """A round of the group's sheet confirmed by a tap: by another of its players (the
    sheet's own rule, games.services.confirm_round)."""
    with transaction.atomic():
        group_table = _locked(group_table_id)
        if group_table.chat_id != chat.pk or group_table.match is None:
            raise TapRefused(_("This button is no longer in use."))
        if not group_table.seats.filter(telegram_id=person.id).exists():
            raise TapRefused(_("Only the players at this table confirm its rounds."))
        user = telegram_services.sign_in(person)
        try:
            games.confirm_round(match=group_table.match, round_id=round_id, by=user)
        except GameError as error:
            raise TapRefused(str(error)) from None


def follow_table(*, table) -> None:
    """The table moved on (play.signals.table_changed, in its transaction): its group's
    journal, and a mention of the person whose turn it now is (once a turn)."""
    group_table = GroupTable.objects.filter(table=table).select_related("chat").first()
    if group_table is None or group_table.status == GroupTable.Status.OPEN:
        return
    if table.status == table.Status.FINISHED and group_table.status != GroupTable.Status.CLOSED:
        GroupTable.objects.filter(pk=group_table.pk).update(status=GroupTable.Status.CLOSED)
        group_table.status = GroupTable.Status.CLOSED
    _show(group_table)
    _mention_turn(group_table, table)


def _show(group_table: GroupTable) -> None:
    with translation.override(group_table.language):
        if group_table.match is not None:
            html, buttons = tables.sheet_journal(group_table)
        elif group_table.table is None:
            html, buttons = tables.lobby(group_table)
        else:
            html, buttons = tables.journal(group_table)
    outbox.post(group_table.chat, f"table:{group_table.pk}", html, buttons=buttons)


def _mention_turn(group_table: GroupTable, table) -> None:
    seat_position = table.clock_seat
    if seat_position is None or table.status != table.Status.PLAYING:
        return
    turn = table.moves_made
    if group_table.told_turn == turn:
        return
    seat = table.seats.filter(position=seat_position).select_related("user").first()
    person = group_table.seats.filter(user=seat.user).first() if seat and seat.user else None
    if person is None:
        return
    GroupTable.objects.filter(pk=group_table.pk).update(told_turn=turn)
    with translation.override(group_table.language):
        html = render_to_string("chats/your_turn.html", {"seat": person}).strip()
    outbox.say(group_table.chat.chat_id, html)
