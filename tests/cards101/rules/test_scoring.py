"""Scoring hands, rounds and matches: the worked examples of RULES.md and each seed."""

from typing import Any

import pytest

from cards101.rules import (
    PRESETS,
    Card,
    MatchResult,
    Outcome,
    RulesError,
    card_points,
    max_points,
    must_cover,
    out_score,
    parse_card,
    parse_cards,
    possible_points,
    rank_players,
    score_hand,
    score_match,
)

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]
# A score sheet that only counts: no bonus, no queens-only penalty, no resets.
PLAIN = CLASSIC.replace(
    out_bonus=False, queens_only_penalty=False, reset_at_101=False, reset_at_100=False
)
ANN, BOB, CAT, DAN = "Ann", "Bob", "Cat", "Dan"


def points_round(scores: dict[str, int], out: str = ANN) -> dict[str, dict[str, Any]]:
    """A first_out round: `out` goes out with a plain card, the others are counted."""
    return {out: {"out": "9♦"}} | {p: {"points": n} for p, n in scores.items() if p != out}


def play(variant: Any, players: list[str], *rounds: dict[str, int]) -> MatchResult:
    """A match of points-only rounds where whoever scored 0 went out."""
    sheet = []
    for scores in rounds:
        out = next(player for player, score in scores.items() if score == 0)
        sheet.append(points_round(scores, out))
    return score_match(variant, players, sheet)


# --- card points --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "points"),
    [
        ("2♠", 2),
        ("3♥", 3),
        ("4♦", 4),
        ("5♣", 5),
        ("6♠", 6),
        ("7♥", 7),
        ("8♦", 8),
        ("9♣", 0),
        ("10♠", 10),
        ("J♥", 2),
        ("Q♦", 3),
        ("K♣", 4),
        ("A♠", 11),
    ],
)
def test_card_points_are_face_value_and_j2_q3_k4_a11(card: str, points: int) -> None:
    assert card_points(CLASSIC, parse_card(card)) == points


def test_nines_count_nine_points_when_the_option_says_so() -> None:
    assert card_points(AAOW, parse_card("9♥")) == 0
    assert card_points(CONVENTIONS, parse_card("9♥")) == 9
    assert score_hand(CONVENTIONS, parse_cards("9♠ 9♥")) == 18


# --- worked examples of RULES.md ------------------------------------------------------


def test_aaow_hand_of_ace_nine_queen_scores_14() -> None:
    assert score_hand(AAOW, parse_cards("A♣ 9♥ Q♦")) == 14


def test_aaow_going_out_with_the_queen_of_spades_scores_minus_40() -> None:
    assert out_score(AAOW, parse_card("Q♠")) == -40


def test_aaow_87_plus_14_is_101_which_resets_to_zero() -> None:
    result = play(AAOW, [ANN, BOB], {ANN: 0, BOB: 87}, {ANN: 0, BOB: 14})
    assert result.rounds[0].totals[BOB] == 87
    assert result.rounds[1].scores[BOB] == 14
    assert result.totals[BOB] == 0
    assert result.rounds[1].events == [(BOB, "reset_to_0")]


def test_classic_hand_of_queen_of_hearts_and_queen_of_spades_scores_60() -> None:
    assert score_hand(CLASSIC, parse_cards("Q♥ Q♠")) == 60


# --- score_hand and out_score -------------------------------------------------------------


def test_an_empty_hand_scores_nothing() -> None:
    assert score_hand(CLASSIC, ()) == 0
    assert score_hand(CLASSIC, "") == 0


def test_score_hand_takes_notation_and_single_cards_too() -> None:
    assert score_hand(AAOW, "A♣ 9♥ Q♦") == 14
    assert score_hand(AAOW, [parse_card("A♣"), "Q♦"]) == 14


@pytest.mark.parametrize(
    ("variant", "hand", "points"),
    [
        (CLASSIC, "Q♥", 20),
        (CLASSIC, "Q♠", 40),
        (CLASSIC, "Q♠ Q♥ Q♦ Q♣", 100),
        (CLASSIC, "Q♥ 6♠", 9),
        (CONVENTIONS, "Q♥", 40),
        (CONVENTIONS, "Q♠", 20),
        (CONVENTIONS, "Q♥ Q♠", 60),
        (AAOW, "Q♥ Q♠", 6),
        (CLASSIC.replace(big_queen="D"), "Q♦ Q♣", 60),
    ],
)
def test_queens_only_penalty_is_20_per_queen_and_40_for_the_big_one(
    variant: Any, hand: str, points: int
) -> None:
    assert score_hand(variant, parse_cards(hand)) == points


