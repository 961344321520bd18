"""Play bots against each other under any rules and print their win rates.

    manage.py simulate --preset aaow --players 2 --bots expert,greedy --matches 500 --seed 1
    manage.py simulate --preset classic --players 3 --bots greedy --option reset_at_100=false
    manage.py simulate --bots greedy,random --matches 20 --save --user demo

Seats rotate from match to match, so that no bot always sits first. The deals follow from
--seed; the expert thinks for a time (--budget), so its choices also depend on the machine.
With --save each match is stored as a finished match played on the site, bots seated as the
players "Greedy bot", "Expert bot 2"...
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from cards101.bots import BOT_NAMES
from cards101.bots.arena import PlayedMatch, Tally, labels, play_match
from cards101.rules import PRESETS, RulesError, Variant, check_players
from games import services
from games.bot_names import stored_bot_name
from games.models import Match, Player

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")
MOST_MATCHES = 1_000_000
BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Play bots against each other and print win rates with 95% confidence intervals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--preset", default="aaow", choices=list(PRESETS))
        parser.add_argument("--players", type=int, default=2, help="2 to 4 (default 2)")
        parser.add_argument(
            "--bots",
            default="expert,greedy",
            help=f"one bot a seat, comma separated ({', '.join(BOT_NAMES)}); one name fills "
            "every seat (default expert,greedy)",
        )
        parser.add_argument("--matches", type=int, default=100, help="default 100")
        parser.add_argument("--seed", type=int, default=0, help="seeds the deals (default 0)")
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="change a rule of the preset, e.g. reset_at_100=false (repeatable)",
        )
        parser.add_argument(
            "--budget", type=float, default=None, help="seconds the expert thinks a move"
        )
        parser.add_argument(
            "--save", action="store_true", help="store the matches as played on the site"
        )
        parser.add_argument("--user", help="the account that --save creates the matches as")

    def handle(self, *args: Any, **options: Any) -> None:
        variant = _variant(options["preset"], options["option"])
        players = options["players"]
        bots = _bots(options["bots"], players)
        try:
            check_players(variant, players)
        except RulesError as error:
            raise CommandError(error.render()) from None
        matches = options["matches"]
        if not 1 <= matches <= MOST_MATCHES:
            raise CommandError(f"--matches must be from 1 to {MOST_MATCHES:,}")
        budget = options["budget"]
        if budget is not None and not budget > 0:
            raise CommandError("--budget is a number of seconds above 0")
        user = _user(options["user"]) if options["save"] else None
        if options["user"] and not options["save"]:
            raise CommandError("--user names who stores the matches: add --save")
        bot_options = {"expert": {"budget": budget}} if budget is not None else {}

        tally = Tally(len(bots))
        started = time.perf_counter()
        for number in range(matches):
            played = play_match(
                variant, bots, number=number, seed=options["seed"], options=bot_options
            )
            tally.add(played)
            if user is not None:
                _save(played, bots, user, options["preset"], variant)
            self._progress(number + 1, matches, started)
        elapsed = time.perf_counter() - started
        self.stderr.write("")
        self._report(options, variant, bots, tally, elapsed)

    def _progress(self, done: int, matches: int, started: float) -> None:
        filled = BAR_WIDTH * done // matches
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        elapsed = time.perf_counter() - started
        self.stderr.write(f"\r[{bar}] {done}/{matches} matches, {elapsed:.0f} s", ending="")
        self.stderr.flush()

    def _report(
        self,
        options: dict[str, Any],
        variant: Variant,
        bots: list[str],
        tally: Tally,
        elapsed: float,
    ) -> None:
        changed = options["option"]
        rules = options["preset"] + (f" ({', '.join(changed)})" if changed else "")
        self.stdout.write(
            f"{rules}, {len(bots)} players, {tally.matches} matches, seed {options['seed']}"
        )
        names = labels(bots)
        width = max(len(name) for name in [*names, "bot"])
        self.stdout.write(f"{'bot':<{width}}  {'wins':>8}  {'win rate':>8}  95% interval")
        for entrant, name in enumerate(names):
            rate, low, high = tally.win_rate(entrant)
            wins = f"{tally.wins[entrant]:g}"
            self.stdout.write(f"{name:<{width}}  {wins:>8}  {rate:>8.1%}  {low:.1%} to {high:.1%}")
        per_second = tally.rounds / elapsed if elapsed > 0 else float("inf")
        self.stdout.write(
            f"Rounds per match: {tally.rounds / tally.matches:.2f} on average "
            f"({tally.rounds} rounds, {tally.moves} moves)"
        )
        self.stdout.write(f"Rounds per second: {per_second:.1f} ({elapsed:.1f} s in all)")
        if options["save"]:
            self.stdout.write(f"Saved {tally.matches} matches as played on the site.")


def _variant(preset: str, changes: list[str]) -> Variant:
    """The preset with each NAME=VALUE change, checked by the rules library."""
    options: dict[str, Any] = {}
    names = Variant.option_names()
    for change in changes:
        name, sep, text = change.partition("=")
        name = name.strip()
        if not sep:
            raise CommandError(f"--option takes NAME=VALUE, not {change!r}")
        if name not in names:
            raise CommandError(f"There is no option {name!r}; the options are {', '.join(names)}")
        options[name] = _value(name, text.strip())
    try:
        return PRESETS[preset].replace(**options)
    except RulesError as error:
        raise CommandError(error.render()) from None


def _value(name: str, text: str) -> Any:
    """An option's value from the command line: a yes/no, a number or a word."""
    choices = Variant.option_choices(name)
    if choices is None or all(type(choice) is int for choice in choices):
        try:
            return int(text)
        except ValueError:
            raise CommandError(f"Option {name!r} takes a whole number, not {text!r}") from None
    if all(type(choice) is bool for choice in choices):
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise CommandError(f"Option {name!r} is true or false, not {text!r}")
    return text


def _bots(text: str, players: int) -> list[str]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BOT_NAMES]
    if unknown:
        raise CommandError(f"There is no bot {unknown[0]!r}: choose from {', '.join(BOT_NAMES)}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise CommandError(
            f"Give one bot a seat: {players} players, but {len(names)} bots ({', '.join(names)})"
        )
    return names


def _user(username: str | None):
    if not username:
        raise CommandError("--save needs --user USERNAME: the account the matches belong to")
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"There is no user {username!r}")
    return user


def _save(played: PlayedMatch, bots: list[str], user, preset: str, variant: Variant) -> None:
    """The match as finished and played on the site, its rounds scored as the engine did."""
    seated = [bots[entrant] for entrant in played.entrants]
    with transaction.atomic():
        match = services.create_match(
            created_by=user,
            players=_bot_players(seated),
            preset=preset,
            variant=variant,
            kind=Match.Kind.ONLINE,
        )
        for scored, outcomes in zip(played.result.rounds, played.rounds, strict=True):
            services.store_played_round(match=match, outcomes=outcomes, cut=scored.cut)


def _bot_players(seated: list[str]) -> list[Player]:
    """A player per bot, by name as the live tables name them: "Greedy bot", and "Greedy
    bot 2" for a second greedy bot at the same table (the same rows for every match)."""
    players = []
    for seat, name in enumerate(seated):
        number = seated[: seat + 1].count(name)
        # Stored in English, once for everyone; pages translate it (Player.__str__).
        shown = stored_bot_name(name, number)
        players.append(
            Player.objects.get_or_create(name=shown, user=None, added_by=None, is_bot=True)[0]
        )
    return players
