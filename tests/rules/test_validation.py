"""Every kind of bad score sheet is rejected with a message a person understands."""

import ast
import pickle
from pathlib import Path
from typing import Any

import pytest

from games import rules
from games.rules import PRESETS, Outcome, RulesError, parse_card, score_match

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]
ANN, BOB, CAT = "Ann", "Bob", "Cat"
TABLE = [ANN, BOB, CAT]
GOOD = {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥ A♣"}, CAT: {"points": 17}}


def rejected(variant: Any, players: Any, rounds: Any) -> RulesError:
    with pytest.raises(RulesError) as error:
        score_match(variant, players, rounds)
    return error.value


@pytest.mark.parametrize(
    ("outcomes", "message", "player"),
    [
        (
            {ANN: {"out": "Q♠"}, BOB: {"out": "9♥"}, CAT: {"points": 17}},
            "Round 1: With 'first out', exactly one player goes out; here 2 did (Ann, Bob)",
            None,
        ),
        (
            {ANN: {"hand": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"points": 17}},
            "Round 1: With 'first out', exactly one player goes out; here nobody did",
            None,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "Q♠ A♣"}, CAT: {"points": 17}},
            "Round 1: Q♠ is given twice (Ann, Bob)",
            BOB,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "A♣ 9h Тк"}, CAT: {"points": 17}},
            "Round 1: A♣ is given twice in the cards of Bob",
            BOB,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥ 5♠"}, CAT: {"points": 17}},
            "Round 1: 5♠ is not in a 36-card deck",
            BOB,
        ),
        (
            {ANN: {"out": "2♠"}, BOB: {"hand": "9♥"}, CAT: {"points": 17}},
            "Round 1: 2♠ is not in a 36-card deck",
            ANN,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥ Qx"}, CAT: {"points": 17}},
            'Round 1: "Qx" is not a card',
            BOB,
        ),
        (
            {
                ANN: {"out": "Q♠"},
                BOB: {"hand": "9♥"},
                CAT: {"points": 17},
                "Dan": {"points": 1},
            },
            "Round 1: Dan is not playing in this match",
            "Dan",
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}},
            "Round 1: No outcome for Cat",
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {}},
            "Round 1: Give Cat exactly one outcome: went out (with a card), cards left, or points",
            CAT,
        ),
        (
            {
                ANN: {"out": "Q♠"},
                BOB: {"hand": "9♥"},
                CAT: {"hand": "A♣", "points": 11},
            },
            "Round 1: Give Cat exactly one outcome",
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"cards": "A♣"}},
            "Round 1: Give Cat exactly one outcome",
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: 11},
            "Round 1: Give Cat exactly one outcome",
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": ""}, CAT: {"points": 17}},
            'Round 1: Bob has no cards left: choose "went out" and the card they went out with',
            BOB,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": []}, CAT: {"points": 17}},
            'Round 1: Bob has no cards left: choose "went out"',
            BOB,
        ),
        (
            {ANN: {"out": "Q♠ Q♥"}, BOB: {"hand": "9♥"}, CAT: {"points": 17}},
            "Round 1: Ann goes out with exactly one card, not 2",
            ANN,
        ),
        (
            {ANN: {"out": ""}, BOB: {"hand": "9♥"}, CAT: {"points": 17}},
            "Round 1: Ann goes out with exactly one card, not 0",
            ANN,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"points": -20}},
            "Round 1: Points for Cat cannot be negative (-20): going out with a Queen is "
            'entered as "went out" with that Queen',
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"points": True}},
            "Round 1: Points for Cat must be a whole number, not True",
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"points": "17"}},
            "Round 1: Points for Cat must be a whole number, not '17'",
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"points": 17.0}},
            "Round 1: Points for Cat must be a whole number, not 17.0",
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"points": 205}},
            "Round 1: Points for Cat (205) are more than the whole deck is worth (204)",
            CAT,
        ),
        (
            {ANN: {"out": "Q♠"}, BOB: {"hand": 9}, CAT: {"points": 17}},
            "Round 1: Cards are written like Q♠ 10♥, not 9",
            BOB,
        ),
    ],
)
def test_a_bad_round_says_what_is_wrong_and_whose_it_is(
    outcomes: dict[str, Any], message: str, player: str | None
) -> None:
    error = rejected(CLASSIC, TABLE, [outcomes])
    assert str(error).startswith(message)
    assert error.player == player
    assert error.round == 0


def test_a_whole_deck_of_points_is_allowed_and_depends_on_the_variant() -> None:
    sheet = [{ANN: {"out": "Q♠"}, BOB: {"points": 204}}]
    assert score_match(CLASSIC.replace(lose_over=1000), [ANN, BOB], sheet).totals[BOB] == 204
    # Nines count in conventions, so the deck is worth 36 more.
    sheet = [{ANN: {"out": "Q♠"}, BOB: {"points": 241}}]
    assert "(240)" in str(rejected(CONVENTIONS, [ANN, BOB], sheet))


def test_the_round_number_is_one_based_for_people_and_zero_based_in_code() -> None:
    error = rejected(CLASSIC, TABLE, [GOOD, GOOD | {CAT: {"points": -1}}])
    assert str(error).startswith("Round 2: Points for Cat cannot be negative")
    assert error.round == 1
    assert error.template.startswith("Points for %(player)s cannot be negative")
    assert error.params == {"player": CAT, "points": -1}


