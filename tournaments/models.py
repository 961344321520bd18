"""Tournaments, their entrants, rounds and tables (each table plays one match of the games app)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.dispatch import Signal
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from cards101.rules import Variant
from games.labels import PRESET_LABELS
from games.models import Match, NameKey, Player

# Tie-breaks, in the order a director may list them.
TIE_BREAKS = {
    "penalty_total": _("Total penalty points (fewer is better)"),
    "deals_won": _("Deals won"),
    "opponents_points": _("Opponents' tournament points"),
    "head_to_head": _("Head-to-head"),
    "fewest_losses": _("Fewest losses"),
}
# Column headings of the standings table.
TIE_BREAK_COLUMNS = {
    "penalty_total": _("Penalty"),
    "deals_won": _("Deals won"),
    "opponents_points": _("Opp. points"),
    "head_to_head": _("Head-to-head"),
    "fewest_losses": _("Losses"),
}
DEFAULT_TIE_BREAKS = ["penalty_total", "deals_won", "opponents_points"]


nights_directed = Signal()
"""Asked which tournaments a signed-in `user` directs besides those they created or were named
a director of: a receiver returns a queryset of their ids (`.values("pk")`: a club's nights, for
its owner and directors; the clubs app, built on this one), read in the same query."""


class TournamentQuerySet(models.QuerySet):
    def directed_by(self, user) -> TournamentQuerySet:
        if not user.is_authenticated:
            return self.none()
        directed = Q(created_by=user) | Q(directors=user)
        for _receiver, more in nights_directed.send(sender=Tournament, user=user):
            directed |= Q(pk__in=more)
        return self.filter(directed).distinct()


class Tournament(models.Model):
    """A club tournament: rounds of matches at tables of three and four, with standings."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", pgettext_lazy("tournament status", "registration")
        RUNNING = "running", pgettext_lazy("tournament status", "running")
        FINISHED = "finished", pgettext_lazy("tournament status", "finished")

    class TableSize(models.IntegerChoices):
        FOUR = 4, _("4 players (tables of 3 where the count needs them)")
        THREE = 3, _("3 players (tables of 4 where the count needs them)")
        TWO = 2, _("2 players")

    class MatchEnd(models.TextChoices):
        PLAYED_OUT = "played_out", _("played out under the rules")
        DEALS = "deals", _("after a fixed number of deals, ranked by totals")
        DIRECTOR = "director", _("when the director closes the table")

    name = models.CharField(_("name"), max_length=100)
    date = models.DateField(_("date"))
    place = models.CharField(_("place"), max_length=100, blank=True)
    description = models.TextField(_("description"), blank=True)
    preset = models.CharField(_("rules"), max_length=20, choices=list(PRESET_LABELS.items()))
    options = models.JSONField(_("options"))
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=3)
    table_size = models.PositiveSmallIntegerField(
        _("table size"), choices=TableSize.choices, default=TableSize.FOUR
    )
    match_end = models.CharField(
        _("a table's match ends"),
        max_length=10,
        choices=MatchEnd.choices,
        default=MatchEnd.PLAYED_OUT,
    )
    deals_per_match = models.PositiveSmallIntegerField(_("deals per match"), null=True, blank=True)
    # Tournament points by place at a table, per table size: {"4": [3, 2, 1, 0], ...}.
    points_by_place = models.JSONField(_("tournament points by place"))
    tie_breaks = models.JSONField(_("tie-breaks"), default=list)
    final_table_size = models.PositiveSmallIntegerField(
        _("players at the final table"), null=True, blank=True
    )
    registration_open = models.BooleanField(_("players may register themselves"), default=True)
    # A round entered at a table counts once a second person there (or a director) confirms it.
    confirm_results = models.BooleanField(
        _("a second player at the table confirms each round"), default=False
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_tournaments"
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="directed_tournaments"
    )
    # A club's night (the clubs app, built on this one: named here by its label alone, never
    # imported), set when the tournament is created.
    club = models.ForeignKey(
        "clubs.Club",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="nights",
        verbose_name=pgettext_lazy("organisation", "club"),
    )
    # Moved by every change to the tournament or one of its tables (services only): cached
    # standings and live views key on it.
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def variant(self) -> Variant:
        return Variant.from_dict(self.options)

    def is_director(self, user) -> bool:
        if not user.is_authenticated:
            return False
        if user.pk == self.created_by_id:
            return True
        return Tournament.objects.directed_by(user).filter(pk=self.pk).exists()


class Entrant(models.Model):
    """A player in a tournament: registered, checked in, perhaps joining late or dropping out."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    checked_in = models.BooleanField(_("checked in"), default=False)
    # The first round the player can be seated in (a late entry joins a later round).
    joined_round = models.PositiveSmallIntegerField(_("joins in round"), default=1)
    # The last round played before dropping out; never seated after it.
    dropped_after_round = models.PositiveSmallIntegerField(
        _("dropped after round"), null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [NameKey("player__name"), "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entrant_unique"),
        ]

    def __str__(self) -> str:
        return str(self.player)

    @property
    def has_dropped(self) -> bool:
        return self.dropped_after_round is not None


class TournamentRound(models.Model):
    """One round of a tournament: its seating (from a recorded seed) and its tables."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(pgettext_lazy("tournament", "round"))
    seed = models.BigIntegerField(_("seating seed"))
    is_final = models.BooleanField(_("final table"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLAYING
    )
    clock_started_at = models.DateTimeField(_("clock started"), null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(_("round length (minutes)"), default=60)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            # Two directors pressing "seat round" at once cannot make the same round twice.
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique"),
        ]

    def __str__(self) -> str:
        return pgettext("tournament", "Round %(number)s") % {"number": self.number}

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED


class Table(models.Model):
    """A table of a round: its players keep score on the games app's score sheet."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="table")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique"),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}