@pytest.mark.parametrize(
    ("variant", "card", "score"),
    [
        (AAOW, "Q♠", -40),
        (AAOW, "Q♥", -20),
        (AAOW, "A♠", 0),
        (CONVENTIONS, "Q♥", -40),
        (CONVENTIONS, "Q♠", -20),
        (CLASSIC.replace(out_bonus=False), "Q♠", 0),
        (CLASSIC.replace(big_queen="C"), "Q♣", -40),
    ],
)
def test_going_out_with_a_queen_takes_20_off_and_the_big_queen_40(
    variant: Any, card: str, score: int
) -> None:
    assert out_score(variant, parse_card(card)) == score


def test_score_hand_rejects_cards_not_in_the_deck_or_given_twice() -> None:
    with pytest.raises(ValueError, match=r"^5♠ is not in a 36-card deck$"):
        score_hand(CLASSIC, parse_cards("5♠"))
    assert score_hand(CLASSIC.replace(deck_size=52), parse_cards("5♠ 2♥")) == 7
    with pytest.raises(ValueError, match=r"^Q♠ is given twice$"):
        score_hand(CLASSIC, parse_cards("Q♠ Дп"))


# --- the API example ----------------------------------------------------------------


def test_the_api_example_scores_as_documented() -> None:
    v = PRESETS["classic"]
    house = v.replace(reset_at_100=False)
    assert house.reset_at_100 is False
    assert parse_cards("Q♠ 10h Тк") == (Card("Q", "S"), Card("10", "H"), Card("A", "C"))
    assert score_hand(v, parse_cards("Q♥ Q♠")) == 60
    r = score_match(
        v,
        ["Ann", "Bob", "Cat"],
        [{"Ann": {"out": "Q♠"}, "Bob": {"hand": "9♥ A♣"}, "Cat": {"points": 17}}],
    )
    assert r.rounds[0].scores == {"Ann": -40, "Bob": 11, "Cat": 17}
    assert r.rounds[0].totals == {"Ann": -40, "Bob": 11, "Cat": 17}
    assert r.rounds[0].events == []
    assert r.totals == {"Ann": -40, "Bob": 11, "Cat": 17}
    assert r.finished is False
    assert r.standings == [["Ann"], ["Bob"], ["Cat"]]
    assert r.leads_next == "Ann"


def test_outcomes_are_normalized_to_cards() -> None:
    r = score_match(
        CLASSIC,
        [ANN, BOB, CAT],
        [{ANN: {"out": "Дп"}, BOB: {"hand": "9h, AC"}, CAT: {"points": 17}}],
    )
    assert r.rounds[0].outcomes == {
        ANN: Outcome("out", Card("Q", "S")),
        BOB: Outcome("hand", (Card("9", "H"), Card("A", "C"))),
        CAT: Outcome("points", 17),
    }
    assert [o.as_dict() for o in r.rounds[0].outcomes.values()] == [
        {"out": "QS"},
        {"hand": "9H AC"},
        {"points": 17},
    ]


def test_cards_may_be_given_as_card_objects_or_outcomes() -> None:
    queen, nine, ace = parse_cards("Q♠ 9♥ A♣")
    as_text = [{ANN: {"out": "Q♠"}, BOB: {"hand": "9♥ A♣"}}]
    as_cards = [{ANN: {"out": queen}, BOB: {"hand": [nine, ace]}}]
    as_outcomes = [{ANN: Outcome("out", queen), BOB: Outcome("hand", (nine, ace))}]
    as_codes = [{ANN: {"out": "QS"}, BOB: {"hand": ["9H", "AC"]}}]
    results = [score_match(CLASSIC, [ANN, BOB], sheet) for sheet in (as_text, as_cards)]
    results += [score_match(CLASSIC, [ANN, BOB], s) for s in (as_outcomes, as_codes)]
    assert all(r.rounds == results[0].rounds for r in results)
    assert score_match(CLASSIC, [ANN, BOB], [{ANN: {"out": queen}, BOB: {"hand": ace}}])


