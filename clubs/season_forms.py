"""The form of a club's season: its name, dates and what its table counts. Whether they make
sense together (the end after the start, at least one night counted) is checked once, by
clubs.seasons.check_settings, which the services call too."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs import seasons
from clubs.errors import ClubError
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
        max_value=MAX_NIGHTS,
        required=False,
        widget=forms.NumberInput(attrs={"min": 1}),
        help_text=_("Each player's best N nights count; empty: every night counts."),
    )
    min_nights = forms.IntegerField(
        label=_("Nights needed to be ranked"),
        max_value=MAX_NIGHTS,
        required=False,
        widget=forms.NumberInput(attrs={"min": 1}),
        help_text=_("Players with fewer nights are listed after, without a place; empty: none."),
    )

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        try:
            data["name"] = seasons.check_settings(
                data["name"], data["starts"], data["ends"], data["best_nights"], data["min_nights"]
            )
        except ClubError as error:
            raise forms.ValidationError(str(error)) from None
        return data

    @classmethod
    def of(cls, season: Season, data=None) -> SeasonForm:
        fields = ("name", "starts", "ends", "best_nights", "min_nights")
        form = cls(data, initial={name: getattr(season, name) for name in fields})
        if season.closed_at is not None:
            # A closed season keeps its table: only its name changes until it is reopened.
            for name in fields[1:]:
                form.fields[name].disabled = True
        return form
