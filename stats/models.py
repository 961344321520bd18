"""Ratings: one pool per preset, each player's rating in it, and every change a match made."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.labels import PRESET_LABELS
from games.models import Match, Player
from stats.ratings import Skill


class RatingPool(models.Model):
    """The ratings of one preset's matches (house rules count in their preset's pool). Its
    row is the lock every recomputation of the pool takes, after the matches' locks."""

    preset = models.CharField(_("preset"), max_length=20, choices=list(PRESET_LABELS.items()))
    # Moved by every recomputation: cached leaderboards key on it.
    version = models.PositiveIntegerField(_("version"), default=1)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["preset"], name="rating_pool_unique")]

    def __str__(self) -> str:
        return self.get_preset_display()


class Rating(models.Model):
    """A player's current rating in a pool: the last change's `after`, kept for leaderboards."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(_("rated matches"))
    shown = models.IntegerField(_("rating"), db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="rating_pool_player_unique")
        ]
        ordering = ["-shown", "player_id"]

    def __str__(self) -> str:
        return f"{self.player} {self.shown}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma, self.matches)

    @property
    def provisional(self) -> bool:
        return self.skill.provisional


class RatingChange(models.Model):
    """What one rated match did to one player's rating, in the order matches finished."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="changes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    # The match's finished_at, copied so that "the rating as of a date" reads one table.
    finished_at = models.DateTimeField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    matches_after = models.PositiveIntegerField()
    # The player's chance to finish first as the ratings before the match saw it.
    win_chance = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_change_unique")
        ]
        indexes = [
            models.Index(fields=["pool", "finished_at", "match"], name="rating_change_order"),
            models.Index(fields=["player", "pool", "finished_at"], name="rating_change_player"),
        ]
        ordering = ["finished_at", "match_id", "player_id"]

    def __str__(self) -> str:
        return f"{self.player} in {self.match_id}: {self.before.shown} → {self.after.shown}"

    @property
    def before(self) -> Skill:
        return Skill(self.mu_before, self.sigma_before, self.matches_after - 1)

    @property
    def after(self) -> Skill:
        return Skill(self.mu_after, self.sigma_after, self.matches_after)
