"""The forms of played tables: a new table (who sits where, the rules, lobby and timer), and a
vacation from correspondence tables."""

from __future__ import annotations

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards101.rules import RulesError, score_match
from core import validators
from games.forms import MAX_PLAYERS, RulesFormMixin
from games.labels import rules_message

SEAT_CHOICES = [
    ("", _("no seat")),
    ("open", _("a person I invite (by a link)")),
    ("random", _("a bot: random")),
    ("greedy", _("a bot: greedy")),
    ("expert", _("a bot: expert")),
]
HOUR, DAY = 3600, 86400
TIMER_CHOICES = [
    ("", _("no timer")),
    (
        _("Live"),
        [("30", _("30 seconds")), ("60", _("1 minute")), ("120", _("2 minutes"))],
    ),
    (
        # Hours or days a move (play.correspondence): a vacation stops the clock.
        _("By correspondence"),
        [
            (str(HOUR), _("1 hour")),
            (str(12 * HOUR), _("12 hours")),
            (str(DAY), _("1 day")),
            (str(2 * DAY), _("2 days")),
            (str(3 * DAY), _("3 days")),
            (str(7 * DAY), _("7 days")),
        ],
    ),
]


class PlayTableForm(RulesFormMixin, forms.Form):
    """A table to play on the site: who sits where, the rules, lobby and timer."""

    name = forms.CharField(
        label=_("Table name"),
        max_length=60,
        required=False,
        help_text=_("Optional. Without one, the table is called by its players' names."),
    )
    public = forms.BooleanField(
        label=_("Anyone may join from the lobby"),
        required=False,
        help_text=_("Otherwise only people with the invitation link can take the open seats."),
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Time for a move"),
        choices=TIMER_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_(
            "When it runs out the site plays for the absent player; after two in a row that "
            "seat plays as a bot until its player is back. By correspondence, a player's "
            "vacation stops their clock."
        ),
    )

    def __init__(self, *args, preset: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for number in range(2, MAX_PLAYERS + 1):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=_("Seat %(number)s") % {"number": number},
                choices=SEAT_CHOICES if number > 2 else SEAT_CHOICES[1:],
                initial="greedy" if number <= 3 else "",
                required=number == 2,
            )
        self.add_rules_fields(preset)

    def clean_name(self) -> str:
        # As a player's name is kept: NFKC, single spaces, nothing invisible.
        return validators.clean_name(self.cleaned_data["name"])

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{number}"] for number in range(2, MAX_PLAYERS + 1)]

    def clean(self):
        cleaned = super().clean()
        seats = ["me"] + [
            cleaned[f"seat_{n}"] for n in range(2, MAX_PLAYERS + 1) if cleaned.get(f"seat_{n}")
        ]
        cleaned["seats"] = seats
        variant = self.clean_variant(cleaned)
        if self.errors or variant is None:
            return cleaned
        try:
            score_match(variant, list(range(len(seats))), [])
        except RulesError as error:
            raise forms.ValidationError(rules_message(error)) from None
        cleaned["variant"] = variant
        return cleaned


class VacationDatesForm(forms.Form):
    """A vacation from one day to another (both taken whole, where the site is)."""

    starts = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    ends = forms.DateField(
        label=_("To"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("The last day of the vacation."),
    )

    def clean(self):
        cleaned = super().clean()
        starts, ends = cleaned.get("starts"), cleaned.get("ends")
        if starts and ends and ends < starts:
            raise forms.ValidationError(_("The vacation's last day comes after its first."))
        # No allowance reaches further (a year's days, taken at the end of the next year).
        if ends and ends > timezone.localdate() + datetime.timedelta(days=2 * 366):
            raise forms.ValidationError(_("Take a vacation that ends within the next two years."))
        return cleaned

    def span(self) -> tuple[datetime.datetime, datetime.datetime]:
        """From the first day's start (or now, if it is today) to the end of the last day."""
        tz = timezone.get_current_timezone()
        starts = datetime.datetime.combine(self.cleaned_data["starts"], datetime.time(), tz)
        after = self.cleaned_data["ends"] + datetime.timedelta(days=1)
        return max(starts, timezone.now()), datetime.datetime.combine(after, datetime.time(), tz)


class VacationDaysForm(forms.Form):
    """A vacation from now on, for so many days."""

    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=366, initial=7)

    def span(self) -> tuple[datetime.datetime, datetime.datetime]:
        now = timezone.now()
        return now, now + datetime.timedelta(days=self.cleaned_data["days"])
