"""Ratings of 101 players with openskill's Plackett–Luce model, pure Python (no Django).

A rating is a belief about a player's skill: `mu` (the estimate) and `sigma` (how unsure it
is). Each finished match moves its players' ratings from their final places, players tied for
a place passing as equal ranks. What the site shows is a conservative figure on a familiar
scale, `1500 + 20 × (mu − 3·sigma)`: a newcomer starts at 1500 and climbs as the site becomes
sure of them; with fewer than PROVISIONAL_UNDER matches a rating is provisional.

openskill's defaults are kept (mu 25, sigma 25/3), so anyone can recompute the ratings from
an export: matches in order of when they finished, then id.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
BASE = 1500
SCALE = 20
PROVISIONAL_UNDER = 10  # matches


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating in one pool, and how many rated matches made it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    matches: int = 0

    @property
    def shown(self) -> int:
        """The conservative rating people see: 1500 for a newcomer."""
        return round(BASE + SCALE * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_UNDER


NEWCOMER = Skill()


@dataclass(frozen=True, slots=True)
class Change:
    """What one match did to one player's rating."""

    match: Hashable
    player: Hashable
    before: Skill
    after: Skill
    win_chance: float  # the player's chance to finish first, from the ratings before


def rate(skills: Mapping[Hashable, Skill], places: Mapping[Hashable, int]) -> dict[Hashable, Skill]:
    """Every player's rating after one match, from their ratings before it (a newcomer if
    missing) and their places (1 first; players tied share a place)."""
    return _rate(skills, places)[0]


def _rate(
    skills: Mapping[Hashable, Skill], places: Mapping[Hashable, int]
) -> tuple[dict[Hashable, Skill], list[Skill], list[float]]:
    """The ratings after the match, the ratings before it, and the win chances they gave."""
    if len(places) < 2:
        raise ValueError("a rated match has at least two players")
    players = list(places)
    before = [skills.get(player, NEWCOMER) for player in players]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    chances = MODEL.predict_win(teams)
    rated = MODEL.rate(teams, ranks=[places[player] for player in players])
    after = {
        player: Skill(team[0].mu, team[0].sigma, skill.matches + 1)
        for player, skill, team in zip(players, before, rated, strict=True)
    }
    return after, before, chances


def replay(
    skills: dict[Hashable, Skill], matches: Iterable[tuple[Hashable, Mapping[Hashable, int]]]
) -> Iterator[Change]:
    """Rate `matches` (match, places by player) in the order given, starting from `skills`,
    which is updated as it goes; yields every player's change in every match."""
    for match, places in matches:
        after, before, chances = _rate(skills, places)
        for (player, skill), was, chance in zip(after.items(), before, chances, strict=True):
            yield Change(match, player, was, skill, chance)
        skills.update(after)


def win_chances(skills: Iterable[Skill]) -> list[float]:
    """Each player's chance to finish first, from their ratings (openskill's predict_win)."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    if len(teams) < 2:
        return [1.0] * len(teams)
    return MODEL.predict_win(teams)
