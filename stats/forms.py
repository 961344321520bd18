"""The filters of a profile, a head-to-head page and the leaderboard."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from core.validators import name_problem, normalize_name
from games.labels import PRESET_LABELS
from games.models import Match
from stats.queries import Filters

PERIOD_CHOICES = [
    ("all", _("all time")),
    ("year", _("this year")),
    ("30d", _("the last 30 days")),
]


class FiltersForm(forms.Form):
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[("", _("every preset")), *PRESET_LABELS.items()],
        required=False,
    )
    kind = forms.ChoiceField(
        label=_("Matches"), choices=[("", _("every kind")), *Match.Kind.choices], required=False
    )
    period = forms.ChoiceField(label=_("Period"), choices=PERIOD_CHOICES, required=False)

    def filters(self) -> Filters:
        """The filters asked for; a value that is not one of the choices is left out (the
        form shows why)."""
        if not self.is_bound:
            return Filters()
        self.is_valid()
        data = self.cleaned_data
        return Filters(
            preset=data.get("preset") or None,
            kind=data.get("kind") or None,
            period=data.get("period") or "all",
        )


@dataclass(frozen=True)
class Board:
    """What a leaderboard shows: a preset's pool, players with at least `least` rated matches
    (in the period), and a name searched for."""

    preset: str = "classic"
    period: str = "all"
    least: int = 1
    search: str = ""


class LeaderboardForm(forms.Form):
    preset = forms.ChoiceField(
        label=_("Rules"), choices=list(PRESET_LABELS.items()), required=False
    )
    period = forms.ChoiceField(label=_("Period"), choices=PERIOD_CHOICES, required=False)
    least = forms.IntegerField(
        label=_("At least this many matches"), min_value=1, max_value=10_000, required=False
    )
    search = forms.CharField(label=_("Find a player"), max_length=40, required=False)

    def clean_search(self) -> str:
        search = self.cleaned_data["search"].strip()
        problem = name_problem(search) if search else None
        if problem:
            raise forms.ValidationError(problem)
        return normalize_name(search)

    def choice(self) -> Board:
        """The board asked for; a value that is not allowed is left out (the form shows why)."""
        if not self.is_bound:
            return Board()
        self.is_valid()
        data = self.cleaned_data
        return Board(
            preset=data.get("preset") or Board.preset,
            period=data.get("period") or Board.period,
            least=data.get("least") or Board.least,
            search=data.get("search") or "",
        )
