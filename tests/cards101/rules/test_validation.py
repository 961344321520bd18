"""Every kind of bad score sheet is rejected with a message a person understands."""

import ast
import pickle
from pathlib import Path
from typing import Any

import pytest

from cards101 import rules
from cards101.rules import PRESETS, Outcome, RulesError, deck, parse_card, parse_cards, score_match

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
    sheet = [{ANN: {"out": "9♠"}, BOB: {"points": 204}}]
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
        ([ANN, " \t"], "A player's name must be non-empty text, not ' \\t'"),
        ([0, 1, 0], "0 is seated twice"),
        ([(0, "Max"), (1, "Max"), (0, "Max")], "(0, 'Max') is seated twice"),
        ([ANN, None], "A player is given by a name or a seat number, not None"),
        ([0, True], "A player is given by a name or a seat number, not True"),
        ([ANN, ["Bob"]], "A player is given by a name or a seat number, not ['Bob']"),
        ([ANN, (1, ["Bob"])], "A player is given by a name or a seat number, not (1, ['Bob'])"),
        ("AnnBob", "Players are a list of names, not 'AnnBob'"),
    ],
)
def test_players_must_be_two_to_four_unique_keys(players: Any, message: str) -> None:
    assert str(rejected(CLASSIC, players, [])) == message


def test_a_player_seated_twice_is_named_by_the_key_itself() -> None:
    error = rejected(CLASSIC, [0, 1, 0], [])
    assert error.player == 0
    assert error.params == {"player": 0}
    assert error.render(names={0: "Max", 1: "Max"}) == "Max is seated twice"


def test_seat_numbers_are_players_and_errors_carry_the_seat() -> None:
    seats = [0, 1, 2]
    sheet = [{0: {"out": "Q♠"}, 1: {"hand": "9♥ A♣"}, 2: {"points": 17}}]
    result = score_match(CLASSIC, seats, sheet)
    assert result.players == (0, 1, 2)
    assert result.totals == {0: -40, 1: 11, 2: 17}
    assert result.standings == [[0], [1], [2]]
    assert result.leads_next == 0
    error = rejected(CLASSIC, seats, [{0: {"out": "Q♠"}, 1: {"hand": "Q♠"}, 2: {"points": 17}}])
    assert (error.player, error.params["first"], error.params["second"]) == (1, 0, 1)
    assert str(error) == "Round 1: Q♠ is given twice (0, 1)"


def test_two_players_with_the_same_name_are_told_apart_by_seat() -> None:
    names = {0: "Max", 1: "Max", 2: "Cat"}
    sheet = [{0: {"points": 20}, 1: {"out": "Q♥"}, 2: {"points": 5}}]
    assert score_match(CLASSIC, [0, 1, 2], sheet).totals == {0: 20, 1: -20, 2: 5}
    error = rejected(CLASSIC, [0, 1, 2], [{0: {"points": 20}, 1: {"out": "Q♥"}}])
    assert error.player == 2
    assert error.render(names=names) == "Round 1: No outcome for Cat"


def test_true_is_not_seat_one_in_a_round() -> None:
    error = rejected(CLASSIC, [0, 1], [{0: {"out": "Q♠"}, True: {"points": 17}}])
    assert str(error) == "Round 1: True is not playing in this match"
    assert error.player is True
    assert error.render(names={0: "Ann", 1: "Bob"}) == "Round 1: True is not playing in this match"


def test_an_unknown_key_in_a_round_stays_the_key_in_the_error() -> None:
    error = rejected(CLASSIC, [0, 1], [{0: {"out": "Q♠"}, 1: {"points": 17}, 7: {"points": 3}}])
    assert error.player == 7
    assert error.params == {"player": 7}


def test_render_shows_every_player_by_the_name_given_for_their_key() -> None:
    names = {0: "Anna", 1: "Boris", 2: "Vera"}
    two_out = {0: {"out": "Q♠"}, 1: {"out": "9♥"}, 2: {"points": 17}}
    error = rejected(CLASSIC, [0, 1, 2], [two_out])
    assert error.params["players"] == (0, 1)
    assert str(error) == "Round 1: With 'first out', exactly one player goes out; here 2 did (0, 1)"
    assert error.render(names=names) == (
        "Round 1: With 'first out', exactly one player goes out; here 2 did (Anna, Boris)"
    )
    twice = {0: {"out": "Q♠"}, 1: {"hand": "A♣"}, 2: {"hand": "A♣"}}
    assert rejected(CLASSIC, [0, 1, 2], [twice]).render(names=names) == (
        "Round 1: A♣ is given twice (Boris, Vera)"
    )


