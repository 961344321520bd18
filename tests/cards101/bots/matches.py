"""Whole matches played for the bots' tests, and policies simpler than any bot."""

from collections.abc import Callable, Iterator
from random import Random
from typing import Any

from cards101.engine import Game, Move
from cards101.rules import PRESETS, Variant

# Tables that between them use every kind of event: covering, both restocks, Queens turned
# up at the opening, draws owed when a player goes out, three and four players.
TABLES: list[tuple[str, Variant, int]] = [
    ("aaow 2", PRESETS["aaow"], 2),
    ("aaow 3", PRESETS["aaow"], 3),
    ("aaow 4 shuffled", PRESETS["aaow"].replace(restock="shuffle"), 4),
    ("classic 2", PRESETS["classic"], 2),
    ("classic 3", PRESETS["classic"].replace(restock="shuffle"), 3),
    ("conventions 2", PRESETS["conventions"], 2),
    ("conventions 4", PRESETS["conventions"].replace(after_draw="may_play"), 4),
    ("last dealt 3", PRESETS["classic"].replace(opening="last_dealt", round_end="last_holder"), 3),
]

type Policy = Callable[[Game, list[Move]], Move]


def random_policy(rng: Random) -> Policy:
    return lambda game, legal: rng.choice(legal)


def first_fit(game: Game, legal: list[Move]) -> Move:
    """Play whenever a card fits (so that a draw or a pass says nothing fitted)."""
    return next((move for move in legal if move.kind == "play"), legal[0])


def decisions(
    variant: Variant, players: int, policy: Policy, *, seed: int, matches: int = 1
) -> Iterator[Game]:
    """Every decision of whole matches, the game paused before the move is made."""
    for match in range(matches):
        game = Game.new(variant, players=players, seed=seed * 1000 + match)
        while True:
            while not game.round_over:
                yield game
                game.play(policy(game, game.legal_moves()))
            if game.match_over:
                break
            game.next_round()


def hidden(game: Game, seat: int) -> dict[str, Any]:
    """What `seat` cannot see: the other hands and the stock, as card lists."""
    cards = game.cards_in_play()
    return {
        "hands": [hand if other != seat else None for other, hand in enumerate(cards["hands"])],
        "stock": cards["stock"],
    }
