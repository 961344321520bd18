"""The rules model: every option on which the presets differ, and the three presets."""

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Self

from cards101.rules.errors import RulesError, gettext_noop

# Allowed values of each option, in display order: a tuple of choices or a range of ints.
_OPTIONS: Mapping[str, tuple[Any, ...] | range] = MappingProxyType(
    {
        "deck_size": (36, 52),
        "hand_size": range(3, 9),
        "opening": ("dealer_card", "any", "last_dealt"),
        "leader": ("previous_winner", "clockwise"),
        "after_draw": ("may_play", "pass"),
        "draw_when_able": (False, True),
        "ace_skips": (False, True),
        "six": ("draw_2_skip", "cover_self", "cover_self_suit", "plain"),
        "seven_draw": range(6),
        "seven_of_spades_draw": range(6),
        "eight": ("cover_self_skip", "plain"),
        "king_of_spades_draw": range(6),
        "restock": ("turn_over", "shuffle"),
        "round_end": ("first_out", "last_holder"),
        "nine_points": (0, 9),
        "big_queen": ("S", "H", "D", "C"),
        "out_bonus": (False, True),
        "queens_only_penalty": (False, True),
        "reset_at_101": (False, True),
        "reset_at_100": (False, True),
        "lose_over": range(50, 1001),
        "game_end": ("first_loser", "last_survivor"),
    }
)

UNKNOWN_OPTION = gettext_noop("unknown option '%(option)s'")


def _check_value(name: str, value: Any) -> None:
    allowed = _OPTIONS[name]
    # bool is an int in Python; an option that wants a number must not take True.
    if isinstance(allowed, range):
        if type(value) is not int or value not in allowed:
            raise RulesError(
                gettext_noop(
                    "Option '%(option)s' must be a whole number from %(low)s to %(high)s, "
                    "not %(value)s"
                ),
                {
                    "option": name,
                    "low": allowed.start,
                    "high": allowed.stop - 1,
                    "value": repr(value),
                },
            )
    elif not any(type(value) is type(choice) and value == choice for choice in allowed):
        raise RulesError(
            gettext_noop("Option '%(option)s' must be one of %(allowed)s, not %(value)s"),
            {
                "option": name,
                "allowed": ", ".join(repr(choice) for choice in allowed),
                "value": repr(value),
            },
        )