def test_stored_outcomes_score_the_same_when_given_back() -> None:
    first = score_match(
        CLASSIC,
        [ANN, BOB, CAT],
        [{ANN: {"out": "Q♠"}, BOB: {"hand": "9♥ A♣"}, CAT: {"points": 17}}],
    )
    stored = [{p: o.as_dict() for p, o in r.outcomes.items()} for r in first.rounds]
    assert score_match(CLASSIC, [ANN, BOB, CAT], stored).rounds == first.rounds


# --- totals, resets and losing ---------------------------------------------------------


def test_exactly_101_resets_to_zero() -> None:
    result = play(
        PLAIN.replace(reset_at_101=True),
        [ANN, BOB],
        {ANN: 0, BOB: 90},
        {ANN: 0, BOB: 11},
    )
    assert result.totals[BOB] == 0
    assert result.rounds[1].events == [(BOB, "reset_to_0")]
    assert not result.finished


def test_exactly_101_stays_101_when_the_reset_is_off() -> None:
    result = play(PLAIN, [ANN, BOB], {ANN: 0, BOB: 101})
    assert result.totals[BOB] == 101
    assert result.rounds[0].events == []
    result = play(PLAIN, [ANN, BOB], {ANN: 0, BOB: 101}, {ANN: 0, BOB: 2})
    assert result.rounds[1].events == [(BOB, "lost")]
    assert result.finished


def test_exactly_100_becomes_50_in_classic() -> None:
    result = play(CLASSIC, [ANN, BOB, CAT], {ANN: 0, BOB: 60, CAT: 2}, {ANN: 0, BOB: 40, CAT: 2})
    assert result.totals == {ANN: 0, BOB: 50, CAT: 4}
    assert result.rounds[1].events == [(BOB, "reset_to_50")]


def test_exactly_100_stays_100_without_the_option() -> None:
    result = play(AAOW.replace(round_end="first_out"), [ANN, BOB], {ANN: 0, BOB: 100})
    assert result.totals[BOB] == 100
    assert result.rounds[0].events == []


def test_a_total_above_lose_over_loses_and_exactly_lose_over_does_not() -> None:
    variant = PLAIN.replace(lose_over=150)
    assert play(variant, [ANN, BOB], {ANN: 0, BOB: 150}).rounds[0].events == []
    assert play(variant, [ANN, BOB], {ANN: 0, BOB: 151}).rounds[0].events == [(BOB, "lost")]


def test_the_101_reset_comes_before_the_100_reset_and_before_losing() -> None:
    both = PLAIN.replace(reset_at_101=True, reset_at_100=True, lose_over=50)
    # 101 -> 0 (not then 50); 100 -> 50, which is not above 50.
    result = play(both, [ANN, BOB, CAT], {ANN: 0, BOB: 101, CAT: 100})
    assert result.totals == {ANN: 0, BOB: 0, CAT: 50}
    assert result.rounds[0].events == [(BOB, "reset_to_0"), (CAT, "reset_to_50")]
    assert not result.finished


def test_totals_may_go_negative_and_a_queen_out_brings_a_total_down() -> None:
    sheet = [
        {ANN: {"out": "Q♠"}, BOB: {"points": 30}},
        {ANN: {"points": 10}, BOB: {"out": "Q♥"}},
    ]
    result = score_match(AAOW, [ANN, BOB], sheet)
    assert [r.totals for r in result.rounds] == [
        {ANN: -40, BOB: 30},
        {ANN: -30, BOB: 10},
    ]


def test_going_out_with_the_big_queen_can_land_on_101_and_reset() -> None:
    sheet = [
        points_round({ANN: 0, BOB: 141}, ANN),
        {ANN: {"points": 11}, BOB: {"out": "Q♠"}},
    ]
    result = score_match(AAOW.replace(lose_over=200), [ANN, BOB], sheet)
    assert result.rounds[1].scores[BOB] == -40
    assert result.totals[BOB] == 0
    assert result.rounds[1].events == [(BOB, "reset_to_0")]


# --- seeds ------------------------------------------------------------------------------


