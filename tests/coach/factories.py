"""What coach tests import: a table played for its review."""

from __future__ import annotations

from django.test import override_settings

from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from play.models import PlayTable


def played_table(
    user, *, seats=("me", "greedy", "greedy", "greedy"), preset="classic", seed=7, rounds=1
) -> PlayTable:
    """A table where `user` (seat 0) plays the first legal move each turn and bots the rest,
    until `rounds` rounds have finished (or the match)."""
    table = play.create_table(
        by=user, preset=preset, variant=PRESETS[preset], seats=list(seats), seed=seed
    )
    finished = 0
    with override_settings(PLAY_BOT_DELAY=0, PLAY_ROUND_PAUSE=0):
        while True:
            table.refresh_from_db()
            game = Game.from_json(table.state)
            if game.round_over:
                finished += 1
                if finished >= rounds or game.match_over:
                    return table
                play.next_round(table=table, user=user, round_number=game.round + 1)
                continue
            if game.to_move == 0:
                play.play(table=table, user=user, move=game.legal_moves()[0], version=table.version)
            else:
                play.step(table=table)