@dataclass(frozen=True, slots=True)
class Variant:
    """One club's rules; built only through validation, so every value is allowed."""

    deck_size: Literal[36, 52]
    hand_size: int
    opening: Literal["dealer_card", "any", "last_dealt"]
    leader: Literal["previous_winner", "clockwise"]
    after_draw: Literal["may_play", "pass"]
    draw_when_able: bool
    ace_skips: bool
    six: Literal["draw_2_skip", "cover_self", "cover_self_suit", "plain"]
    seven_draw: int
    seven_of_spades_draw: int
    eight: Literal["cover_self_skip", "plain"]
    king_of_spades_draw: int
    restock: Literal["turn_over", "shuffle"]
    round_end: Literal["first_out", "last_holder"]
    nine_points: Literal[0, 9]
    big_queen: Literal["S", "H", "D", "C"]
    out_bonus: bool
    queens_only_penalty: bool
    reset_at_101: bool
    reset_at_100: bool
    lose_over: int
    game_end: Literal["first_loser", "last_survivor"]

    OPTIONS: ClassVar[Mapping[str, tuple[Any, ...] | range]] = _OPTIONS

    def __post_init__(self) -> None:
        for name in _OPTIONS:
            _check_value(name, getattr(self, name))

    def replace(self, **changes: Any) -> Self:
        """A copy with some options changed; a bad name or value raises RulesError."""
        for name in changes:
            if name not in _OPTIONS:
                raise RulesError(UNKNOWN_OPTION, {"option": name})
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, str | int | bool]:
        """Every option by name, JSON-safe, in display order."""
        return {name: getattr(self, name) for name in _OPTIONS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The variant saved by `as_dict`; every option must be present and allowed."""
        if not isinstance(data, Mapping):
            raise RulesError(
                gettext_noop("A variant is a mapping of options, not %(value)s"),
                {"value": type(data).__name__},
            )
        for name in data:
            if name not in _OPTIONS:
                raise RulesError(UNKNOWN_OPTION, {"option": str(name)})
        missing = [name for name in _OPTIONS if name not in data]
        if missing:
            raise RulesError(
                gettext_noop("Missing options: %(options)s"),
                {"options": ", ".join(missing)},
            )
        return cls(**data)

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """All options, in the order a form shows them (the order of RULES.md)."""
        return tuple(_OPTIONS)

    @classmethod
    def option_choices(cls, name: str) -> tuple[Any, ...] | None:
        """The allowed values of an option; None for a number within `option_range`."""
        allowed = cls._allowed(name)
        return None if isinstance(allowed, range) else allowed

    @classmethod
    def option_range(cls, name: str) -> tuple[int, int] | None:
        """The smallest and largest allowed number; None for an option with choices."""
        allowed = cls._allowed(name)
        return (allowed.start, allowed.stop - 1) if isinstance(allowed, range) else None

    @classmethod
    def _allowed(cls, name: str) -> tuple[Any, ...] | range:
        if name not in _OPTIONS:
            raise RulesError(UNKNOWN_OPTION, {"option": str(name)})
        return _OPTIONS[name]


_AAOW = Variant(
    deck_size=36,
    hand_size=4,
    opening="dealer_card",
    leader="previous_winner",
    after_draw="may_play",
    draw_when_able=False,
    ace_skips=True,
    six="draw_2_skip",
    seven_draw=1,
    seven_of_spades_draw=1,
    eight="cover_self_skip",
    king_of_spades_draw=5,
    restock="turn_over",
    round_end="last_holder",
    nine_points=0,
    big_queen="S",
    out_bonus=True,
    queens_only_penalty=False,
    reset_at_101=True,
    reset_at_100=False,
    lose_over=101,
    game_end="first_loser",
)
_CLASSIC = _AAOW.replace(
    opening="any",
    draw_when_able=True,
    six="cover_self",
    seven_draw=2,
    seven_of_spades_draw=4,
    eight="plain",
    round_end="first_out",
    queens_only_penalty=True,
    reset_at_100=True,
    game_end="last_survivor",
)
_CONVENTIONS = _CLASSIC.replace(
    hand_size=5,
    after_draw="pass",
    draw_when_able=False,
    six="cover_self_suit",
    seven_of_spades_draw=2,
    nine_points=9,
    big_queen="H",
    reset_at_100=False,
    game_end="first_loser",
)

PRESETS: Mapping[str, Variant] = MappingProxyType(
    {"aaow": _AAOW, "classic": _CLASSIC, "conventions": _CONVENTIONS}
)


def preset_name(variant: Variant) -> str | None:
    """The name of the preset this variant equals exactly, if any."""
    for name, preset in PRESETS.items():
        if preset == variant:
            return name
    return None


def changed_options(variant: Variant, base: Variant) -> dict[str, str | int | bool]:
    """Options whose value in `variant` differs from `base`, with the variant's value."""
    return {
        name: getattr(variant, name)
        for name in _OPTIONS
        if getattr(variant, name) != getattr(base, name)
    }


def check_players(variant: Variant, count: int) -> None:
    """Raise RulesError unless `count` players can sit down and be dealt to."""
    if type(count) is not int or not 2 <= count <= 4:
        raise RulesError(
            gettext_noop("A match needs 2 to 4 players, not %(count)s"),
            {"count": str(count)},
        )
    # Every hand plus one card to start the pile.
    needed = count * variant.hand_size + 1
    if needed > variant.deck_size:
        raise RulesError(
            gettext_noop(
                "%(count)s players with %(hand_size)s cards each need %(needed)s cards, "
                "but the deck has %(deck_size)s"
            ),
            {
                "count": count,
                "hand_size": variant.hand_size,
                "needed": needed,
                "deck_size": variant.deck_size,
            },
        )