def test_render_falls_back_to_the_key_for_players_missing_from_names() -> None:
    two_out = {0: {"out": "Q♠"}, 1: {"out": "9♥"}, 2: {"points": 3}}
    error = rejected(CLASSIC, [0, 1, 2], [two_out])
    assert error.render(names={0: "Anna"}).endswith("here 2 did (Anna, 1)")
    assert error.render(names={}).endswith("here 2 did (0, 1)")


def test_render_translates_and_names_players_at_once() -> None:
    error = rejected(CLASSIC, [0, 1], [{0: {"out": "Q♠"}, 1: {"points": -1}}])
    russian = {
        "Round %(number)s: %(message)s": "Раунд %(number)s: %(message)s",
        error.template: "Очки игрока %(player)s не могут быть отрицательными (%(points)s)",
    }
    translated = error.render(lambda t: russian.get(t, t), names={0: "Анна", 1: "Борис"})
    assert translated == "Раунд 1: Очки игрока Борис не могут быть отрицательными (-1)"


def test_rules_errors_with_keys_survive_pickling() -> None:
    seats = [(0, "a"), (1, "b"), (2, "c")]
    two_out = {seats[0]: {"out": "Q♠"}, seats[1]: {"out": "9♥"}, seats[2]: {"points": 3}}
    copy = pickle.loads(pickle.dumps(rejected(CLASSIC, seats, [two_out])))
    assert copy.params["players"] == ((0, "a"), (1, "b"))
    assert copy.render(names={(0, "a"): "Ann", (1, "b"): "Bob"}).endswith("(Ann, Bob)")
    error = rejected(CLASSIC, [0, 1], [{0: {"out": "Q♠"}, 1: {"hand": "Q♠"}}])
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.player, copy.round, str(copy)) == (1, 0, str(error))


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


# --- rounds that cannot happen --------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "card", "message"),
    [
        (CLASSIC, "6♣", "Ann cannot go out on 6♣: at this table whoever plays a 6 must cover it"),
        (
            CONVENTIONS,
            "6h",
            "Ann cannot go out on 6♥: at this table whoever plays a 6 must cover it",
        ),
        (
            AAOW.replace(round_end="first_out"),
            "8♦",
            "Ann cannot go out on 8♦: at this table whoever plays an 8 must cover it",
        ),
        (
            CLASSIC.replace(six="plain", eight="cover_self_skip"),
            "8S",
            "Ann cannot go out on 8♠: at this table whoever plays an 8 must cover it",
        ),
    ],
)
def test_nobody_goes_out_on_a_card_they_must_cover(variant: Any, card: str, message: str) -> None:
    error = rejected(
        variant, TABLE, [{ANN: {"out": card}, BOB: {"hand": "9♥"}, CAT: {"points": 17}}]
    )
    assert str(error) == f"Round 1: {message}"
    assert error.player == ANN
    assert error.params["card"] == parse_card(card)


def test_going_out_on_a_six_is_refused_under_last_holder_too() -> None:
    rounds = [{ANN: {"out": "7♥"}, BOB: {"out": "8♣"}, CAT: {"hand": "A♣"}}]
    error = rejected(AAOW.replace(six="cover_self"), TABLE, rounds)
    assert str(error) == (
        "Round 1: Bob cannot go out on 8♣: at this table whoever plays an 8 must cover it"
    )
    assert error.player == BOB
    rounds = [{ANN: Outcome("out", parse_card("6♠")), BOB: {"out": "7♣"}, CAT: {"hand": "A♣"}}]
    error = rejected(AAOW.replace(six="cover_self_suit"), TABLE, rounds)
    assert str(error).startswith("Round 1: Ann cannot go out on 6♠")


@pytest.mark.parametrize(
    ("variant", "points", "message"),
    [
        (CLASSIC, 1, "Points for Cat (1): no hand of a 36-card deck counts exactly that"),
        (CLASSIC, 203, "Points for Cat (203): no hand of a 36-card deck counts exactly that"),
        (
            CLASSIC.replace(deck_size=52),
            1,
            "Points for Cat (1): no hand of a 52-card deck counts exactly that",
        ),
        (CONVENTIONS, 0, "Points for Cat (0): no hand of a 36-card deck counts exactly that"),
        # A lone Queen counts 20 here, and no other card or cards make 3.
        (CONVENTIONS, 3, "Points for Cat (3): no hand of a 36-card deck counts exactly that"),
    ],
)
def test_points_that_no_hand_can_count_are_refused(variant: Any, points: int, message: str) -> None:
    rounds = [{ANN: {"out": "Q♠"}, BOB: {"hand": "9♥"}, CAT: {"points": points}}]
    error = rejected(variant, TABLE, rounds)
    assert str(error) == f"Round 1: {message} under these rules"
    assert error.player == CAT