def test_aaow_nines_count_nothing() -> None:
    assert score_hand(AAOW, parse_cards("9♠ 9♥ 9♦ 9♣")) == 0


def test_aaow_round_has_exactly_one_holder_with_three_players() -> None:
    sheet = [{ANN: {"out": "Q♠"}, BOB: {"out": "7♥"}, CAT: {"hand": "A♣ 9♥ Q♦"}}]
    result = score_match(AAOW, [ANN, BOB, CAT], sheet)
    assert result.rounds[0].scores == {ANN: -40, BOB: 0, CAT: 14}
    # Two went out, so the sheet cannot tell who was first.
    assert result.leads_next is None


def test_aaow_with_two_players_the_one_out_leads_next() -> None:
    result = score_match(AAOW, [ANN, BOB], [{ANN: {"hand": "7♥"}, BOB: {"out": "9♥"}}])
    assert result.leads_next == BOB


def test_aaow_the_match_ends_when_anyone_passes_101() -> None:
    sheet = [{ANN: {"out": "6♥"}, BOB: {"out": "7♥"}, CAT: {"points": 102}}]
    result = score_match(AAOW, [ANN, BOB, CAT], sheet)
    assert result.finished
    assert result.lost_in == {CAT: 0}
    assert result.standings == [[ANN, BOB], [CAT]]
    assert result.leads_next is None


def test_classic_seven_of_spades_draws_four() -> None:
    assert CLASSIC.seven_of_spades_draw == 4
    assert CLASSIC.seven_draw == 2


def test_classic_last_survivor_wins_and_losers_leave() -> None:
    result = play(
        CLASSIC,
        [ANN, BOB, CAT],
        {ANN: 0, BOB: 102, CAT: 30},
        {ANN: 0, CAT: 30},
    )
    assert not result.finished
    assert result.active == (ANN, CAT)
    assert result.rounds[1].scores == {ANN: 0, CAT: 30}
    # A loser keeps their total on the sheet.
    assert result.rounds[1].totals == {ANN: 0, BOB: 102, CAT: 60}
    assert result.standings == [[ANN], [CAT], [BOB]]
    result = play(
        CLASSIC,
        [ANN, BOB, CAT],
        {ANN: 0, BOB: 102, CAT: 30},
        {ANN: 0, CAT: 30},
        {ANN: 0, CAT: 50},
    )
    assert result.finished
    assert result.lost_in == {BOB: 0, CAT: 2}
    assert result.active == (ANN,)
    assert result.standings == [[ANN], [CAT], [BOB]]
    assert result.leads_next is None


def test_conventions_queen_of_hearts_is_worth_40_out_and_in_a_queens_only_hand() -> None:
    sheet = [{ANN: {"out": "Q♥"}, BOB: {"hand": "Q♠ Q♣"}, CAT: {"hand": "Q♦ 9♠"}}]
    result = score_match(CONVENTIONS, [ANN, BOB, CAT], sheet)
    assert result.rounds[0].scores == {ANN: -40, BOB: 40, CAT: 12}
    sheet = [{ANN: {"out": "Q♠"}, BOB: {"hand": "Q♥"}}]
    assert score_match(CONVENTIONS, [ANN, BOB], sheet).rounds[0].scores == {
        ANN: -20,
        BOB: 40,
    }


def test_conventions_101_or_more_loses_without_the_reset_convention() -> None:
    no_reset = CONVENTIONS.replace(reset_at_101=False, lose_over=100)
    assert play(no_reset, [ANN, BOB], {ANN: 0, BOB: 100}).rounds[0].events == []
    result = play(no_reset, [ANN, BOB], {ANN: 0, BOB: 101})
    assert result.rounds[0].events == [(BOB, "lost")]
    assert result.finished
    # With the convention on, exactly 101 resets instead.
    assert play(CONVENTIONS, [ANN, BOB], {ANN: 0, BOB: 101}).totals[BOB] == 0


def test_conventions_52_card_deck_accepts_twos_to_fives() -> None:
    sheet = [{ANN: {"out": "2♠"}, BOB: {"hand": "5♥ 3♣"}}]
    result = score_match(CONVENTIONS.replace(deck_size=52), [ANN, BOB], sheet)
    assert result.rounds[0].scores == {ANN: 0, BOB: 8}


# --- standings --------------------------------------------------------------------------


