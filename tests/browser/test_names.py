"""Long names on a phone: on the pages people read at a table, no word (a name above all)
breaks across two lines; a name too long for its place is cut at the edge instead."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page

from cards101.rules import PRESETS
from games.models import Player
from games.services import own_player
from play import services as play
from play.models import PlayTable
from tests.browser.helpers import in_both_languages
from tests.factories import make_match, record
from tests.tournaments.factories import enter, make_tournament
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = ["Константинопольская", "Александр Длинноимённый", "Жозефина-Анастасия", "Ёж"]

# Every word of the page's main part whose letters the browser laid out on more than one line
# (a hyphenated name may wrap at its hyphen, as at a space).
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.data.matchAll(/[^\\s\u2010-\u2014-]+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0);
      const tops = new Set(lines.map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}"""


def long_names_match(creator):
    """A match of the four LONG_NAMES, one round entered."""
    match = make_match(creator, LONG_NAMES)
    record(
        match,
        creator,
        {
            LONG_NAMES[0]: {"out": "QS"},
            LONG_NAMES[1]: {"hand": "AC 10H"},
            LONG_NAMES[2]: {"points": 17},
            LONG_NAMES[3]: {"hand": "9D"},
        },
    )
    return match


@in_both_languages
def test_no_name_breaks_inside_a_word_on_a_phone(
    page: Page, problems: list[str], alice, log_in, django_user_model
):
    long_user = django_user_model.objects.create_user("Константин_Константинопольский", "", "x")
    match = long_names_match(alice)
    tournament = make_tournament(alice, name="Открытый чемпионат Константинопольского клуба")
    enter(tournament, [*LONG_NAMES, "Анна", "Борис", "Вера", "Глеб"], alice)
    services.seat_next_round(tournament=tournament, by=alice)
    table = play.create_table(
        by=long_user,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "greedy", "random", "expert"],
        seed=3,
    )
    profile = Player.objects.get(name=LONG_NAMES[1])
    pages = {
        "score sheet": match.get_absolute_url(),
        "live view": reverse("games:match_live", args=[match.pk]),
        "tournament": tournament.get_absolute_url(),
        "projector": reverse("tournaments:projector", args=[tournament.pk]),
        "round": reverse("tournaments:round", args=[tournament.pk, 1]),
        "profile": reverse("stats:profile", args=[profile.pk]),
        "matches": reverse("games:match_list"),
    }
    broken = {}
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(alice)
    for name, path in pages.items():
        page.goto(path)
        broken[name] = page.evaluate(BROKEN_WORDS)
    page.context.clear_cookies()
    log_in(long_user)
    page.goto(table.get_absolute_url())
    broken["played table"] = page.evaluate(BROKEN_WORDS)
    assert {name: words for name, words in broken.items() if words} == {}
    assert problems == []


def play_to_the_end(table, user) -> None:
    """The person plays their first legal move each time, the bots theirs, rounds dealt at
    once, until the match is over."""
    from cards101.engine import Game

    for _ in range(5000):
        table.refresh_from_db()
        if table.status == PlayTable.Status.FINISHED:
            return
        game = Game.from_json(table.state)
        if game.round_over:
            play.next_round(table=table, user=user, round_number=game.round + 1)
        elif table.seats.get(position=game.to_move).user_id == user.pk:
            play.play(table=table, user=user, move=game.legal_moves()[0], version=table.version)
        else:
            play.step(table=table, now=timezone.now() + datetime.timedelta(hours=1))
    raise AssertionError("the match did not end")


@in_both_languages
def test_no_name_breaks_inside_a_word_at_a_played_table_the_lobby_a_replay_or_a_ranking(
    page: Page, problems: list[str], log_in, django_user_model
):
    sasha = django_user_model.objects.create_user("sasha", "", "x")
    player = own_player(sasha)
    player.name = "Александра Константиновна"
    player.save()
    named = play.create_table(
        by=sasha,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "greedy", "expert", "random"],
        name="Пятничный стол у Константиновны",
        seed=3,
    )
    # A name of one word too long for a phone is cut at the edge of its row.
    play.create_table(
        by=sasha,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "open"],
        name="Константинопольскаяпартиябезпробелов",
    )
    finished = play.create_table(
        by=sasha, preset="aaow", variant=PRESETS["aaow"], seats=["me", "random"], seed=5
    )
    play_to_the_end(finished, sasha)
    pages = {
        "lobby": reverse("play:lobby"),
        "played table": named.get_absolute_url(),
        "match over, its ranking": finished.get_absolute_url(),
        "replay": reverse("play:replay", args=[finished.pk, 1]) + "?step=3",
        "leaderboard": reverse("stats:leaderboard") + "?preset=aaow&least=1",
    }
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(sasha)
    broken = {}
    for name, path in pages.items():
        page.goto(path)
        assert page.get_by_text("Александра Константиновна").first.is_visible(), name
        broken[name] = page.evaluate(BROKEN_WORDS)
        # Nothing is wider than the phone: a long name wraps at its space or is cut.
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
    assert {name: words for name, words in broken.items() if words} == {}
    assert problems == []
