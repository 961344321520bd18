"""Forms of the score sheet: a new match with its rules, and one round's outcomes."""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards101.rules import PRESETS, RulesError, Variant, parse_cards, score_match
from core.names import same_name_key
from core.validators import clean_name, name_problem, normalize_name, validate_text
from games.labels import (
    CHOICE_LABELS,
    OPTION_LABELS,
    PRESET_DESCRIPTIONS,
    PRESET_LABELS,
    SCORING_OPTIONS,
    card_notation,
    rules_message,
)
from games.models import Entry, Match, Seat

MAX_PLAYERS = 4
MAX_POINTS = 1000


def _option_field(name: str, initial) -> forms.Field:
    label = OPTION_LABELS[name]
    choices = Variant.option_choices(name)
    if choices == (False, True):
        return forms.BooleanField(label=label, required=False, initial=initial)
    if choices is None:
        low, high = Variant.option_range(name)
        return forms.IntegerField(label=label, min_value=low, max_value=high, initial=initial)
    return forms.TypedChoiceField(
        label=label,
        choices=[(value, CHOICE_LABELS.get((name, value), value)) for value in choices],
        coerce=type(choices[0]),
        initial=initial,
    )


class NameField(forms.CharField):
    """A person's name, made as names are kept (NFKC, single spaces) and refused, naming the
    character, when it holds anything invisible or blank (core.validators.clean_name)."""

    def to_python(self, value):
        value = super().to_python(value)
        return clean_name(value) if value else value


class RulesFormMixin:
    """A preset and every option of the rules, prefilled from the preset (house rules)."""

    # What a form's page includes to show these fields (games/_rules_picker.html), and the part
    # of it a view answers with when a preset is chosen (htmx): the options that preset sets.
    options_template_name = "games/_rules_picker.html#options"

    def add_rules_fields(self, preset: str | None) -> None:
        self.fields["preset"] = forms.ChoiceField(
            label=_("Rules"),
            choices=[(name, PRESET_LABELS[name]) for name in PRESETS],
            widget=forms.RadioSelect,
        )
        chosen = preset if preset in PRESETS else self.initial.get("preset", "classic")
        defaults = PRESETS[chosen]
        for name in Variant.option_names():
            self.fields[name] = _option_field(name, getattr(defaults, name))
        self.fields["preset"].initial = chosen

    def preset_radios(self) -> list[tuple]:
        return [(radio, PRESET_DESCRIPTIONS[radio.data["value"]]) for radio in self["preset"]]

    def scoring_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in Variant.option_names() if name in SCORING_OPTIONS]

    def play_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in Variant.option_names() if name not in SCORING_OPTIONS]

    def clean_variant(self, cleaned: dict) -> Variant | None:
        """The rules chosen, or None with the error added to the form."""
        if "preset" not in cleaned or any(n not in cleaned for n in Variant.option_names()):
            return None
        options = {name: cleaned[name] for name in Variant.option_names()}
        try:
            return PRESETS[cleaned["preset"]].replace(**options)
        except RulesError as error:
            self.add_error(None, rules_message(error))
            return None


