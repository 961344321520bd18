"""Players, matches, seats, rounds and each player's entry in a round."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards101.rules import Variant
from core.names import THEN, YO, search_fold
from games import audience
from games.bot_names import bot_names_like
from games.labels import PRESET_LABELS, started


class NameKey(models.Func):
    """A name's sort key in SQL: the order of core.names.sort_key on either database."""

    # On SQLite, sort_key itself, registered on every connection (games.apps).
    function = "name_key"
    arity = 1
    output_field = models.TextField()

    def as_postgresql(self, compiler, connection, **extra_context):
        # lower() folds Cyrillic as well under a UTF-8 database locale; the "C" collation
        # then compares code points, as Python does.
        sql, params = compiler.compile(self.source_expressions[0])
        key = f'(replace(lower({sql}), %s, %s) || %s || {sql}) COLLATE "C"'
        return key, (*params, "ё", YO, THEN, *params)


class FoldedName(models.Func):
    """A name as searches compare it, in SQL: core.names.search_fold on either database
    (SQLite's own lower() and LIKE fold only ASCII letters)."""

    # On SQLite, search_fold itself, registered on every connection (games.apps).
    function = "name_fold"
    arity = 1
    output_field = models.TextField()

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = compiler.compile(self.source_expressions[0])
        return f"replace(lower({sql}), %s, %s)", (*params, "ё", "е")


class PlayerQuerySet(models.QuerySet):
    def named_like(self, text: str) -> PlayerQuerySet:
        """Players whose name holds `text`, case ignored and ё read as е, on either database;
        a bot also by its name in the page's language."""
        return self.alias(folded=FoldedName("name")).filter(
            Q(folded__contains=search_fold(text)) | Q(is_bot=True, name__in=bot_names_like(text))
        )

    def shown(self) -> PlayerQuerySet:
        """The players whose name the person looking may see: a search finds nobody by a
        name hidden from them."""
        seen = audience.seen()
        if seen is None:
            return self
        return self.filter(Q(private=False) | Q(pk__in=seen))


class Player(models.Model):
    """Someone who sits at a table: a registered account or a guest name."""

    name = models.CharField(_("name"), max_length=40)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        verbose_name=_("account"),
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("added by"),
    )
    # A computer player of the played tables (one per strength and number), never a person
    # whom someone could claim.
    is_bot = models.BooleanField(_("bot"), default=False)
    # The profile and the name shown only to the people who played with them and the directors
    # of their tournaments (see games.audience; the owner of an account chooses, and a club
    # sport is public by default).
    private = models.BooleanField(_("hidden from visitors"), default=False)
    # Every page in large print (games.large_print), the account's choice: it follows them to
    # each device they sign in on.
    large_print = models.BooleanField(_("large print"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = [NameKey("name"), "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        """The name as the person looking may see it (see games.audience)."""
        return audience.name(self.pk, self.name, self.private, bot=self.is_bot)

    @property
    def is_hidden(self) -> bool:
        """Hidden from the person looking: no name, no profile."""
        return audience.hidden(self.pk, self.private)

    @property
    def is_guest(self) -> bool:
        """Typed in by a scorekeeper, with no account (a bot is not a guest)."""
        return self.user_id is None and not self.is_bot


class MatchQuerySet(models.QuerySet):
    def for_user(self, user) -> MatchQuerySet:
        """Matches the user plays in, created or keeps score of."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(
            Q(created_by=user) | Q(scorekeepers=user) | Q(seats__player__user=user)
        ).distinct()

    def counted(self) -> MatchQuerySet:
        """Finished matches whose results count: every round confirmed where the match asks
        for it (what ratings, profiles and leaderboards read; Match.is_done)."""
        return self.filter(status=Match.Status.FINISHED, unconfirmed_rounds=0)

    def casual(self) -> MatchQuerySet:
        """Score sheets of friends' games (tournament tables are shown with their tournament)."""
        return self.filter(kind=Match.Kind.CASUAL)

    def with_seats(self) -> MatchQuerySet:
        return self.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )


class Match(models.Model):
    """One game of 101 played to its end: seats, the rules in force and its rounds."""

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Kind(models.TextChoices):
        # Set by whoever creates the match; rights and pages that span apps go by it, so that
        # this app never needs to know the apps built on it.
        CASUAL = "casual", _("score sheet")
        TOURNAMENT = "tournament", _("tournament table")
        ONLINE = "online", _("played on the site")

    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.CASUAL)
    preset = models.CharField(_("preset"), max_length=20, choices=list(PRESET_LABELS.items()))
    # The exact options in force (Variant.as_dict()), so a later change of a preset
    # never changes a match already played.
    options = models.JSONField(_("options"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="created_matches",
        verbose_name=_("created by"),
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="scorekept_matches",
        verbose_name=_("scorekeepers"),
    )
    # Tournament tables may end after a fixed number of deals, or be closed by a director;
    # the match is then ranked by its totals as they stand.
    deal_limit = models.PositiveSmallIntegerField(_("deals"), null=True, blank=True)
    closed_early = models.BooleanField(_("closed by hand"), default=False)
    # Set when a tournament round closes: a correction may change the result, but the match
    # stays finished, since the next round was seated from it.
    result_locked = models.BooleanField(_("result locked"), default=False)
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    # Moved by every change (services only): cached pages, live views and forms key on it.
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When the match finished: set as it finishes, kept through corrections that leave it
    # finished, cleared when it runs again. Statistics and ratings go in this order.
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True, db_index=True)
    # The creator may keep a match out of the ratings (a practice game, a mistake).
    rated = models.BooleanField(_("rated"), default=True)
    # The sheet as last scored (services only, with the entries): a page shows it without
    # reading every entry. A row per round, [round id, number, cells], a cell per seat in
    # seat order: [seat id, kind, score, total, event], or null once the seat is out.
    scored_rows = models.JSONField(default=list, editable=False)
    # Whether a round of it was ever changed or deleted (services only): a sheet that never
    # was does not look for corrections.
    corrected = models.BooleanField(default=False, editable=False)
    # A round counts once a second person confirms it (set by the tournament that seats the
    # table, from its option), and how many of its rounds wait for that (services only).
    confirm_results = models.BooleanField(_("rounds are confirmed"), default=False)
    unconfirmed_rounds = models.PositiveSmallIntegerField(default=0, editable=False)

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        # By the day and hour it began, as people tell matches apart: the id is for addresses.
        if self.created_at is None:
            return gettext("New match")
        return gettext("Match of %(started)s") % {"started": started(self.created_at)}

    def get_absolute_url(self) -> str:
        return reverse("games:match", args=[self.pk])

    @property
    def variant(self) -> Variant:
        return Variant.from_dict(self.options)

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_casual(self) -> bool:
        return self.kind == self.Kind.CASUAL

    @property
    def is_done(self) -> bool:
        """Finished, with every round confirmed: its result counts (in a tournament)."""
        return self.is_finished and not self.unconfirmed_rounds


