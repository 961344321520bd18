"""Playing in a real browser: a new user plays a round against two bots by clicking cards (in
English and in Russian), the leader of an aaow round names the suit of a turned-up Queen, and
two people play one table from two browsers."""

import itertools
import re
import time

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Page, expect

from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from tests.browser.helpers import in_both_languages, in_russian, new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What the board's buttons and headings say in each language, as a player reads them.
WORDS = {
    "en": {
        "sign up": "Sign Up",
        "log out": "Log out",
        "play": "Play",
        "new table": "New table",
        "seat": "Seat {}",
        "open the table": "Open the table",
        "your turn": "Your turn",
        "draw": "Draw a card",
        "pass": "Pass",
        "over": "The (round|match) is over",
        "waiting": "Waiting for players",
        "invitation link": "Invitation link",
        "take a seat": "Take a seat",
        "chances": "Chances to win|Ratings",
    },
    "ru": {
        "sign up": "Зарегистрируйтесь",
        "log out": "Выйти",
        "play": "Игра онлайн",
        "new table": "Новый стол",
        "seat": "Место {}",
        "open the table": "Открыть стол",
        "your turn": "Ваш ход",
        "draw": "Взять карту",
        "pass": "Пас",
        "over": "(Раунд окончен|Партия окончена)",
        "waiting": "Ждём игроков",
        "invitation link": "Ссылка-приглашение",
        "take a seat": "Занять место",
        "chances": "Шансы на победу|Рейтинги",
    },
}


@pytest.fixture(autouse=True)
def _quick_bots(settings):
    # Bots wait 0.7 s before moving so that people see them; the test need not.
    settings.PLAY_BOT_DELAY = 0


def take_my_turn(page: Page, words: dict[str, str] = WORDS["en"]) -> None:
    """Name the first suit for a turned-up Queen, else play the first card that may be played
    (a Queen orders its first suit), else draw, else pass."""
    board = page.locator("#board")
    turned_up = board.locator("form.turned-up button")
    playable = board.locator(".hand form.inline button.card")
    queens = board.locator(".hand details.queen-pick")
    if turned_up.count():
        turned_up.first.click()
    elif playable.count():
        playable.first.click()
    elif queens.count():
        queens.first.locator("summary").click()
        queens.first.locator(".suit-picker button").first.click()
    elif board.get_by_role("button", name=words["draw"]).count():
        board.get_by_role("button", name=words["draw"]).click()
    else:
        board.get_by_role("button", name=words["pass"]).click()


def play_until_round_end(page: Page, words: dict[str, str] = WORDS["en"], limit=300) -> None:
    board = page.locator("#board")
    for _ in range(limit):
        if board.locator(".round-end").count():
            return
        if board.get_by_role("heading", name=re.compile(f"^{words['your turn']}")).count():
            version = board.get_attribute("hx-get")
            take_my_turn(page, words)
            # The move's answer replaces the board with the next version.
            expect(board).not_to_have_attribute("hx-get", version or "")
        else:
            page.wait_for_timeout(150)
    raise AssertionError("the round did not end")


@in_both_languages
def test_a_new_user_plays_a_round_against_two_bots(page: Page, problems: list[str], language):
    words = WORDS[language]
    page.goto("/accounts/signup/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.locator("input[name=username]").fill("newcomer")
    page.locator("input[name=password1]").fill("a-long-new-password")
    page.locator("input[name=password2]").fill("a-long-new-password")
    page.get_by_role("button", name=words["sign up"]).click()
    expect(page.get_by_role("button", name=words["log out"])).to_be_visible()

    page.get_by_role("navigation").get_by_role("link", name=words["play"], exact=True).click()
    page.get_by_role("link", name=words["new table"]).click()
    expect(page.get_by_label(words["seat"].format(2))).to_have_value("greedy")
    expect(page.get_by_label(words["seat"].format(3))).to_have_value("greedy")
    page.get_by_role("button", name=words["open the table"]).click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator(".opponent")).to_have_count(3)
    expect(page.locator(".opponent.me .name")).to_have_text("newcomer")

    play_until_round_end(page, words)
    end = page.locator("#board .round-end")
    expect(end.get_by_role("heading")).to_have_text(re.compile(words["over"]))
    expect(end.locator("tbody tr")).to_have_count(3)
    # Then each one's chance to win the match as the totals stand (or, if the round ended
    # the match, how the ratings moved).
    expect(page.locator("#board .predictions h2")).to_have_text(re.compile(words["chances"]))
    assert problems == []


