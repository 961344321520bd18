"""manage.py simulate: bots against bots, win rates, and matches saved as played on the site."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from cards101.bots.arena import play_match
from cards101.rules import PRESETS
from games.models import Match, Player

pytestmark = pytest.mark.django_db


def simulate(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def rates(output: str) -> dict[str, tuple[float, float, float, float]]:
    """Each bot's line: wins, win rate, and the interval, in per cent."""
    found = {}
    pattern = r"^(\w+(?: \d)?) +([\d.]+) +([\d.]+)% +([\d.]+)% to ([\d.]+)%$"
    for line in output.splitlines():
        match = re.match(pattern, line)
        if match:
            found[match[1]] = tuple(float(value) for value in match.groups()[1:])
    return found


def test_a_small_run_prints_win_rates_with_95_percent_intervals():
    out, err = simulate("--bots", "greedy,random", "--matches", "6", "--seed", "1")
    assert out.startswith("aaow, 2 players, 6 matches, seed 1\n")
    shown = rates(out)
    assert set(shown) == {"greedy", "random"}
    assert shown["greedy"][0] + shown["random"][0] == 6
    for wins, rate, low, high in shown.values():
        assert rate == pytest.approx(100 * wins / 6, abs=0.05)
        assert low <= rate <= high
    assert re.search(r"^Rounds per match: \d+\.\d\d on average", out, re.MULTILINE)
    assert re.search(r"^Rounds per second: \d+\.\d", out, re.MULTILINE)
    # The progress bar goes to stderr, drawn over itself.
    assert "\r[" in err and "6/6 matches" in err


def test_two_bots_of_one_strength_are_told_apart():
    out, _err = simulate("--bots", "greedy,greedy", "--matches", "2")
    assert set(rates(out)) == {"greedy", "greedy 2"}


def test_one_bot_name_fills_every_seat():
    out, _err = simulate("--bots", "random", "--players", "3", "--matches", "2")
    assert out.startswith("aaow, 3 players, 2 matches")
    assert set(rates(out)) == {"random", "random 2", "random 3"}


def test_the_same_seed_plays_the_same_matches():
    first, _err = simulate("--bots", "greedy,random", "--matches", "5", "--seed", "4")
    again, _err = simulate("--bots", "greedy,random", "--matches", "5", "--seed", "4")
    assert rates(first) == rates(again)
    assert first.splitlines()[4] == again.splitlines()[4]  # the same rounds and moves


def test_seats_rotate_so_that_no_bot_always_sits_first(alice):
    simulate("--bots", "greedy,random", "--matches", "4", "--save", "--user", "alice")
    first_seats = [
        match.seats.get(position=0).player.name for match in Match.objects.order_by("pk")
    ]
    assert first_seats == ["Greedy bot", "Random bot", "Greedy bot", "Random bot"]


def test_saved_matches_are_finished_online_matches_scored_as_the_engine_did(alice):
    out, _err = simulate(
        "--bots", "greedy,random", "--matches", "3", "--seed", "2", "--save", "--user", "alice"
    )
    assert "Saved 3 matches" in out
    matches = list(Match.objects.order_by("pk"))
    assert len(matches) == 3
    for number, match in enumerate(matches):
        assert match.kind == Match.Kind.ONLINE
        assert match.status == Match.Status.FINISHED
        assert match.created_by == alice
        assert match.preset == "aaow" and match.variant == PRESETS["aaow"]
        # The same match again (greedy and random follow their seeds): the engine's result.
        played = play_match(PRESETS["aaow"], ["greedy", "random"], number=number, seed=2)
        assert match.rounds.count() == len(played.rounds)
        seats = match.seats.order_by("position")
        assert [seat.total for seat in seats] == [
            played.result.totals[position] for position in range(2)
        ]
        winners = [seat.position for seat in seats if seat.place == 1]
        assert winners == sorted(played.result.standings[0])


def test_bots_are_players_without_an_account_shared_by_every_saved_match(alice):
    simulate("--bots", "greedy,greedy", "--matches", "3", "--save", "--user", "alice")
    bots = Player.objects.filter(seats__match__kind=Match.Kind.ONLINE).distinct()
    assert sorted(bot.name for bot in bots) == ["Greedy bot", "Greedy bot 2"]
    assert all(bot.user is None and bot.added_by is None for bot in bots)


def test_an_option_changes_the_rules_played(alice):
    out, _err = simulate(
        "--bots",
        "greedy,random",
        "--matches",
        "1",
        "--option",
        "reset_at_101=false",
        "--option",
        "lose_over=60",
        "--save",
        "--user",
        "alice",
    )
    assert out.startswith("aaow (reset_at_101=false, lose_over=60), 2 players")
    match = Match.objects.get()
    assert match.variant == PRESETS["aaow"].replace(reset_at_101=False, lose_over=60)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,perfect"], "There is no bot 'perfect'"),
        (["--bots", "greedy,random,random"], "Give one bot a seat: 2 players, but 3 bots"),
        (["--players", "5", "--bots", "random"], "A match needs 2 to 4 players, not 5"),
        (["--option", "reset_at_100"], "--option takes NAME=VALUE"),
        (["--option", "colour=red"], "There is no option 'colour'"),
        (["--option", "reset_at_100=maybe"], "Option 'reset_at_100' is true or false"),
        (["--option", "lose_over=lots"], "Option 'lose_over' takes a whole number"),
        (["--option", "lose_over=20"], "must be a whole number from 50 to 1000, not 20"),
        (["--option", "opening=sideways"], "Option 'opening' must be one of"),
        (["--matches", "0"], "--matches must be from 1"),
        (["--budget", "0"], "--budget is a number of seconds above 0"),
        (["--save"], "--save needs --user USERNAME"),
        (["--save", "--user", "nobody"], "There is no user 'nobody'"),
        (["--user", "alice"], "add --save"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message_and_saves_nothing(alice, args, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        simulate("--matches", "2", *args)
    assert not Match.objects.exists()
    assert not Player.objects.filter(name__endswith="bot").exists()


def test_a_mix_whose_rounds_went_round_in_circles_finishes():
    # Under these rules greedy bots once played one round for thousands of moves.
    out, _err = simulate(
        "--preset",
        "conventions",
        "--option",
        "six=draw_2_skip",
        "--option",
        "seven_draw=5",
        "--option",
        "restock=shuffle",
        "--bots",
        "greedy",
        "--matches",
        "3",
        "--seed",
        "501528",
    )
    assert "3 matches" in out


def test_rounds_cut_at_the_move_limit_are_saved_as_cut_and_scored_as_the_engine_did(
    alice, monkeypatch
):
    # A low limit, so that rounds are cut at once.
    monkeypatch.setattr("cards101.engine.game.MOVE_LIMIT", 6)
    simulate("--bots", "random", "--matches", "2", "--seed", "3", "--save", "--user", "alice")
    for number, match in enumerate(Match.objects.order_by("pk")):
        played = play_match(PRESETS["aaow"], ["random", "random"], number=number, seed=3)
        cut = [done.cut for done in played.result.rounds]
        assert any(cut)
        assert list(match.rounds.order_by("number").values_list("cut", flat=True)) == cut
        assert match.status == Match.Status.FINISHED
        seats = match.seats.order_by("position")
        assert [seat.total for seat in seats] == [played.result.totals[p] for p in range(2)]
