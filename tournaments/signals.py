"""What tournaments say about their entrants to the games and claims apps: their directors
judge claims of their entrants and see the names of those who hide them, their pages show
their names, and one tournament cannot hold the same person twice. And the signals by which
apps built on this one (clubs) follow a tournament and add to its pages, never imported here."""

from django.db.models import Q
from django.dispatch import Signal, receiver
from django.utils.translation import gettext as _

from claims.signals import merging_players, player_judges, players_merged
from core import live
from games.signals import hidden_players_seen, pages_showing_players
from tournaments.models import Entrant, Table, Tournament

tournament_panels = Signal()
"""Asked for what apps built on this one show on `tournament`'s page under its standings (a
club night's awards): a receiver returns HTML, escaped by its maker, or "". The page caches
the panels on the tournament's version, language and names (like its standings), so a panel
may show only what moves them."""


def panels_of(tournament: Tournament) -> list[str]:
    """The panels the apps built on this one add to the tournament's page."""
    return [html for _, html in tournament_panels.send(Tournament, tournament=tournament) if html]


tournament_settled = Signal()
"""Sent by the services, inside the writing transaction, when whether a tournament counts as
finished, or when it was played, may have changed (a round closed, the tournament finished,
reopened, or its settings changed): `tournament`. A club's seasons count its finished nights."""

round_seated = Signal()
"""Sent by the services, inside the writing transaction, when a round (`round_`) was seated
or seated again, or two of its players swapped seats (`players`: their ids; None: everyone):
those players are to be told their tables (notify)."""

round_clock_started = Signal()
"""Sent inside the writing transaction when a director started the clock of `round_`."""

projector_panels = Signal()
"""Asked by the projector, between rounds (no round playing), what else to show beside the
standings: `tournament`, `request`. A receiver returns a list of HTML fragments (a club's
season table, for its nights), or an empty list."""


@receiver(player_judges)
def directors_judge(sender, *, player_ids: list[int], **kwargs) -> list[tuple[int, int]]:
    entries = Entrant.objects.filter(player_id__in=player_ids)
    creators = entries.values_list("player_id", "tournament__created_by_id")
    directors = entries.filter(tournament__directors__isnull=False).values_list(
        "player_id", "tournament__directors"
    )
    return [*creators, *directors]


@receiver(hidden_players_seen)
def directors_see_their_entrants(sender, *, user, **kwargs):
    """A tournament's directors (a club's, for its nights) seat, check in and score its
    entrants by name."""
    directed = Tournament.objects.directed_by(user).values("pk")
    return Entrant.objects.filter(tournament__in=directed).values("player_id")


@receiver(pages_showing_players)
def tournaments_showing(sender, *, players: list[int], **kwargs) -> list[tuple[type, int]]:
    """A tournament's page, standings and projector name its entrants and its tables' players."""
    entered = Entrant.objects.filter(player__in=players).values_list("tournament_id", flat=True)
    seated = Table.objects.filter(match__seats__player__in=players).values_list(
        "round__tournament_id", flat=True
    )
    return [(Tournament, pk) for pk in {*entered, *seated}]


@receiver(merging_players)
def one_entry_each(sender, *, guest, into, **kwargs) -> str | None:
    # The tournaments' rows, by id, before their tables (the order every write keeps).
    entered = Q(entrants__player=guest) | Q(entrants__player=into)
    list(
        Tournament.objects.select_for_update()
        .filter(pk__in=Tournament.objects.filter(entered).values("pk"))
        .order_by("pk")
    )
    both = (
        Tournament.objects.filter(entrants__player=guest)
        .filter(entrants__player=into)
        .order_by("date", "pk")
        .first()
    )
    if both is not None:
        return _(
            "%(guest)s and %(player)s both play in %(tournament)s, so they are two people."
        ) % {
            "guest": guest.name,
            "player": into.name,
            "tournament": both.name,
        }
    return None


@receiver(players_merged)
def entries_moved(sender, *, into, **kwargs) -> None:
    # In SQL, as services.move_versions does: the services send this module's signals, so it
    # does not import them.
    moved = Tournament.objects.filter(entrants__player=into).values_list("pk", flat=True)
    live.moved_all(Tournament, list(moved.distinct()))
