"""Random playouts of the game engine, next to OpenSpiel's `crazy_eights` in the same run.

1. Whole matches of random-vs-random play (`cards101.engine`: `Game.new`, `legal_moves`,
   `random.choice`, `play`, `next_round`, every round scored as it ends) for each
   preset with 2, 3 and 4 players: moves, rounds and matches per second.
2. OpenSpiel's `crazy_eights` (PyPI `open-spiel`, requirements-bench.txt) played at random
   from Python the same way, in the same process and passes, taking turns slice by slice
   with our playouts: its player actions per second. Target: our moves per second at least
   its actions per second, for each table size and preset.
3. Where our time goes: the share of scoring at round ends, and milliseconds per round
   (target: under 2 ms for a random round of any preset).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bench.common import Check, Options, Section, log, markdown_table, verdict
from cards101.engine import Game
from cards101.rules import PRESETS, score_match
from cards101.rules.scoring import played_round_scorer

NAME = "playouts"
TITLE = "Random playouts of the game engine, next to OpenSpiel's `crazy_eights`"
PLAYERS = (2, 3, 4)
SLICE = 0.25  # seconds each table plays per pass before the next takes its turn
MAX_MS_PER_ROUND = 2.0
OPENSPIEL_GAME = "crazy_eights"


@dataclass
class Tally:
    """What one kind of table played over the whole run."""

    moves: int = 0
    rounds: int = 0
    matches: int = 0
    seconds: float = 0.0
    seed: int = 0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds


def play_match(game: Game, rng: random.Random) -> tuple[int, int]:
    """A whole match of random legal moves: (moves, rounds)."""
    moves = rounds = 0
    while True:
        while not game.round_over:
            game.play(rng.choice(game.legal_moves()))
            moves += 1
        rounds += 1
        if game.match_over:
            return moves, rounds
        game.next_round()


def engine_slice(name: str, players: int) -> Callable[[Tally, float], None]:
    variant = PRESETS[name]

    def play_for(tally: Tally, seconds: float) -> None:
        clock = time.perf_counter
        start = clock()
        # Whole matches only, so a slice may run a little over.
        while clock() - start < seconds:
            game = Game.new(variant, players=players, seed=tally.seed)
            moves, rounds = play_match(game, random.Random(tally.seed))
            tally.seed += 1
            tally.moves += moves
            tally.rounds += rounds
            tally.matches += 1
        tally.seconds += clock() - start

    return play_for


def openspiel_slice(pyspiel, players: int) -> Callable[[Tally, float], None]:
    game = pyspiel.load_game(OPENSPIEL_GAME, {"players": players})
    rng = random.Random(players)

    def play_for(tally: Tally, seconds: float) -> None:
        clock = time.perf_counter
        choice = rng.choice
        start = clock()
        while clock() - start < seconds:
            state = game.new_initial_state()
            actions = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    # Every chance outcome of crazy_eights (the deal, each draw) is equally
                    # likely (checked in _check_uniform), so a plain choice samples it.
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                    actions += 1
            tally.moves += actions
            tally.matches += 1
        tally.seconds += clock() - start

    return play_for


def _check_uniform(pyspiel, players: int) -> bool:
    game = pyspiel.load_game(OPENSPIEL_GAME, {"players": players})
    rng = random.Random(0)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if len({probability for _, probability in outcomes}) > 1:
                    return False
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return True


def _load_openspiel():
    try:
        import pyspiel
    except ImportError as error:
        return None, f"`import pyspiel` failed ({error}); `make bench` installs it"
    from importlib.metadata import version

    return pyspiel, version("open-spiel")


def _scoring_share(name: str, players: int, matches: int = 30) -> float:
    """The share of a random match's time spent scoring rounds as they end (the engine's
    `played_round_scorer`, which gives what `score_match` gives for such a round)."""
    variant = PRESETS[name]
    total = scoring = 0.0
    clock = time.perf_counter
    for seed in range(matches):
        game = Game.new(variant, players=players, seed=seed)
        start = clock()
        play_match(game, random.Random(seed))
        total += clock() - start
        # Score the rounds again as the engine did: each once it ends, from the result before.
        seats = tuple(range(players))
        rounds = [scored.outcomes for scored in game.result.rounds]
        score = played_round_scorer(variant)
        result = score_match(variant, seats, [])
        start = clock()
        for outcomes in rounds:
            result = score(result, outcomes)
        scoring += clock() - start
        assert result == game.result  # the same rounds, scored the same way
    return scoring / total


def run(options: Options) -> Section:
    tables: dict[tuple[str, int], tuple[Tally, Callable[[Tally, float], None]]] = {}
    for name in PRESETS:
        for players in PLAYERS:
            tables[(name, players)] = (Tally(), engine_slice(name, players))
    pyspiel, openspiel_version = _load_openspiel()
    uniform = pyspiel is not None and all(_check_uniform(pyspiel, n) for n in PLAYERS)
    if pyspiel is not None and uniform:
        for players in PLAYERS:
            tables[(OPENSPIEL_GAME, players)] = (Tally(), openspiel_slice(pyspiel, players))
    log(
        f"[{NAME}] {len(tables)} tables, {options.passes} passes of {SLICE} s each "
        f"(OpenSpiel: {openspiel_version if pyspiel else 'not installed'})"
    )
    for _, play_for in tables.values():  # warm-up, untimed
        play_for(Tally(seed=10**6), 0.02)
    for number in range(options.passes):
        for tally, play_for in tables.values():
            play_for(tally, SLICE)
        log(f"[{NAME}] pass {number + 1}/{options.passes} done")

    rows = []
    for (name, players), (tally, _) in tables.items():
        if name == OPENSPIEL_GAME:
            continue
        rows.append(
            [
                f"`{name}`",
                players,
                tally.matches,
                tally.rounds,
                tally.moves,
                f"{tally.moves_per_second:,.0f}",
                f"{tally.rounds_per_second:,.0f}",
                f"{1000 / tally.rounds_per_second:.2f}",
                f"{tally.moves / tally.rounds:.0f}",
            ]
        )
        log(f"[{NAME}] {name} {players}p: {tally.moves_per_second:,.0f} moves/s")
    table = markdown_table(
        [
            "Preset",
            "Players",
            "Matches",
            "Rounds",
            "Moves",
            "Moves/s",
            "Rounds/s",
            "ms per round",
            "Moves per round",
        ],
        rows,
    )

    checks = []
    worst_round = max(
        (1000 / tally.rounds_per_second, name, players)
        for (name, players), (tally, _) in tables.items()
        if name != OPENSPIEL_GAME
    )
    checks.append(
        Check(
            f"a random round takes under {MAX_MS_PER_ROUND:g} ms (slowest preset and size)",
            f"{worst_round[0]:.2f} ms ({worst_round[1]}, {worst_round[2]} players)",
            worst_round[0] < MAX_MS_PER_ROUND,
        )
    )
    if pyspiel is None or not uniform:
        reason = openspiel_version if pyspiel is None else "its chance outcomes are not uniform"
        checks.append(Check("OpenSpiel crazy_eights measured in the same run", reason, False))
        openspiel = f"OpenSpiel could not be measured in this run: {reason}."
    else:
        openspiel_rows = []
        for players in PLAYERS:
            theirs = tables[(OPENSPIEL_GAME, players)][0]
            ours = min((tables[(name, players)][0].moves_per_second, name) for name in PRESETS)
            openspiel_rows.append(
                [
                    players,
                    theirs.matches,
                    theirs.moves,
                    f"{theirs.moves_per_second:,.0f}",
                    f"{1e6 / theirs.moves_per_second:.1f}",
                    f"{theirs.moves / theirs.matches:.0f}",
                    f"{ours[0]:,.0f} (`{ours[1]}`)",
                    f"{ours[0] / theirs.moves_per_second:.2f}",
                ]
            )
            checks.append(
                Check(
                    f"engine moves/s ≥ OpenSpiel crazy_eights actions/s, {players} players "
                    "(slowest preset)",
                    f"{ours[0]:,.0f} vs {theirs.moves_per_second:,.0f}",
                    ours[0] >= theirs.moves_per_second,
                )
            )
            log(f"[{NAME}] crazy_eights {players}p: {theirs.moves_per_second:,.0f} actions/s")
        openspiel = markdown_table(
            [
                "Players",
                "Games",
                "Player actions",
                "Actions/s",
                "µs per action",
                "Actions per game",
                "Our slowest preset, moves/s",
                "Ratio",
            ],
            openspiel_rows,
        )

    share_rows = []
    for name in PRESETS:
        for players in PLAYERS:
            share = _scoring_share(name, players)
            per_move = 1e6 / tables[(name, players)][0].moves_per_second
            share_rows.append(
                [
                    f"`{name}`",
                    players,
                    f"{share:.0%}",
                    f"{per_move:.1f}",
                    f"{per_move * (1 - share):.1f}",
                ]
            )
    shares = markdown_table(
        [
            "Preset",
            "Players",
            "Share of round scoring",
            "µs per move",
            "µs per move without it",
        ],
        share_rows,
    )
    passed = all(check.ok for check in checks)
    markdown = f"""\