def test_standings_of_a_match_not_yet_played_tie_everyone() -> None:
    result = score_match(CLASSIC, [ANN, BOB, CAT], [])
    assert result.standings == [[ANN, BOB, CAT]]
    assert result.rounds == ()
    assert result.leads_next is None
    assert not result.finished


def test_players_still_in_rank_by_lowest_total_with_ties_in_seat_order() -> None:
    result = play(PLAIN, [ANN, BOB, CAT, DAN], {ANN: 0, BOB: 20, CAT: 5, DAN: 5})
    assert result.standings == [[ANN], [CAT, DAN], [BOB]]


def test_same_round_eliminations_with_the_same_total_tie() -> None:
    result = play(CLASSIC, [ANN, BOB, CAT, DAN], {ANN: 0, BOB: 102, CAT: 102, DAN: 5})
    assert result.standings == [[ANN], [DAN], [BOB, CAT]]


def test_same_round_eliminations_rank_by_lower_total() -> None:
    result = play(CLASSIC, [ANN, BOB, CAT, DAN], {ANN: 0, BOB: 110, CAT: 102, DAN: 5})
    assert result.standings == [[ANN], [DAN], [CAT], [BOB]]


def test_a_later_loss_ranks_better_than_an_earlier_one_whatever_the_totals() -> None:
    result = play(
        CLASSIC,
        [ANN, BOB, CAT],
        {ANN: 0, BOB: 102, CAT: 10},
        {ANN: 0, CAT: 150},
    )
    assert result.finished
    assert result.standings == [[ANN], [CAT], [BOB]]
    assert result.totals[CAT] > result.totals[BOB]


def test_when_every_remaining_player_loses_together_the_lowest_total_wins() -> None:
    # Someone always goes out, so a real sheet cannot do this; the ranking still must.
    standings = rank_players(
        [ANN, BOB, CAT, DAN],
        {ANN: 130, BOB: 150, CAT: 110, DAN: 120},
        {ANN: 3, BOB: 3, CAT: 3, DAN: 1},
    )
    assert standings == [[CAT], [ANN], [BOB], [DAN]]


def test_first_loser_ranks_survivors_by_total_then_the_losers() -> None:
    result = play(
        AAOW.replace(round_end="first_out"),
        [ANN, BOB, CAT, DAN],
        {ANN: 0, BOB: 40, CAT: 30, DAN: 60},
        {ANN: 10, BOB: 0, CAT: 80, DAN: 60},
    )
    assert result.finished
    assert result.lost_in == {CAT: 1, DAN: 1}
    assert result.active == (ANN, BOB)
    assert result.standings == [[ANN], [BOB], [CAT], [DAN]]


# --- who leads next -------------------------------------------------------------------


def test_the_player_who_went_out_leads_the_next_round() -> None:
    result = play(CLASSIC, [ANN, BOB, CAT], {ANN: 10, BOB: 0, CAT: 5})
    assert result.leads_next == BOB


def test_clockwise_leading_is_left_to_the_table() -> None:
    result = play(CLASSIC.replace(leader="clockwise"), [ANN, BOB], {ANN: 10, BOB: 0})
    assert result.leads_next is None


# --- cards that come back through the restock ------------------------------------------


def test_under_last_holder_two_players_may_go_out_with_the_same_card() -> None:
    sheet = [{ANN: {"out": "Q♠"}, BOB: {"out": "Q♠"}, CAT: {"hand": "A♣ 9♥"}}]
    result = score_match(AAOW, [ANN, BOB, CAT], sheet)
    assert result.rounds[0].scores == {ANN: -40, BOB: -40, CAT: 11}


def test_under_last_holder_the_holder_may_hold_a_card_someone_went_out_with() -> None:
    sheet = [{ANN: {"out": "7♥"}, BOB: {"out": "Q♠"}, CAT: {"hand": "7♥ A♣"}, DAN: {"out": "K♦"}}]
    result = score_match(AAOW, [ANN, BOB, CAT, DAN], sheet)
    assert result.rounds[0].scores == {ANN: 0, BOB: -40, CAT: 18, DAN: 0}
    sheet = [{ANN: {"out": "7♥"}, BOB: {"out": "7♥"}, CAT: {"hand": "Q♠ K♦"}, DAN: {"out": "Q♠"}}]
    result = score_match(AAOW, [ANN, BOB, CAT, DAN], sheet)
    assert result.rounds[0].scores == {ANN: 0, BOB: 0, CAT: 7, DAN: -40}


