"""Forms of tournaments: the settings, adding players, importing a list."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core import csvfiles
from core.validators import (
    normalize_name,
    validate_multiline_text,
    validate_name,
    validate_text,
)
from games.forms import RulesFormMixin
from tournaments.models import DEFAULT_TIE_BREAKS, TIE_BREAKS, Tournament
from tournaments.standings import DEFAULT_POINTS, check_points

TIE_BREAK_SLOTS = len(TIE_BREAKS)
MAX_ROUNDS = 20
# Far above any club's scheme, far below what would overflow a float in the standings.
MAX_PLACE_POINTS = 1000


def points_text(points) -> str:
    """3, 1.5, 0 — how a list of points is written in the form."""
    return ", ".join(format(float(p), "g") for p in points)


class TournamentForm(RulesFormMixin, forms.ModelForm):
    """Everything a director sets: the event, the rules, the tables, points and tie-breaks."""

    points_4 = forms.CharField(label=_("Points by place at a table of 4"), max_length=60)
    points_3 = forms.CharField(label=_("Points by place at a table of 3"), max_length=60)
    points_2 = forms.CharField(label=_("Points by place at a table of 2"), max_length=60)

    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "place",
            "description",
            "rounds_planned",
            "table_size",
            "match_end",
            "deals_per_match",
            "final_table_size",
            "registration_open",
            "confirm_results",
        ]
        widgets = {
            # A date input takes only ISO dates, never the language's format (25.11.2026).
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "description": forms.Textarea(attrs={"rows": 3}),
            "table_size": forms.RadioSelect,
            "match_end": forms.RadioSelect,
        }
        # A tournament's name is a title ("название"), its place a venue ("место проведения"):
        # not a person's name nor a place at a table, as the models' shared words would say.
        labels = {
            "name": pgettext_lazy("tournament", "Name"),
            "place": pgettext_lazy("tournament", "Place"),
        }
        help_texts = {
            "final_table_size": _(
                "Leave empty for no final; 2 to 4 seats the best players at one table "
                "after the last round."
            ),
            "deals_per_match": _("Only when a table's match ends after a fixed number of deals."),
        }

    def __init__(self, *args, preset: str | None = None, **kwargs):
        instance = kwargs.get("instance")
        super().__init__(*args, **kwargs)
        if instance is not None and instance.pk:
            self.initial.setdefault("preset", instance.preset)
            preset = preset or instance.preset
        self.add_rules_fields(preset)
        if instance is not None and instance.pk:
            for name, value in instance.options.items():
                self.fields[name].initial = value
        scheme = (
            {int(k): v for k, v in instance.points_by_place.items()}
            if instance is not None and instance.pk
            else DEFAULT_POINTS
        )
        for size in (4, 3, 2):
            self.fields[f"points_{size}"].initial = points_text(scheme[size])
        order = instance.tie_breaks if instance is not None and instance.pk else DEFAULT_TIE_BREAKS
        for slot in range(TIE_BREAK_SLOTS):
            self.fields[f"tie_break_{slot + 1}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": slot + 1},
                choices=[("", "—"), *TIE_BREAKS.items()],
                required=False,
                initial=order[slot] if slot < len(order) else "",
            )
        self.fields["rounds_planned"].widget.attrs.update(min=1, max=MAX_ROUNDS)
        self.fields["name"].validators.append(validate_name)
        self.fields["place"].validators.append(validate_text)
        self.fields["description"].validators.append(validate_multiline_text)

    def table_fields(self) -> list[forms.BoundField]:
        """The rounds and tables (templates/tournaments/_night_fields.html): the fields that
        Meta lists from the rounds on (a club's defaults for its nights list their own)."""
        fields = self.Meta.fields
        return [self[name] for name in fields[fields.index("rounds_planned") :]]

    def tie_break_fields(self) -> list[forms.BoundField]:
        return [self[f"tie_break_{slot + 1}"] for slot in range(TIE_BREAK_SLOTS)]

    def points_fields(self) -> list[forms.BoundField]:
        return [self["points_4"], self["points_3"], self["points_2"]]

    def clean_rounds_planned(self) -> int:
        value = self.cleaned_data["rounds_planned"]
        if not 1 <= value <= MAX_ROUNDS:
            raise forms.ValidationError(
                gettext("A tournament has 1 to %(max)s rounds.") % {"max": MAX_ROUNDS}
            )
        return value

    def clean_final_table_size(self) -> int | None:
        value = self.cleaned_data["final_table_size"]
        if value is not None and not 2 <= value <= 4:
            raise forms.ValidationError(gettext("A final table seats 2 to 4 players."))
        return value

    def _clean_points(self, size: int) -> list:
        text = self.cleaned_data[f"points_{size}"]
        try:
            numbers = [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
            check_points({size: numbers})
        except ValueError:
            raise forms.ValidationError(
                gettext(
                    "Give %(size)s numbers from the best place to the worst, never rising, "
                    "e.g. %(example)s."
                )
                % {"size": size, "example": points_text(DEFAULT_POINTS[size])}
            ) from None
        if any(n > MAX_PLACE_POINTS for n in numbers):
            raise forms.ValidationError(
                gettext("A place gives at most %(max)s tournament points.")
                % {"max": MAX_PLACE_POINTS}
            )
        return [int(n) if n == int(n) else n for n in numbers]

    def clean_points_4(self):
        return self._clean_points(4)

    def clean_points_3(self):
        return self._clean_points(3)

    def clean_points_2(self):
        return self._clean_points(2)

    def clean(self):
        cleaned = super().clean()
        order = []
        for slot in range(TIE_BREAK_SLOTS):
            name = cleaned.get(f"tie_break_{slot + 1}")
            if not name:
                continue
            if name in order:
                self.add_error(
                    f"tie_break_{slot + 1}", gettext("This tie-break is already listed.")
                )
            order.append(name)
        cleaned["tie_breaks"] = order
        if cleaned.get("match_end") == Tournament.MatchEnd.DEALS:
            deals = cleaned.get("deals_per_match")
            if not deals or not 1 <= deals <= 100:
                self.add_error(
                    "deals_per_match", gettext("Give the number of deals, from 1 to 100.")
                )
        cleaned["variant"] = self.clean_variant(cleaned)
        if all(f"points_{size}" in cleaned for size in (4, 3, 2)):
            cleaned["points_by_place"] = {
                str(size): cleaned[f"points_{size}"] for size in (4, 3, 2)
            }
        return cleaned

    def settings(self) -> dict:
        """The model fields to save, as the services take them."""
        data = {name: self.cleaned_data[name] for name in self.Meta.fields}
        data["preset"] = self.cleaned_data["preset"]
        data["points_by_place"] = self.cleaned_data["points_by_place"]
        data["tie_breaks"] = self.cleaned_data["tie_breaks"]
        if data["match_end"] != Tournament.MatchEnd.DEALS:
            data["deals_per_match"] = None
        return data


class AddPlayersForm(forms.Form):
    names = forms.CharField(
        label=_("Players"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One per line: a guest's name, or a registered player's username."),
    )
    checked_in = forms.BooleanField(label=_("Checked in already"), required=False)

    def clean_names(self) -> list[str]:
        names = [line.strip() for line in self.cleaned_data["names"].splitlines() if line.strip()]
        if not names:
            raise forms.ValidationError(gettext("Enter at least one name."))
        # As the names are kept (NFKC, single spaces): the service makes them so.
        too_long = [name for name in names if len(normalize_name(name)) > 40]
        if too_long:
            raise forms.ValidationError(
                gettext("A name can have at most 40 characters: %(name)s")
                % {"name": too_long[0][:50]}
            )
        # A name given twice is skipped by the service, which says so.
        return names


class ImportPlayersForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "From Excel (in any language) or LibreOffice: a column “name” or “Имя” (and "
            "optionally “checked_in”: yes/no), or one name per line. You see what was read "
            "before anyone is added."
        ),
    )

    def clean_file(self) -> csvfiles.Table:
        upload = self.cleaned_data["file"]
        if upload.size > 200_000:
            raise forms.ValidationError(gettext("The file is too large (at most 200 kB)."))
        try:
            return csvfiles.read_table(upload.read())
        except csvfiles.NotText:
            # No text file holds a NUL byte: a spreadsheet, an image or UTF-16 text does.
            raise forms.ValidationError(
                gettext("This is not a CSV text file (a spreadsheet?); save it as CSV.")
            ) from None


class ConfirmImportForm(forms.Form):
    """The list read from a file, sent back as the preview showed it: read and checked again
    before anyone is added."""

    text = forms.CharField(widget=forms.HiddenInput, max_length=400_000, strip=False)
    separator = forms.ChoiceField(
        widget=forms.HiddenInput, choices=[(sep, sep) for sep in csvfiles.SEPARATORS]
    )