class NewMatchForm(RulesFormMixin, forms.Form):
    """Players in seat order, a preset, and the options (prefilled from the preset)."""

    def __init__(self, *args, preset: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for number in range(1, MAX_PLAYERS + 1):
            self.fields[f"player_{number}"] = NameField(
                label=_("Player %(number)s") % {"number": number},
                max_length=40,
                required=number <= 2,
            )
        self.add_rules_fields(preset)

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{number}"] for number in range(1, MAX_PLAYERS + 1)]

    def clean(self):
        cleaned = super().clean()
        names, seen = [], set()
        for n in range(1, MAX_PLAYERS + 1):
            name = (cleaned.get(f"player_{n}") or "").strip()
            if not name:
                continue
            if same_name_key(name) in seen:
                self.add_error(
                    f"player_{n}",
                    gettext("%(name)s is already at this table; add an initial to tell them apart.")
                    % {"name": name},
                )
            seen.add(same_name_key(name))
            names.append(name)
        cleaned["names"] = names
        variant = self.clean_variant(cleaned)
        if self.errors or variant is None:
            return cleaned
        try:
            score_match(variant, names, [])
        except RulesError as error:
            raise forms.ValidationError(rules_message(error)) from None
        cleaned["variant"] = variant
        return cleaned


class EntryForm(forms.Form):
    """One player's outcome of a round."""

    kind = forms.ChoiceField(
        label=_("Outcome"),
        choices=Entry.Kind.choices,
        initial=Entry.Kind.HAND,
        widget=forms.RadioSelect,
    )
    cards = forms.CharField(
        label=_("Cards"),
        required=False,
        max_length=200,
        validators=[validate_text],
        help_text=_("Tap the cards or type them: Q♠ 10h Дп"),
    )
    points = forms.IntegerField(label=_("Points"), required=False)

    def __init__(self, *args, seat: Seat, **kwargs):
        super().__init__(*args, **kwargs)
        self.seat = seat

    @property
    def has_input(self) -> bool:
        """Whether anything was typed or tapped for this player (previews skip blank players)."""
        return bool(self.data.get(self.add_prefix("cards"), "").strip()) or bool(
            self.data.get(self.add_prefix("points"), "").strip()
        )

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind")
        if kind == Entry.Kind.POINTS:
            points = cleaned.get("points")
            if points is None and "points" not in self.errors:
                self.add_error("points", gettext("Enter the points counted at the table."))
            elif points is not None and not -MAX_POINTS <= points <= MAX_POINTS:
                # Huge numbers would overflow the database column; the rules library
                # checks the real limit (the whole deck's points).
                self.add_error("points", gettext("That is far more points than a deck holds."))
            else:
                cleaned["outcome"] = {"points": points}
        elif kind in (Entry.Kind.OUT, Entry.Kind.HAND) and "cards" not in self.errors:
            text = cleaned.get("cards", "")
            try:
                cards = parse_cards(text)
            except RulesError as error:
                self.add_error("cards", rules_message(error))
                return cleaned
            if kind == Entry.Kind.OUT and len(cards) != 1:
                self.add_error("cards", gettext("Choose the one card this player went out with."))
            elif kind == Entry.Kind.HAND and not cards:
                self.add_error(
                    "cards",
                    gettext("Enter the cards left, or choose “went out” or “points”."),
                )
            else:
                cleaned["outcome"] = {kind: " ".join(card.code for card in cards)}
        return cleaned


class RoundForm:
    """The outcomes of every player still in the match, checked together by the rules.

    `version` is what the form was made on (the match's for a new round, the round's for a
    change); the service refuses the form when the sheet has changed since.
    """

    def __init__(
        self,
        *,
        seats: list[Seat],
        number: int,
        version: int,
        round_id: int | None = None,
        data=None,
        initial=None,
    ):
        initial = initial or {}
        self.seats = seats
        self.number = number
        self.version = version
        self.round_id = round_id
        self.forms = [
            EntryForm(data, seat=seat, prefix=f"s{seat.position}", initial=initial.get(seat.pk))
            for seat in seats
        ]
        self.non_field_errors: list[str] = []

    def __iter__(self):
        return iter(self.forms)

    def is_valid(self) -> bool:
        return all([form.is_valid() for form in self.forms]) and not self.non_field_errors

    @property
    def has_marked_errors(self) -> bool:
        """Errors on what was typed or tapped (blank players are not errors yet)."""
        return bool(self.non_field_errors) or any(
            form.errors and form.has_input for form in self.forms
        )

    def outcomes(self) -> dict[int, dict]:
        """Each seat's outcome, keyed by seat position."""
        return {form.seat.position: form.cleaned_data["outcome"] for form in self.forms}

    def add_error(self, message: str) -> None:
        self.non_field_errors.append(message)

    def add_rules_error(self, error: RulesError, names: dict[int, str]) -> None:
        """Show a rules error next to the player it is about, or above the form.

        An error in a later round (this change would break it) keeps its round number.
        """
        if error.round is not None and error.round != self.number - 1:
            self.non_field_errors.append(rules_message(error, names))
            return
        # The form is for one round; "Round 7:" in front of its own error only adds noise.
        message = rules_message(
            RulesError(error.template, error.params, player=error.player), names
        )
        for form in self.forms:
            if form.seat.position == error.player:
                field = "points" if form.cleaned_data.get("kind") == "points" else "cards"
                form.add_error(field, message)
                return
        self.non_field_errors.append(message)


def initial_from_entries(entries: list[Entry]) -> dict[int, dict]:
    """The form's initial data for an earlier round, so it can be edited."""
    initial = {}
    for entry in entries:
        cards = " ".join(card_notation(card) for card in parse_cards(entry.cards))
        initial[entry.seat_id] = {"kind": entry.kind, "cards": cards, "points": entry.points}
    return initial


class MatchFilterForm(forms.Form):
    """Which matches a list shows; a value it does not know is shown as an error and ignored."""

    show = forms.ChoiceField(
        label=_("Matches"),
        choices=[
            ("mine", _("mine")),
            ("recent", _("score sheets")),
            ("tables", _("tournament tables")),
        ],
        required=False,
    )
    status = forms.ChoiceField(
        label=_("Status"),
        choices=[("", _("running or finished")), *Match.Status.choices],
        required=False,
    )
    player = forms.CharField(label=_("Player"), max_length=40, required=False)

    def __init__(self, *args, signed_in: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.signed_in = signed_in
        if not signed_in:
            self.fields["show"].choices = self.fields["show"].choices[1:]
        self.fields["player"].widget.attrs.update(
            {"type": "search", "placeholder": _("a player's name"), "autocomplete": "off"}
        )

    def choice(self) -> dict:
        default = {"show": "mine" if self.signed_in else "recent", "status": "", "player": ""}
        if not self.is_bound or not self.is_valid():
            return default
        data = {key: value for key, value in self.cleaned_data.items() if value}
        if data.get("player") and name_problem(data["player"]):
            data.pop("player")
        elif data.get("player"):
            data["player"] = normalize_name(data["player"])
        return default | data

    def query(self) -> str:
        """The filters as a query string, for the pager's links."""
        return urlencode({key: value for key, value in self.choice().items() if value})
