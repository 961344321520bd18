"""The rules model: presets, options, validation and the saved form of a variant."""

import json
from typing import Any

import pytest

from cards101.rules import (
    PRESETS,
    RulesError,
    Variant,
    changed_options,
    check_players,
    preset_name,
)

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]

# One row per option of RULES.md: (option, aaow, classic, conventions).
PRESET_TABLE = [
    ("deck_size", 36, 36, 36),
    ("hand_size", 4, 4, 5),
    ("opening", "dealer_card", "any", "any"),
    ("leader", "previous_winner", "previous_winner", "previous_winner"),
    ("after_draw", "may_play", "may_play", "pass"),
    ("draw_when_able", False, True, False),
    ("ace_skips", True, True, True),
    ("six", "draw_2_skip", "cover_self", "cover_self_suit"),
    ("seven_draw", 1, 2, 2),
    ("seven_of_spades_draw", 1, 4, 2),
    ("eight", "cover_self_skip", "plain", "plain"),
    ("king_of_spades_draw", 5, 5, 5),
    ("restock", "turn_over", "turn_over", "turn_over"),
    ("round_end", "last_holder", "first_out", "first_out"),
    ("nine_points", 0, 0, 9),
    ("big_queen", "S", "S", "H"),
    ("out_bonus", True, True, True),
    ("queens_only_penalty", False, True, True),
    ("reset_at_101", True, True, True),
    ("reset_at_100", False, True, False),
    ("lose_over", 101, 101, 101),
    ("game_end", "first_loser", "last_survivor", "first_loser"),
]


@pytest.mark.parametrize(("option", "aaow", "classic", "conventions"), PRESET_TABLE)
def test_presets_have_the_values_of_rules_md(
    option: str, aaow: Any, classic: Any, conventions: Any
) -> None:
    assert getattr(AAOW, option) == aaow
    assert getattr(CLASSIC, option) == classic
    assert getattr(CONVENTIONS, option) == conventions
    # True == 1 in Python; the type must match too.
    assert type(getattr(CLASSIC, option)) is type(classic)


def test_the_table_covers_every_option_in_display_order() -> None:
    assert tuple(row[0] for row in PRESET_TABLE) == Variant.option_names()


def test_presets_cannot_be_changed() -> None:
    with pytest.raises(TypeError):
        PRESETS["mine"] = AAOW  # type: ignore[index]
    with pytest.raises(AttributeError):
        CLASSIC.hand_size = 5  # type: ignore[misc]
    assert sorted(PRESETS) == ["aaow", "classic", "conventions"]


def test_replace_makes_a_house_variant_and_leaves_the_preset_alone() -> None:
    house = CLASSIC.replace(reset_at_100=False)
    assert house.reset_at_100 is False
    assert CLASSIC.reset_at_100 is True
    assert preset_name(house) is None
    assert changed_options(house, CLASSIC) == {"reset_at_100": False}


@pytest.mark.parametrize(
    ("option", "good"),
    [
        ("deck_size", 52),
        ("hand_size", 3),
        ("hand_size", 8),
        ("opening", "last_dealt"),
        ("leader", "clockwise"),
        ("after_draw", "pass"),
        ("draw_when_able", True),
        ("ace_skips", False),
        ("six", "plain"),
        ("seven_draw", 0),
        ("seven_of_spades_draw", 5),
        ("eight", "cover_self_skip"),
        ("king_of_spades_draw", 0),
        ("restock", "shuffle"),
        ("round_end", "last_holder"),
        ("nine_points", 9),
        ("big_queen", "C"),
        ("out_bonus", False),
        ("queens_only_penalty", False),
        ("reset_at_101", False),
        ("reset_at_100", False),
        ("lose_over", 50),
        ("lose_over", 1000),
        ("game_end", "first_loser"),
    ],
)
def test_every_option_accepts_its_allowed_values(option: str, good: Any) -> None:
    assert getattr(CLASSIC.replace(**{option: good}), option) == good