class Seat(models.Model):
    """A player's place at a match; totals and place are kept by the scoring service."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    total = models.IntegerField(_("total"), default=0)
    place = models.PositiveSmallIntegerField(_("place"), default=1)
    lost_in_round = models.PositiveIntegerField(_("lost in round"), null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return str(self.player)

    @property
    def has_lost(self) -> bool:
        return self.lost_in_round is not None


class RoundQuerySet(models.QuerySet):
    def counted(self) -> RoundQuerySet:
        """The rounds that count: every round of a match that asks for no confirmation, and
        the confirmed rounds of one that does."""
        return self.filter(Q(match__confirm_results=False) | Q(confirmed_at__isnull=False))


class Round(models.Model):
    """One deal of a match, numbered from 1; addressed by its id, since numbers shift."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("round"))
    # Moved by every change of this round: an edit or delete names the version it was made on.
    version = models.PositiveIntegerField(_("version"), default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Played on the site and cut at the engine's move limit: scored as it stood, it need
    # not end the way the rules end rounds (nobody out, or several holding cards).
    cut = models.BooleanField(_("cut at the move limit"), default=False)
    # Who confirmed the round and when (Match.confirm_results): the time is set as well when
    # no one needed to (the option off, or entered by a director), so only a round that waits
    # has none. Cleared by a correction made by a player.
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}


class Entry(models.Model):
    """One player's outcome in a round as entered, with the score and total it gave."""

    class Kind(models.TextChoices):
        OUT = "out", _("went out")
        HAND = "hand", _("cards left")
        POINTS = "points", _("points")

    class Event(models.TextChoices):
        NONE = "", _("none")
        RESET_TO_0 = "reset_to_0", _("reset to 0")
        RESET_TO_50 = "reset_to_50", _("reset to 50")
        LOST = "lost", _("lost")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="entries")
    kind = models.CharField(_("outcome"), max_length=10, choices=Kind.choices)
    # Card codes as entered ("QS 10H"): one card for "out", the hand for "hand".
    cards = models.CharField(_("cards"), max_length=200, blank=True)
    points = models.IntegerField(_("points"), null=True, blank=True)
    score = models.IntegerField(_("score"))
    total = models.IntegerField(_("total"))
    event = models.CharField(
        _("event"), max_length=12, choices=Event.choices, blank=True, default=""
    )

    class Meta:
        ordering = ["round__number", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="entry_round_seat_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} {self.seat}: {self.score}"


class Correction(models.Model):
    """An entered round changed or deleted: who, when, and the outcomes before and after."""

    class Action(models.TextChoices):
        CHANGED = "changed", _("corrected")
        DELETED = "deleted", _("deleted")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="corrections")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections"
    )
    # The round's number when it was changed (later deletions may renumber it since).
    number = models.PositiveIntegerField(_("round"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    # {"<seat position>": {"out": "QS"} | {"hand": "9H AC"} | {"points": 17}}, as entered.
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")

    def __str__(self) -> str:
        return f"{self.match} {self.get_action_display()} {self.number}"

    @property
    def by_name(self) -> str:
        """Who made it, as the person looking may see them: the account's username, unless
        its player hides from them ("" when the account is gone). Read with `by__player`."""
        return account_shown(self.by)


def account_shown(user) -> str:
    """An account as the person looking may see it: its username, unless its player hides
    from them ("" for no account). Read with its player."""
    if user is None:
        return ""
    player = getattr(user, "player", None)
    if player is not None and player.is_hidden:
        return str(player)
    return user.get_username()


class DisputedEntry(models.Model):
    """A round entered again by a second person at the table, with other outcomes than the
    first: kept beside it (nothing is overwritten) until a director chooses one."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="disputes")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    # As the corrections keep them: {"<seat position>": {"out": "QS"} | ...}.
    outcomes = models.JSONField(_("outcomes"))

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("disputed entry")
        verbose_name_plural = _("disputed entries")

    def __str__(self) -> str:
        return f"{self.round} ({self.at:%H:%M})"

    @property
    def by_name(self) -> str:
        """Who entered it, as the person looking may see them (read with `by__player`)."""
        return account_shown(self.by)
