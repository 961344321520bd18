"""Forms of clubs: a club's settings (the tournament form's house rules and night defaults),
one line adding members, and the first form of a club night filled from those defaults."""

from __future__ import annotations

import datetime

from django import forms
from django.utils import formats
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.models import Club
from core.validators import validate_multiline_text, validate_name, validate_text
from tournaments.forms import TIE_BREAK_SLOTS, TournamentForm, points_text


class NewClubForm(forms.ModelForm):
    """What a club starts with; the rules and night defaults are its settings."""

    class Meta:
        model = Club
        fields = ["name", "city", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        labels = {"name": pgettext_lazy("tournament", "Name")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].validators.append(validate_name)
        self.fields["city"].validators.append(validate_text)
        self.fields["description"].validators.append(validate_multiline_text)


class ClubForm(TournamentForm):
    """A club's settings: the same house rules and night fields as a tournament's (the
    fields mean the same on both models), with the club's name, city and description."""

    class Meta(TournamentForm.Meta):
        model = Club
        fields = [
            "name",
            "city",
            "description",
            "place",
            "rounds_planned",
            "table_size",
            "match_end",
            "deals_per_match",
            "final_table_size",
            "confirm_results",
        ]
        labels = {**TournamentForm.Meta.labels, "place": _("Where the nights are played")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["city"].validators.append(validate_text)


def night_initial(club: Club, today: datetime.date) -> dict:
    """A new night's form as the club's defaults fill it: today, named after the club and
    the date ("Клуб «Туз» — 27 ноября"), its rules, tables, points and tie-breaks."""
    initial = {
        # "E": the month as a date says it (ноября), not as a calendar's heading (ноябрь).
        "name": f"{club.name} — {formats.date_format(today, 'j E')}",
        "date": today,
        "place": club.place,
        "preset": club.preset,
        "rounds_planned": club.rounds_planned,
        "table_size": club.table_size,
        "match_end": club.match_end,
        "deals_per_match": club.deals_per_match,
        "final_table_size": club.final_table_size,
        "confirm_results": club.confirm_results,
        **club.options,
    }
    for size in (4, 3, 2):
        initial[f"points_{size}"] = points_text(club.points_by_place[str(size)])
    order = club.tie_breaks
    for slot in range(TIE_BREAK_SLOTS):
        initial[f"tie_break_{slot + 1}"] = order[slot] if slot < len(order) else ""
    return initial


class AddMembersForm(forms.Form):
    """One line: a guest's name, or an account's username."""

    name = forms.CharField(
        label=_("A guest's name or a player's username"),
        max_length=40,
        validators=[validate_name],
    )