def test_holders_cannot_hold_more_than_the_cards_off_the_pile() -> None:
    # With A♣ on the pile the other 35 cards are worth 204 - 11 = 193.
    rounds = [{ANN: {"out": "A♣"}, BOB: {"points": 200}}]
    error = rejected(CLASSIC, [ANN, BOB], rounds)
    assert str(error) == (
        "Round 1: Bob cannot hold 200 points: the cards not on the pile are worth at most 193"
    )
    assert error.player == BOB


def test_several_holders_together_cannot_hold_more_than_the_deck() -> None:
    plain = AAOW.replace(round_end="first_out")
    rounds = [{ANN: {"out": "10♠"}, BOB: {"points": 100}, CAT: {"points": 95}}]
    error = rejected(plain, TABLE, rounds)
    assert str(error) == (
        "Round 1: Bob, Cat cannot hold 195 points between them: the cards not on the pile "
        "are worth at most 194"
    )
    assert error.player is None
    assert error.params["players"] == (BOB, CAT)


def test_with_queens_only_the_holders_may_hold_more_than_the_cards_add_up_to() -> None:
    # One holder keeps the four Queens (100), another the 31 other cards (204 - 10 - 12).
    rounds = [{ANN: {"out": "10♠"}, BOB: {"points": 100}, CAT: {"points": 182}}]
    assert score_match(CLASSIC.replace(lose_over=1000), TABLE, rounds).totals[CAT] == 182
    rounds = [
        {ANN: {"out": "10♠"}, BOB: {"points": 100}, CAT: {"hand": "J♥"}, "Dan": {"points": 181}}
    ]
    error = rejected(CLASSIC.replace(lose_over=1000), [*TABLE, "Dan"], rounds)
    assert str(error).endswith(
        "Bob, Cat, Dan cannot hold 283 points between them: the cards not on the pile "
        "are worth at most 282"
    )


def test_under_last_holder_any_one_out_card_may_be_the_one_on_the_pile() -> None:
    # 9♣ counts nothing, so with it on the pile the rest of the deck counts 204.
    rounds = [{ANN: {"out": "9♣"}, BOB: {"out": "A♦"}, CAT: {"points": 204}}]
    assert score_match(AAOW.replace(lose_over=1000), TABLE, rounds).totals[CAT] == 204
    rounds = [{ANN: {"out": "A♣"}, BOB: {"out": "A♦"}, CAT: {"points": 200}}]
    assert str(rejected(AAOW, TABLE, rounds)) == (
        "Round 1: Cat cannot hold 200 points: the cards not on the pile are worth at most 193"
    )


@pytest.mark.parametrize(
    ("variant", "players", "outcomes", "message", "player"),
    [
        # The last card played stays on the pile.
        (
            AAOW,
            TABLE,
            {ANN: {"out": "7♥"}, BOB: {"out": "Q♠"}, CAT: {"hand": "Q♠ 7h A♣"}},
            "The last card played stays on the pile, so Cat cannot be holding every card "
            "the others went out with (7♥, Q♠)",
            CAT,
        ),
        (
            AAOW,
            TABLE,
            {ANN: {"out": "Q♠"}, BOB: {"out": "Q♠"}, CAT: {"hand": "Q♠"}},
            "The last card played stays on the pile, so Cat cannot be holding every card "
            "the others went out with (Q♠)",
            CAT,
        ),
        # With two players nothing comes back before the round ends.
        (
            AAOW,
            [ANN, BOB],
            {ANN: {"out": "Q♠"}, BOB: {"hand": "7♥ Q♠"}},
            "Q♠ is given twice (Ann, Bob)",
            BOB,
        ),
        (
            AAOW,
            [ANN, BOB],
            {ANN: {"hand": "7♥ Q♠"}, BOB: {"out": "Q♠"}},
            "Q♠ is given twice (Ann, Bob)",
            BOB,
        ),
        (
            AAOW,
            TABLE,
            {ANN: {"out": "7♥"}, BOB: {"out": "Q♠"}, CAT: {"hand": "A♣ 9h Тк"}},
            "A♣ is given twice in the cards of Cat",
            CAT,
        ),
        (
            AAOW,
            [*TABLE, "Dan"],
            {ANN: {"out": "7♥"}, BOB: {"out": "Q♠"}, CAT: {"hand": "A♣"}, "Dan": {"hand": "Тк"}},
            "A♣ is given twice (Cat, Dan)",
            "Dan",
        ),
        # Under first out the one card played out is on the pile.
        (
            CLASSIC,
            TABLE,
            {ANN: {"out": "Q♠"}, BOB: {"out": "Q♠"}, CAT: {"points": 17}},
            "Q♠ is given twice (Ann, Bob)",
            BOB,
        ),
    ],
)
def test_cards_that_cannot_come_back_are_refused(
    variant: Any, players: list[str], outcomes: dict[str, Any], message: str, player: str
) -> None:
    error = rejected(variant, players, [outcomes])
    assert str(error) == f"Round 1: {message}"
    assert error.player == player