@in_russian
def test_in_russian_the_leader_names_the_suit_of_a_turned_up_queen_and_play_goes_on(
    page: Page, problems: list[str], log_in, alice
):
    # An aaow deal whose turned-up card is a Queen and whose leader is alice (seat 1).
    seed = next(
        seed
        for seed in itertools.count()
        if (game := Game.new(PRESETS["aaow"], players=3, seed=seed)).opening_queen
        and game.to_move == 0
    )
    table = play.create_table(
        by=alice,
        preset="aaow",
        variant=PRESETS["aaow"],
        seats=["me", "greedy", "greedy"],
        seed=seed,
    )
    log_in(alice)
    page.goto(table.get_absolute_url())
    board = page.locator("#board")
    expect(board.get_by_role("heading", name="Ваш ход")).to_be_visible()
    # The Queen lies on the pile: every card of the hand is greyed, the suits are offered.
    expect(board.locator(".top-card")).to_have_text(re.compile("^Д"))
    expect(board.locator(".hand button.card:enabled")).to_have_count(0)
    expect(board.get_by_text("Вам ходить открытой дамой: закажите масть")).to_be_visible()
    board.get_by_role("button", name="Заказать червы").click()

    log = page.locator("#board .play-log")
    expect(log.get_by_text(re.compile(r"^alice заказывает ♥ открытой картой Д"))).to_be_visible()
    # The bots play on: the next move is theirs, on a heart or a Queen.
    expect(log.locator("li", has_text=re.compile(r"^Жадный бот"))).not_to_have_count(0)
    play_until_round_end(page, WORDS["ru"])
    expect(page.locator("#board .round-end h2")).to_have_text(re.compile(WORDS["ru"]["over"]))
    assert problems == []


@in_both_languages
def test_two_people_play_one_table_from_two_browsers(
    page: Page, browser, live_server, log_in, alice, bob, language
):
    words = WORDS[language]
    log_in(alice)
    page.goto("/play/new/")
    page.get_by_label(words["seat"].format(2)).select_option("open")
    page.get_by_label(words["seat"].format(3)).select_option("")
    page.get_by_role("button", name=words["open the table"]).click()
    expect(page.get_by_role("heading", name=words["waiting"])).to_be_visible()
    invite = page.get_by_label(words["invitation link"]).input_value()

    other = new_context(browser, live_server, language)
    # A client of bob's own: logging another user in on alice's would end her session.
    bobs_client = Client()
    bobs_client.force_login(bob)
    cookie = bobs_client.cookies[django_settings.SESSION_COOKIE_NAME]
    other.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    bobs = other.new_page()
    bobs.goto(invite)
    bobs.get_by_role("button", name=words["take a seat"]).click()
    expect(bobs.locator(".opponent")).to_have_count(2)
    # alice's board learns of it by itself.
    expect(page.locator(".opponent")).to_have_count(2, timeout=8_000)

    # Whoever's turn it is plays; the other's board follows without a reload.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.locator("#board .round-end").count() and bobs.locator("#board .round-end").count():
            break
        for mover in (page, bobs):
            board = mover.locator("#board")
            if board.get_by_role("heading", name=re.compile(f"^{words['your turn']}")).count():
                version = board.get_attribute("hx-get")
                take_my_turn(mover, words)
                expect(board).not_to_have_attribute("hx-get", version or "")
                turn = re.compile(f"^{words['your turn']}")
                if (
                    not board.get_by_role("heading", name=turn).count()
                    and not board.locator(".round-end").count()
                ):
                    # The other's turn: pushed to their board at once, not found by the
                    # 15-second fallback poll.
                    other_board = (bobs if mover is page else page).locator("#board")
                    expect(other_board.get_by_role("heading", name=turn)).to_be_visible(
                        timeout=3_000
                    )
        page.wait_for_timeout(100)
    expect(page.locator("#board .round-end")).to_be_visible(timeout=8_000)
    expect(bobs.locator("#board .round-end")).to_be_visible(timeout=8_000)
    other.close()


