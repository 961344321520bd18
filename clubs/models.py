"""A club, the people in it, and its seasons."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cards101.rules import PRESETS
from games.labels import PRESET_LABELS
from games.models import Player
from tournaments.models import DEFAULT_TIE_BREAKS, Tournament
from tournaments.standings import DEFAULT_POINTS

DEFAULT_PRESET = "classic"


def new_invite_code() -> str:
    """The secret part of a club's invitation link (a new one voids the old link)."""
    return secrets.token_urlsafe(12)


def default_options() -> dict:
    return PRESETS[DEFAULT_PRESET].as_dict()


def default_points() -> dict:
    return {str(size): [float(p) for p in points] for size, points in DEFAULT_POINTS.items()}


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class Club(models.Model):
    """A club: its name and page (`slug`, readable from a Cyrillic name too), and who runs it.
    Its nights are tournaments (`Tournament.club`)."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    description = models.TextField(_("description"), blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="clubs_owned"
    )
    # The house rules and the defaults of a new night ("New club night" fills the form with
    # them): the same fields, meaning the same, as a tournament's.
    place = models.CharField(pgettext_lazy("tournament", "Place"), max_length=100, blank=True)
    preset = models.CharField(
        _("rules"), max_length=20, choices=list(PRESET_LABELS.items()), default=DEFAULT_PRESET
    )
    options = models.JSONField(_("options"), default=default_options)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=3)
    table_size = models.PositiveSmallIntegerField(
        _("table size"), choices=Tournament.TableSize.choices, default=Tournament.TableSize.FOUR
    )
    match_end = models.CharField(
        _("a table's match ends"),
        max_length=10,
        choices=Tournament.MatchEnd.choices,
        default=Tournament.MatchEnd.PLAYED_OUT,
    )
    deals_per_match = models.PositiveSmallIntegerField(_("deals per match"), null=True, blank=True)
    points_by_place = models.JSONField(_("tournament points by place"), default=default_points)
    tie_breaks = models.JSONField(_("tie-breaks"), default=default_tie_breaks)
    final_table_size = models.PositiveSmallIntegerField(
        _("players at the final table"), null=True, blank=True
    )
    confirm_results = models.BooleanField(
        _("a second player at the table confirms each round"), default=True
    )
    # The invitation link's secret: whoever opens the link may join as a member.
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        # "clubs" alone is the suit (трефы).
        verbose_name = pgettext_lazy("organisation", "club")
        verbose_name_plural = pgettext_lazy("organisation", "clubs")

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A player of a club (an account's player or a guest: the same person every night)."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        DIRECTOR = "director", _("director")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_membership_a_club")
        ]
        verbose_name = _("member")
        verbose_name_plural = _("members")

    def __str__(self) -> str:
        return f"{self.player} ({self.club})"


class JoinRequest(models.Model):
    """An account asking to join a club; a director accepts (it becomes a member) or declines
    (the request is deleted)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_requests"
    )
    message = models.CharField(_("message"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_request_a_club")]
        # Two words: the admin's permissions keep the English name ("Can add join request"),
        # which a Russian page must not read as an untranslated sentence.
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")

    def __str__(self) -> str:
        return f"{self.user} → {self.club}"


class Season(models.Model):
    """A club's season: its table sums the tournament points of the club's finished nights dated
    within it (clubs.queries.season_table); `best_nights` counts only each player's best N."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    starts = models.DateField(_("starts"))
    ends = models.DateField(_("ends"))
    best_nights = models.PositiveSmallIntegerField(_("best nights counted"), null=True, blank=True)
    # Fewer nights than this: listed below the ranked players, without a place.
    min_nights = models.PositiveSmallIntegerField(
        _("nights needed to be ranked"), null=True, blank=True
    )
    # Written when the season is closed: its table and champions as they stood, kept whatever
    # happens to its nights afterwards (a reopened night, a deleted guest).
    final_table = models.JSONField(null=True, blank=True, editable=False)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")), name="season_ends_after_start"
            )
        ]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name


class ClubEvent(models.Model):
    """A line of the club's history, written with the change it records (clubs.services): a
    role changed, a member removed or gone, the club renamed. People are kept by id; their
    names are read only when the history is shown."""

    class Kind(models.TextChoices):
        ROLE_CHANGED = "role_changed", _("role changed")
        REMOVED = "removed", _("removed")
        LEFT = "left", _("left")
        RENAMED = "renamed", _("renamed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    # Who made the change (None: an account deleted since).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The member concerned, an account's player or a guest (None for a rename, or a guest
    # deleted since; a guest merged into an account moves to it: services.merge_memberships).
    subject = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(_("what happened"), max_length=20, choices=Kind.choices)
    # A role's code, or the club's name, before and after.
    old_value = models.CharField(max_length=100, blank=True)
    new_value = models.CharField(max_length=100, blank=True)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("club event")
        verbose_name_plural = _("club events")

    def __str__(self) -> str:
        return f"{self.club} · {self.kind} · {self.at:%Y-%m-%d}"

    @property
    def old_role(self) -> str:
        """The role before, as the page's language names it (a role change)."""
        return _role_label(self.old_value)

    @property
    def new_role(self) -> str:
        return _role_label(self.new_value)


def _role_label(value: str) -> str:
    return str(Member.Role(value).label) if value in Member.Role.values else value