Random-vs-random play of whole matches, in-process, for each preset with 2, 3 and 4 players:
a new `Game` per match (seeds 0, 1, 2, ...), then `random.choice(game.legal_moves())` played
until the round is over, `next_round()` until `score_match` says the match is over. A move is
one `play()` (a card, a draw or a pass); the time includes dealing, the draws and skips that
cards cause inside `play()`, and scoring every round as it ends. The tables take
turns in {SLICE} s slices over {options.passes} passes, so a busy moment of the shared machine
slows them all alike; a slice ends with its last whole match.

{table}

OpenSpiel {openspiel_version if pyspiel else ""} `{OPENSPIEL_GAME}` with its default parameters
(5 cards, at most 100 turns, no special cards, no reshuffle), played from Python in the same
passes:
`game.new_initial_state()`, then chance nodes (the deal and each card drawn) sampled with
`random.choice` over `chance_outcomes()` (all its chance outcomes are equally likely; the
run checks it) and player nodes with `random.choice(state.legal_actions())` and
`apply_action`. Only player actions are counted; their time includes the chance nodes, as
ours includes dealing and drawing. Its engine is C++ behind pybind11; ours is pure Python.

{openspiel}

Where our time goes: the share of a random match spent scoring each round as it ends, with
the rules library's `played_round_scorer` (what `score_match(..., since=)` gives for a round
the engine played, from per-card tables, without the checks such a round cannot fail; tests
compare the two on random matches), measured on 30 matches per table, and the time per move
with and without it. A round of `aaow` or `conventions` is about 40 random moves, so what a
round costs once (shuffling, dealing, scoring) weighs on each of them; a `crazy_eights` game
is one deal of about 85 actions with no score kept across deals.

{shares}

{verdict(passed)}."""
    return Section(NAME, TITLE, markdown, checks)