def test_aaow_needs_exactly_one_player_still_holding_cards() -> None:
    two_holders = {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"points": 17}}
    error = rejected(AAOW, TABLE, [two_holders])
    assert str(error) == (
        "Round 1: With 'last holder', exactly one player still holds cards at the end; "
        "here 2 do (Bob, Cat)"
    )
    all_out = {ANN: {"out": "Q♠"}, BOB: {"out": "9♥"}, CAT: {"out": "A♣"}}
    assert str(rejected(AAOW, TABLE, [all_out])).endswith("here nobody does")


def test_aaow_rejects_a_round_after_the_match_has_ended() -> None:
    loses = {ANN: {"out": "Q♠"}, BOB: {"out": "9♥"}, CAT: {"points": 102}}
    next_round = {ANN: {"out": "Q♥"}, BOB: {"out": "9♠"}, CAT: {"points": 1}}
    error = rejected(AAOW, TABLE, [loses, next_round])
    assert str(error) == "Round 2: The match ended in round 1; no round can follow it"
    assert error.round == 1


def test_classic_rejects_an_outcome_for_a_player_who_already_lost() -> None:
    bob_loses = {ANN: {"out": "Q♠"}, BOB: {"points": 110}, CAT: {"points": 5}}
    error = rejected(CLASSIC, TABLE, [bob_loses, GOOD])
    assert str(error) == "Round 2: Bob lost in round 1 and no longer plays"
    assert error.player == BOB
    without_bob = {ANN: {"out": "Q♠"}, CAT: {"points": 5}}
    assert score_match(CLASSIC, TABLE, [bob_loses, without_bob]).rounds[1].scores == {
        ANN: -40,
        CAT: 5,
    }


def test_classic_rejects_a_round_after_the_last_survivor_is_left() -> None:
    both_lose = {ANN: {"out": "Q♠"}, BOB: {"points": 110}, CAT: {"points": 105}}
    error = rejected(CLASSIC, TABLE, [both_lose, {ANN: {"out": "Q♥"}}])
    assert str(error) == "Round 2: The match ended in round 1; no round can follow it"


def test_a_round_must_be_a_mapping() -> None:
    error = rejected(CLASSIC, TABLE, [[("Ann", {"out": "Q♠"})]])
    assert str(error) == "Round 1: A round maps each player to an outcome, not list"


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([ANN], "A match needs 2 to 4 players, not 1"),
        ([], "A match needs 2 to 4 players, not 0"),
        ([ANN, BOB, CAT, "Dan", "Eve"], "A match needs 2 to 4 players, not 5"),
        ([ANN, BOB, ANN], "Ann is seated twice"),
        ([ANN, ""], "A player's name must be non-empty text, not ''"),
        ([ANN, 7], "A player's name must be non-empty text, not 7"),
        ("AnnBob", "Players are a list of names, not 'AnnBob'"),
    ],
)
def test_players_must_be_two_to_four_unique_names(players: Any, message: str) -> None:
    assert str(rejected(CLASSIC, players, [])) == message


def test_outcomes_may_be_outcome_objects_and_are_checked_the_same() -> None:
    queen = parse_card("Q♠")
    sheet = [{ANN: Outcome("out", queen), BOB: Outcome("hand", (queen,))}]
    assert str(rejected(CLASSIC, [ANN, BOB], sheet)) == "Round 1: Q♠ is given twice (Ann, Bob)"
    sheet = [{ANN: Outcome("out", queen), BOB: Outcome("points", -3)}]
    assert "cannot be negative" in str(rejected(CLASSIC, [ANN, BOB], sheet))


def test_rules_errors_render_through_a_translation_function() -> None:
    error = rejected(CLASSIC, TABLE, [GOOD | {CAT: {"points": -1}}])
    russian = {
        "Round %(number)s: %(message)s": "Раунд %(number)s: %(message)s",
        error.template: "Очки игрока %(player)s не могут быть отрицательными (%(points)s)",
    }
    assert error.render(lambda template: russian.get(template, template)) == (
        "Раунд 1: Очки игрока Cat не могут быть отрицательными (-1)"
    )


def test_rules_errors_survive_pickling() -> None:
    error = rejected(CLASSIC, TABLE, [GOOD, GOOD | {BOB: {"hand": "Q♠"}}])
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.player, copy.round) == (str(error), BOB, 1)
    assert str(copy) == "Round 2: Q♠ is given twice (Ann, Bob)"


def test_card_params_stay_cards_for_a_form_to_render() -> None:
    error = rejected(CLASSIC, TABLE, [GOOD | {BOB: {"hand": "Q♠"}}])
    assert error.params["card"] == parse_card("Q♠")
    assert error.template == "%(card)s is given twice (%(first)s, %(second)s)"


def test_every_message_template_is_marked_for_translation() -> None:
    # makemessages only finds strings inside gettext_noop(...) calls.
    marked = unmarked = 0
    for path in sorted(Path(rules.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RulesError":
                template = node.args[0]
                if isinstance(template, ast.Constant):
                    unmarked += 1
                else:
                    marked += 1
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop":
                assert isinstance(node.args[0], ast.Constant | ast.Name)
    assert unmarked == 0
    assert marked > 20
