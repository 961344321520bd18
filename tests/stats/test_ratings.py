"""stats.ratings: openskill Plackett–Luce ratings from final places, without Django."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stats.ratings import NEWCOMER, PROVISIONAL_UNDER, Skill, rate, replay, win_chances


def test_a_newcomer_shows_1500_and_is_provisional_for_the_first_matches():
    assert NEWCOMER.shown == 1500
    assert NEWCOMER.provisional
    assert Skill(matches=PROVISIONAL_UNDER - 1).provisional
    assert not Skill(matches=PROVISIONAL_UNDER).provisional


def test_the_winner_goes_up_the_last_goes_down_and_each_counts_one_match_more():
    after = rate({}, {"anna": 1, "boris": 2, "vera": 3})
    assert after["anna"].shown > NEWCOMER.shown > after["vera"].shown
    assert after["anna"].mu > after["boris"].mu > after["vera"].mu
    assert {skill.matches for skill in after.values()} == {1}
    # Every player is surer of after a match.
    assert all(skill.sigma < NEWCOMER.sigma for skill in after.values())


def test_two_players_tied_for_a_place_move_the_same_way():
    before = {"anna": Skill(27.0, 6.0, 12), "boris": Skill(27.0, 6.0, 12)}
    after = rate(before, {"anna": 2, "boris": 2, "vera": 1, "gleb": 4})
    assert after["anna"] == after["boris"]
    assert after["anna"].mu < 27.0  # second place behind a newcomer costs a strong player


skills = st.builds(
    Skill,
    st.floats(min_value=10, max_value=40),
    st.floats(min_value=1, max_value=9),
    st.integers(min_value=0, max_value=50),
)


@given(
    st.lists(skills, min_size=2, max_size=4),
    st.lists(st.integers(min_value=1, max_value=4), min_size=4, max_size=4),
    st.randoms(),
)
def test_the_order_players_are_listed_in_changes_nothing(before, places, rng):
    players = [f"p{index}" for index in range(len(before))]
    given_places = dict(zip(players, places, strict=False))
    shuffled = players[:]
    rng.shuffle(shuffled)
    in_order = rate(dict(zip(players, before, strict=True)), given_places)
    reordered = rate(
        dict(zip(players, before, strict=True)), {p: given_places[p] for p in shuffled}
    )
    for player in players:
        assert in_order[player].mu == pytest.approx(reordered[player].mu, abs=1e-9)
        assert in_order[player].sigma == pytest.approx(reordered[player].sigma, abs=1e-9)


def test_replaying_matches_rates_each_from_the_ratings_the_earlier_ones_left():
    matches = [(1, {"a": 1, "b": 2}), (2, {"b": 1, "c": 2, "a": 3}), (3, {"c": 1, "a": 1})]
    skills: dict = {}
    changes = list(replay(skills, matches))
    assert [(change.match, change.player) for change in changes] == [
        (1, "a"),
        (1, "b"),
        (2, "b"),
        (2, "c"),
        (2, "a"),
        (3, "c"),
        (3, "a"),
    ]
    first = rate({}, matches[0][1])
    second = rate(first, matches[1][1])
    third = rate(first | second, matches[2][1])
    assert changes[4].before == first["a"] and changes[4].after == second["a"]
    assert skills == {"a": third["a"], "b": second["b"], "c": third["c"]}
    assert skills["a"].matches == 3


def test_a_match_of_one_is_not_rated():
    with pytest.raises(ValueError, match="two players"):
        rate({}, {"a": 1})


def test_win_chances_add_up_to_one_and_favour_the_stronger():
    chances = win_chances([Skill(30, 3), NEWCOMER, Skill(20, 3)])
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > chances[1] and chances[0] > chances[2]
    assert win_chances([NEWCOMER, NEWCOMER]) == pytest.approx([0.5, 0.5])


def test_each_change_carries_the_chance_the_ratings_before_gave_the_player():
    strong = Skill(32.0, 3.0, 20)
    changes = list(replay({"a": strong}, [(1, {"a": 2, "b": 1, "c": 3})]))
    chances = {change.player: change.win_chance for change in changes}
    assert sum(chances.values()) == pytest.approx(1.0)
    assert chances["a"] > chances["b"] == pytest.approx(chances["c"])
    assert [chances[p] for p in "abc"] == pytest.approx(win_chances([strong, NEWCOMER, NEWCOMER]))