@pytest.mark.parametrize(
    ("option", "bad", "message"),
    [
        ("deck_size", 32, "Option 'deck_size' must be one of 36, 52, not 32"),
        ("deck_size", "36", "Option 'deck_size' must be one of 36, 52, not '36'"),
        (
            "hand_size",
            2,
            "Option 'hand_size' must be a whole number from 3 to 8, not 2",
        ),
        (
            "hand_size",
            9,
            "Option 'hand_size' must be a whole number from 3 to 8, not 9",
        ),
        ("hand_size", True, "from 3 to 8, not True"),
        ("hand_size", 4.0, "from 3 to 8, not 4.0"),
        (
            "opening",
            "first",
            "Option 'opening' must be one of 'dealer_card', 'any', 'last_dealt', not 'first'",
        ),
        ("leader", "random", "Option 'leader' must be one of"),
        ("after_draw", None, "Option 'after_draw' must be one of"),
        (
            "draw_when_able",
            1,
            "Option 'draw_when_able' must be one of False, True, not 1",
        ),
        ("ace_skips", "yes", "Option 'ace_skips' must be one of False, True"),
        ("six", "skip", "'draw_2_skip', 'cover_self', 'cover_self_suit', 'plain'"),
        ("seven_draw", 6, "Option 'seven_draw' must be a whole number from 0 to 5"),
        ("seven_of_spades_draw", -1, "Option 'seven_of_spades_draw' must be"),
        ("eight", "skip", "Option 'eight' must be one of 'cover_self_skip', 'plain'"),
        ("king_of_spades_draw", 7, "Option 'king_of_spades_draw' must be"),
        ("restock", "new_deck", "Option 'restock' must be one of"),
        ("round_end", "all_out", "Option 'round_end' must be one of"),
        ("nine_points", 10, "Option 'nine_points' must be one of 0, 9, not 10"),
        ("nine_points", False, "Option 'nine_points' must be one of 0, 9, not False"),
        ("big_queen", "♠", "Option 'big_queen' must be one of 'S', 'H', 'D', 'C'"),
        ("out_bonus", 0, "Option 'out_bonus' must be one of False, True"),
        ("queens_only_penalty", "no", "Option 'queens_only_penalty' must be"),
        ("reset_at_101", None, "Option 'reset_at_101' must be one of False, True"),
        ("reset_at_100", 1, "Option 'reset_at_100' must be one of False, True"),
        ("lose_over", 49, "Option 'lose_over' must be a whole number from 50 to 1000"),
        ("lose_over", 1001, "from 50 to 1000, not 1001"),
        ("game_end", "never", "Option 'game_end' must be one of"),
    ],
)
def test_replace_rejects_a_bad_value_naming_the_option_and_allowed_values(
    option: str, bad: Any, message: str
) -> None:
    with pytest.raises(RulesError) as error:
        CLASSIC.replace(**{option: bad})
    assert message in str(error.value)
    assert isinstance(error.value, ValueError)


def test_replace_rejects_an_unknown_option() -> None:
    with pytest.raises(ValueError, match=r"^unknown option 'x'$"):
        CLASSIC.replace(x=1)


def test_building_a_variant_directly_is_validated_too() -> None:
    data = CLASSIC.as_dict() | {"six": "wild"}
    with pytest.raises(RulesError, match="Option 'six'"):
        Variant(**data)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_as_dict_is_json_safe_and_round_trips(name: str) -> None:
    variant = PRESETS[name]
    data = variant.as_dict()
    assert list(data) == list(Variant.option_names())
    assert all(type(value) in (str, int, bool) for value in data.values())
    assert Variant.from_dict(json.loads(json.dumps(data))) == variant


def test_a_house_variant_round_trips_too() -> None:
    house = AAOW.replace(deck_size=52, hand_size=8, lose_over=500, big_queen="D")
    assert Variant.from_dict(house.as_dict()) == house


def test_from_dict_names_the_missing_options() -> None:
    data = CLASSIC.as_dict()
    del data["six"], data["lose_over"]
    with pytest.raises(RulesError, match=r"^Missing options: six, lose_over$"):
        Variant.from_dict(data)


def test_from_dict_rejects_an_unknown_option_and_a_bad_value() -> None:
    with pytest.raises(RulesError, match="unknown option 'sevens'"):
        Variant.from_dict(CLASSIC.as_dict() | {"sevens": 2})
    with pytest.raises(RulesError, match="Option 'lose_over'"):
        Variant.from_dict(CLASSIC.as_dict() | {"lose_over": "101"})
    with pytest.raises(RulesError, match="mapping of options"):
        Variant.from_dict([("six", "plain")])  # type: ignore[arg-type]


def test_option_choices_describe_a_form() -> None:
    assert Variant.option_choices("deck_size") == (36, 52)
    assert Variant.option_choices("six") == (
        "draw_2_skip",
        "cover_self",
        "cover_self_suit",
        "plain",
    )
    assert Variant.option_choices("reset_at_101") == (False, True)
    assert Variant.option_choices("nine_points") == (0, 9)
    assert Variant.option_choices("hand_size") is None
    assert Variant.option_range("hand_size") == (3, 8)
    assert Variant.option_range("lose_over") == (50, 1000)
    assert Variant.option_range("seven_draw") == (0, 5)
    assert Variant.option_range("six") is None
    with pytest.raises(RulesError, match="unknown option 'sevens'"):
        Variant.option_choices("sevens")


def test_every_option_has_either_choices_or_a_range() -> None:
    for name in Variant.option_names():
        assert (Variant.option_choices(name) is None) != (Variant.option_range(name) is None)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_name_recognises_each_preset(name: str) -> None:
    assert preset_name(PRESETS[name]) == name
    assert preset_name(Variant.from_dict(PRESETS[name].as_dict())) == name


def test_changed_options_lists_what_differs_in_display_order() -> None:
    assert changed_options(CLASSIC, CLASSIC) == {}
    assert changed_options(CONVENTIONS, CLASSIC) == {
        "hand_size": 5,
        "after_draw": "pass",
        "draw_when_able": False,
        "six": "cover_self_suit",
        "seven_of_spades_draw": 2,
        "nine_points": 9,
        "big_queen": "H",
        "reset_at_100": False,
        "game_end": "first_loser",
    }


@pytest.mark.parametrize("count", [2, 3, 4])
def test_two_to_four_players_can_sit_down(count: int) -> None:
    check_players(CLASSIC, count)
    check_players(CLASSIC.replace(hand_size=8), count)


@pytest.mark.parametrize("count", [0, 1, 5, True])
def test_other_numbers_of_players_cannot(count: int) -> None:
    with pytest.raises(RulesError, match="A match needs 2 to 4 players"):
        check_players(CLASSIC, count)
