"""Tables played on the site: the table with the game's state, its seats, and every move made."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards101.rules import Variant
from games.labels import PRESET_LABELS, started
from games.models import Match, Player
from play import correspondence

# From this many seconds a move, a table is played by correspondence.
CORRESPONDENCE_SECONDS = 3600


class PlayTable(models.Model):
    """A table where 101 is played on the site: seats for people and bots, the game's state.

    The state is the engine's `Game.to_json()`, kept here and nowhere else, so any server
    process can serve any table. Every move moves `version`.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for players")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    # What the people at the table call it; without one, pages name it by its players.
    name = models.CharField(_("table name"), max_length=60, blank=True)
    preset = models.CharField(_("rules"), max_length=20, choices=list(PRESET_LABELS.items()))
    options = models.JSONField(_("options"))
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    public = models.BooleanField(_("anyone may join from the lobby"), default=False)
    # Seconds a player has for a move; None: no timer. From an hour up, a correspondence table
    # (hours or days a move: play.correspondence), whose clock a person's vacation stops.
    move_seconds = models.PositiveIntegerField(_("seconds per move"), null=True, blank=True)
    # Whoever has the link may take an open seat.
    invite = models.CharField(max_length=32, unique=True)
    # The game is dealt from it: with the moves kept, every round can be replayed.
    seed = models.BigIntegerField()
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    # The moves kept so far (PlayMove rows): the next one's number, without counting them.
    moves_made = models.PositiveIntegerField(default=0)
    # When the server makes the next move itself (a bot's turn, a timer running out, the
    # pause after a round): the worker (play_worker) takes the tables whose time has come.
    server_moves_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The move clock of a person (a table with a timer): the seat it runs for and since when
    # (a vacation taken or ended meanwhile sets its deadline, server_moves_at, again); None
    # when no person's clock runs (a bot's turn, a stand-in's, between rounds).
    clock_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    # When the worker reminds the person to move at a correspondence table that their time is
    # running out (once a move: cleared when sent, set again at the next move).
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The moves of the round in play the site made for a person (the stand-in's), each as
    # [seat, start, end]: the events [start, end) of the round's log it made, which the board
    # says were the site's. Emptied at each deal.
    site_moves = models.JSONField(default=list, blank=True)
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="play_table"
    )
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_tables"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The tables were made by games before play was an app of its own: they keep their
        # names, so that moving the models rewrote nothing.
        db_table = "games_playtable"
        ordering = ["-updated_at", "-pk"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        # Without a name, by the day and hour it was made: the id is for addresses.
        if self.name or self.created_at is None:
            return self.name or gettext("New table")
        return gettext("Table of %(started)s") % {"started": started(self.created_at)}

    def get_absolute_url(self) -> str:
        return reverse("play:table", args=[self.pk])

    @property
    def variant(self) -> Variant:
        return Variant.from_dict(self.options)

    @property
    def by_correspondence(self) -> bool:
        """Whether a move may take hours or days (vacations stop its clock)."""
        return bool(self.move_seconds) and self.move_seconds >= CORRESPONDENCE_SECONDS

    @property
    def move_time(self) -> str:
        """The time for a move in words ("12 hours", "3 days")."""
        return correspondence.move_time(self.move_seconds) if self.move_seconds else ""


class PlaySeat(models.Model):
    """A seat at a played table: a person (once someone takes it) or a bot."""

    class Bot(models.TextChoices):
        RANDOM = "random", _("random")
        GREEDY = "greedy", _("greedy")
        EXPERT = "expert", _("expert")

    table = models.ForeignKey(PlayTable, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot = models.CharField(_("bot"), max_length=10, choices=Bot.choices, blank=True)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT)
    # Turns in a row the timer ran out on; after two the seat plays as a bot until its
    # player moves again.
    timeouts = models.PositiveSmallIntegerField(default=0)
    # When its person resigned and left a table in play: the stand-in plays the seat to the
    # match's end, and the person no longer sits there (the seat keeps who sat, for the record).
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)
    # When the seat's person last had the table's page open (its load and its slow poll touch
    # it): someone who has not for a while is told by other means that it is their move.
    watched_at = models.DateTimeField(null=True, blank=True)
    # Not stored: when the person's vacation ends, if they are on one now and the table is
    # played by correspondence (set by the table's page: play.queries.on_vacation).
    vacation_until = None

    class Meta:
        db_table = "games_playseat"
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="play_seat_unique"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="play_seat_user_unique",
            ),
        ]

    def __str__(self) -> str:
        return str(self.player) if self.player_id else str(self.get_bot_display() or "")

    @property
    def is_open(self) -> bool:
        return not self.bot and self.user_id is None

    @property
    def has_left(self) -> bool:
        return self.left_at is not None

    @property
    def is_away(self) -> bool:
        """Whether the server plays this person's seat: their time ran out twice (until they
        come back), or they resigned and left (for good)."""
        return not self.bot and (self.timeouts >= 2 or self.has_left)


class MadeByQuerySet(models.QuerySet):
    """Rows of moves that say who made each (`by`, as PlayMove.by): the play's and the
    coach's review of it."""

    def own(self) -> MadeByQuerySet:
        """Those the seat's person made themselves: not a bot's, nor a stand-in's."""
        return self.filter(by="")


class PlayMove(models.Model):
    """One move made at a played table, kept so that a finished round can be replayed."""

    table = models.ForeignKey(PlayTable, on_delete=models.CASCADE, related_name="moves")
    round = models.PositiveSmallIntegerField(_("round"))  # 0-based, as the engine counts
    number = models.PositiveIntegerField(_("move"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    move = models.JSONField(_("move"))
    # Who made it when not the seat's person: "" (the person), a bot's name, "timer" (the
    # stand-in for a person whose time ran out, or who is away) or "left" (the stand-in for a
    # person who resigned).
    by = models.CharField(max_length=10, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    objects = MadeByQuerySet.as_manager()

    class Meta:
        db_table = "games_playmove"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="play_move_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}: {self.move}"


class Vacation(models.Model):
    """A person's days off from correspondence tables: from `starts_at` to `ends_at` the clock
    of their moves stands still (live tables go on). Ended early, `ends_at` is when it ended:
    the days not taken are not counted against the year's allowance."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="play_vacation_ends_after"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.starts_at:%Y-%m-%d %H:%M} – {self.ends_at:%Y-%m-%d %H:%M}"