# What the page writes to the clipboard, kept for the test to read: the page itself may not
# read the clipboard (Permissions-Policy), and the write still goes through to the browser.
RECORD_CLIPBOARD = """(() => {
  if (!navigator.clipboard) return;
  const write = navigator.clipboard.writeText.bind(navigator.clipboard);
  navigator.clipboard.writeText = async (text) => {
    await write(text);
    window.copiedText = text;
  };
})();"""


@in_both_languages
def test_the_invitation_link_is_copied_by_its_button(
    page: Page, problems: list[str], context, log_in, alice, t
):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    context.add_init_script(RECORD_CLIPBOARD)
    table = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"]
    )
    log_in(alice)
    page.goto(table.get_absolute_url())
    link = page.get_by_label(t("Invitation link")).input_value()
    assert link.endswith(f"/play/join/{table.invite}/")
    page.get_by_role("button", name=t("Copy the link")).click()
    expect(page.get_by_role("status")).to_have_text(t("Copied"))
    assert page.evaluate("window.copiedText") == link
    assert problems == []


def long_round_at_my_move() -> Game:
    """A first round of greedy bots, at seat 0's move once the log holds more events than the
    board shows open."""
    from cards101.bots import make_bot
    from play.board import LOG_SHOWN

    for seed in itertools.count():
        game = Game.new(PRESETS["classic"], players=3, seed=seed)
        bots = [make_bot("greedy", seed=seat) for seat in range(3)]
        while not game.round_over:
            if game.to_move == 0 and len(game.view(0)["log"]) > LOG_SHOWN + 2:
                return game
            game.play(bots[game.to_move].choose(game.view(game.to_move), game.legal_moves()))
    raise AssertionError("unreachable")


@in_both_languages
def test_the_whole_round_stays_open_while_the_board_moves_on(
    page: Page, problems: list[str], log_in, alice, language
):
    from play.models import PlayTable

    words = WORDS[language]
    table = play.create_table(
        by=alice, preset="classic", variant=PRESETS["classic"], seats=["me", "greedy", "greedy"]
    )
    PlayTable.objects.filter(pk=table.pk).update(
        state=long_round_at_my_move().to_json(), server_moves_at=None
    )
    log_in(alice)
    page.goto(table.get_absolute_url())
    expect(page.get_by_role("heading", name=re.compile(f"^{words['your turn']}"))).to_be_visible()
    log = page.locator("#board .play-log")
    earlier = log.locator("details.log-earlier")
    expect(earlier).not_to_have_attribute("open", "")
    first = log.locator("> ol > li").first.inner_text()
    earlier.locator("summary").click()
    expect(earlier.locator("li").first).to_be_visible()
    # My move and the bots' replace the board: the earlier events stay shown, newest on top.
    version = page.locator("#board").get_attribute("hx-get")
    take_my_turn(page, words)
    expect(page.locator("#board")).not_to_have_attribute("hx-get", version or "")
    expect(log.locator("> ol > li").first).not_to_have_text(first)
    expect(page.locator("#board details.log-earlier")).to_have_attribute("open", "")
    expect(page.locator("#board details.log-earlier li").first).to_be_visible()
    assert problems == []
