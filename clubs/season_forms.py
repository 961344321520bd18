"""The form of a club's season: its name, dates and what its table counts. What makes sense
together (the end after the start) is checked once, by the service (clubs.services)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.models import Season
from core.validators import validate_name

# A season of a year of weekly nights counts at most this many.
MAX_NIGHTS = 366


def _date_input() -> forms.DateInput:
    # A date input takes only ISO dates, never the language's format (25.11.2026).
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class SeasonForm(forms.Form):
    name = forms.CharField(
        label=pgettext_lazy("season", "Name"), max_length=100, validators=[validate_name]
    )
    starts = forms.DateField(
        label=pgettext_lazy("season", "Starts"), widget=_date_input(), input_formats=["%Y-%m-%d"]
    )
    ends = forms.DateField(
        label=pgettext_lazy("season", "Ends"), widget=_date_input(), input_formats=["%Y-%m-%d"]
    )
    best_nights = forms.IntegerField(
        label=_("Best nights counted"),
        min_value=1,
        max_value=MAX_NIGHTS,
        required=False,
        help_text=_("Each player's best N nights count; empty: every night counts."),
    )
    min_nights = forms.IntegerField(
        label=_("Nights needed to be ranked"),
        min_value=1,
        max_value=MAX_NIGHTS,
        required=False,
        help_text=_("Players with fewer nights are listed after, without a place; empty: none."),
    )

    @classmethod
    def of(cls, season: Season, data=None) -> SeasonForm:
        fields = ("name", "starts", "ends", "best_nights", "min_nights")
        form = cls(data, initial={name: getattr(season, name) for name in fields})
        if season.closed_at is not None:
            # A closed season keeps its table: only its name changes until it is reopened.
            for name in fields[1:]:
                form.fields[name].disabled = True
        return form
