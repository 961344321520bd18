"""The filters of a profile, a head-to-head page and the leaderboard."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

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