def _own_outcomes(variant: Any, outcomes: dict[Any, Any]) -> dict[Any, Outcome]:
    """The same outcomes as Outcome objects holding deck()'s own cards, as a game in play
    gives them to score_match (the objects it checks by identity)."""
    own = {card: card for card in deck(variant.deck_size)}
    made = {}
    for player, raw in outcomes.items():
        ((kind, value),) = raw.items()
        if kind == "hand":
            made[player] = Outcome(kind, tuple(own.get(c, c) for c in parse_cards(value)))
        elif kind == "out":
            made[player] = Outcome(kind, own.get(parse_card(value), parse_card(value)))
        else:
            made[player] = Outcome(kind, value)
    return made


@pytest.mark.parametrize(
    ("variant", "players", "outcomes"),
    [
        (CLASSIC, TABLE, {ANN: {"out": "Q♠"}, BOB: {"hand": "Q♠ A♣"}, CAT: {"hand": "9♥"}}),
        (CLASSIC, TABLE, {ANN: {"out": "Q♠"}, BOB: {"hand": "A♣ 9h Тк"}, CAT: {"hand": "7♥"}}),
        (CLASSIC, TABLE, {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥ 5♠"}, CAT: {"hand": "7♥"}}),
        (CLASSIC, TABLE, {ANN: {"out": "6♠"}, BOB: {"hand": "9♥"}, CAT: {"hand": "7♥"}}),
        (CLASSIC, TABLE, {ANN: {"out": "Q♠"}, BOB: {"out": "9♥"}, CAT: {"hand": "7♥"}}),
        (CLASSIC, TABLE, {ANN: {"out": "Q♠"}, BOB: {"out": "Q♠"}, CAT: {"hand": "7♥"}}),
        (AAOW, [ANN, BOB], {ANN: {"out": "8♠"}, BOB: {"hand": "9♥"}}),
        (AAOW, [ANN, BOB], {ANN: {"out": "Q♠"}, BOB: {"hand": "7♥ Q♠"}}),
        (AAOW, TABLE, {ANN: {"out": "7♥"}, BOB: {"out": "Q♠"}, CAT: {"hand": "Q♠ 7h A♣"}}),
        (AAOW, TABLE, {ANN: {"out": "Q♠"}, BOB: {"out": "Q♠"}, CAT: {"hand": "Q♠"}}),
        (AAOW, TABLE, {ANN: {"out": "7♥"}, BOB: {"out": "Q♠"}, CAT: {"hand": "A♣ 9h Тк"}}),
        (AAOW, TABLE, {ANN: {"out": "7♥"}, BOB: {"hand": "Q♠"}, CAT: {"hand": "A♣"}}),
        (AAOW, [0, 1], {0: {"out": "7♥"}, True: {"hand": "Q♠"}}),
        (AAOW, [0, 1], {0: {"out": "7♥"}, 1: {"hand": "Q♠"}, 2: {"hand": "A♣"}}),
        (AAOW, [0, 1, 2], {0: {"out": "7♥"}, 1: {"hand": "Q♠"}}),
    ],
)
def test_outcomes_holding_the_decks_own_cards_are_refused_as_the_same_in_codes(
    variant: Any, players: list[Any], outcomes: dict[Any, Any]
) -> None:
    error = rejected(variant, players, [outcomes])
    own = rejected(variant, players, [_own_outcomes(variant, outcomes)])
    assert (str(own), own.player, own.round) == (str(error), error.player, error.round)


def test_outcomes_holding_the_decks_own_cards_score_as_the_same_in_codes() -> None:
    rounds = [
        {ANN: {"out": "Q♠"}, BOB: {"hand": "9♥ A♣"}, CAT: {"hand": "Q♥ Q♦"}},
        {ANN: {"hand": "10♠ K♠"}, BOB: {"out": "Q♥"}, CAT: {"hand": "6♣"}},
    ]
    own = [_own_outcomes(CONVENTIONS, outcomes) for outcomes in rounds]
    assert score_match(CONVENTIONS, TABLE, own) == score_match(CONVENTIONS, TABLE, rounds)
    earlier = score_match(CONVENTIONS, TABLE, own[:1])
    assert score_match(CONVENTIONS, TABLE, own[1:], since=earlier) == score_match(
        CONVENTIONS, TABLE, rounds
    )