# --- cards a player must cover ------------------------------------------------------------


def test_going_out_on_a_six_or_an_eight_is_fine_where_nobody_covers_it() -> None:
    sheet = [{ANN: {"out": "6♥"}, BOB: {"out": "8♥"}, CAT: {"hand": "A♣"}}]
    assert score_match(AAOW.replace(eight="plain"), [ANN, BOB, CAT], sheet).totals[CAT] == 11
    sheet = [{ANN: {"out": "8♥"}, BOB: {"hand": "A♣"}}]
    assert score_match(CLASSIC, [ANN, BOB], sheet).totals[BOB] == 11
    assert score_match(CLASSIC.replace(six="draw_2_skip"), [ANN, BOB], sheet).totals[BOB] == 11


@pytest.mark.parametrize(
    ("variant", "card", "covers"),
    [
        (AAOW, "6♠", False),
        (AAOW, "8♠", True),
        (CLASSIC, "6♠", True),
        (CLASSIC, "8♠", False),
        (CONVENTIONS, "6♦", True),
        (CONVENTIONS, "8♦", False),
        (CLASSIC.replace(six="plain"), "6♠", False),
        (AAOW, "Q♠", False),
    ],
)
def test_must_cover_follows_the_six_and_eight_options(
    variant: Any, card: str, covers: bool
) -> None:
    assert must_cover(variant, parse_card(card)) is covers


# --- which points a hand can count --------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "impossible"),
    [
        (AAOW, [1, 203]),
        (CLASSIC, [1, 203]),
        (CONVENTIONS, [0, 1, 3, 239]),
        (CONVENTIONS.replace(deck_size=52), [0, 1, 295]),
        (AAOW.replace(deck_size=52), [1, 259]),
    ],
)
def test_possible_points_are_every_count_but_a_few(variant: Any, impossible: list[int]) -> None:
    possible = possible_points(variant)
    assert [n for n in range(max_points(variant) + 1) if n not in possible] == impossible
    assert max(possible) == max_points(variant)


def test_a_queen_counts_3_beside_other_cards_but_20_alone_with_queens_only() -> None:
    assert 3 in possible_points(CLASSIC)  # Q♥ 9♠: 3 + 0
    assert 3 not in possible_points(CONVENTIONS)  # nines count 9 there
    assert 5 in possible_points(CONVENTIONS)  # Q♥ J♠: 3 + 2
    assert {20, 40, 60, 80, 100} <= possible_points(CONVENTIONS)
    assert 3 in possible_points(CONVENTIONS.replace(queens_only_penalty=False))


def test_scoring_goes_on_from_the_result_of_earlier_rounds() -> None:
    players = ["Ann", "Bob"]
    first = [{"Ann": {"out": "QS"}, "Bob": {"hand": "AS AH AD AC"}}]
    second = [{"Ann": {"hand": "AS AH AD AC 10S"}, "Bob": {"out": "9S"}}]
    earlier = score_match(AAOW, players, first)
    result = score_match(AAOW, players, second, since=earlier)
    assert result == score_match(AAOW, players, first + second)
    assert result.totals == {"Ann": 14, "Bob": 44}


def test_scoring_from_earlier_rounds_counts_rounds_on_from_them() -> None:
    players = ["Ann", "Bob"]
    earlier = score_match(AAOW, players, [{"Ann": {"out": "9S"}, "Bob": {"hand": "AS"}}])
    with pytest.raises(RulesError) as error:
        score_match(AAOW, players, [{"Ann": {"out": "9S"}, "Bob": {"out": "9H"}}], since=earlier)
    assert error.value.round == 1
    assert str(error.value).startswith("Round 2: ")


def test_earlier_rounds_continue_only_with_the_same_players_and_rules() -> None:
    earlier = score_match(AAOW, ["Ann", "Bob"], [])
    for players, variant in ((["Ann", "Cat"], AAOW), (["Ann", "Bob"], CLASSIC)):
        with pytest.raises(RulesError, match="same players and rules"):
            score_match(variant, players, [], since=earlier)
