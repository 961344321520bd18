"""What the coach keeps: a review of each finished round of a played table (written, waiting,
in the transaction that finished the round, and computed by the worker), its decisions, and a
person's practice of the positions where they lost the most."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cards101.analysis import KINDS, LABELS
from games.models import Player
from play.models import MadeByQuerySet, PlayTable


class Label(models.TextChoices):
    """cards101.analysis.LABELS, by name."""

    BEST = "best", _("best")
    INACCURACY = "inaccuracy", _("inaccuracy")
    MISTAKE = "mistake", _("mistake")
    BLUNDER = "blunder", _("blunder")


assert tuple(Label.values) == LABELS

# The kinds of mistakes (cards101.analysis.KINDS) as the profile and the review name them.
KIND_NAMES = {
    "queen_kept": _("Kept a Queen too long"),
    "queen_spent": _("Spent a Queen that could have taken you out with the bonus"),
    "short_suit": _("Ordered a suit you were short in"),
    "no_attack": _("Spared a player about to go out"),
    "drew": _("Drew where a card could be played"),
    "other": _("Other mistakes"),
}
assert tuple(KIND_NAMES) == KINDS


class RoundReview(models.Model):
    """The review of round `round` (0-based, as the engine counts) of a played table."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        DONE = "done", _("done")
        # The round could not be replayed from its kept moves (`error` says why): never
        # tried again by itself.
        FAILED = "failed", _("failed")

    table = models.ForeignKey(PlayTable, on_delete=models.CASCADE, related_name="reviews")
    round = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    # The index (in the round's moves) its task goes on from: the decisions before it are
    # kept (ReviewedDecision), each written once, in the transaction that moves this.
    next_index = models.PositiveIntegerField(default=0)
    # Moves with every decision kept: a cache, keys pages on it.
    version = models.PositiveIntegerField(default=1)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["table", "round"], name="coach_one_review_a_round"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="coach_review_due")]
        verbose_name = _("round review")
        verbose_name_plural = _("round reviews")

    def __str__(self) -> str:
        return f"{self.table} #{self.round + 1}: {self.status}"


class ReviewedDecision(models.Model):
    """One decision of a reviewed round (a move where its seat had more than one legal move):
    `cards101.analysis.Decision` as kept, with who made it and the position as they saw it."""

    review = models.ForeignKey(RoundReview, on_delete=models.CASCADE, related_name="decisions")
    index = models.PositiveIntegerField(_("move"))  # its position in the round's moves
    seat = models.PositiveSmallIntegerField(_("seat"))
    # Who sat there (a person's player, or the bot's); None: an open seat's stand-in.
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who made the move, as PlayMove.by: "" (the seat's person), a bot's name, "timer" or
    # "left" (the stand-in). A person's accuracy and practice count their own moves alone.
    by = models.CharField(max_length=10, blank=True)
    played = models.JSONField(_("move played"))  # Move.to_json()
    best = models.JSONField(_("best move"))
    loss = models.FloatField(_("points lost"))
    label = models.CharField(_("label"), max_length=10, choices=Label.choices)
    accuracy = models.FloatField(_("accuracy"))  # cards101.analysis.accuracy of this one
    # Every legal move with its loss: [[move json, loss], ...] (practice compares any pick).
    losses = models.JSONField()
    # The kind of mistake (cards101.analysis.kind_of), "" for a best move.
    kind = models.CharField(_("kind of mistake"), max_length=20, blank=True)
    # The position as the seat saw it (the seat's view, without the round's log): practice
    # shows it again.
    position = models.JSONField()
    deals = models.PositiveIntegerField(default=0)

    objects = MadeByQuerySet.as_manager()

    class Meta:
        ordering = ["review", "index"]
        constraints = [
            models.UniqueConstraint(fields=["review", "index"], name="coach_one_decision_a_move"),
        ]
        indexes = [models.Index(fields=["player", "label"], name="coach_player_label")]
        verbose_name = _("reviewed decision")
        verbose_name_plural = _("reviewed decisions")

    def __str__(self) -> str:
        return f"{self.review} move {self.index + 1}: {self.label}"


class Practice(models.Model):
    """A person practising one of their own decisions: tried until solved."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coach_practice"
    )
    decision = models.ForeignKey(
        ReviewedDecision, on_delete=models.CASCADE, related_name="practice"
    )
    tries = models.PositiveSmallIntegerField(default=0)
    # The last move tried (Move.to_json()), and when the best (or as good) was found.
    last_move = models.JSONField(null=True, blank=True)
    solved_at = models.DateTimeField(null=True, blank=True)
    # When the person asked to see the best move before finding it: shown, not solved.
    shown_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "decision"], name="coach_one_practice"),
        ]
        verbose_name = _("practice")
        verbose_name_plural = _("practice")

    def __str__(self) -> str:
        return f"{self.user} on {self.decision}"
