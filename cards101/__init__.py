"""The game of 101 (Сто одно) as a library: pure Python, no Django.

- `cards101.rules`: the rules of 101 — cards and their notation, variants and presets,
  scoring a round and a match.
- `cards101.engine`: a game in play — `Game`, its `Move`s, what each seat may see.
- `cards101.bots`: computer players that decide from one seat's view.

The site (the Django apps beside it) builds on this package; this package never imports
the site or Django, so it can be used on its own:

    from cards101.engine import Game
    from cards101.rules import PRESETS, score_match

    game = Game.new(PRESETS["classic"], players=3, seed=1)
    game.play(game.legal_moves()[0])
"""
