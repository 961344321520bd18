"""The keyboard alone, and a screen reader: a whole round played against bots with Tab, Enter
and the arrow keys, the focus on the next action after every move and every pushed board,
others' moves said through the live region in the page's language; the board read as a
screen reader reads it; a round entered on a score sheet without a mouse."""

import itertools
import re
from collections.abc import Callable

import pytest
from django.db.models import F
from django.utils import translation
from playwright.sync_api import Page, expect

from cards101.bots import make_bot
from cards101.engine import Game
from cards101.rules import PRESETS, parse_card
from core import live
from games.labels import card_name, card_notation
from play import services as play
from play.models import PlayTable
from play.spoken import ORDERED_SUITS, say
from tests.browser.helpers import bot_moves, in_both_languages
from tests.factories import make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOTS = {"en": ("Greedy bot", "Greedy bot 2"), "ru": ("Жадный бот", "Жадный бот 2")}

# Kept for the test to read: everything the live region of the board is told (it keeps only
# the last few itself), and after every swap of the board, whose turn it shows and what has
# the keyboard's focus then.
RECORD_THE_BOARD = """(() => {
  window.announced = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) window.announced.push(node.textContent);
    }
  }).observe(document.getElementById("board-news"), { childList: true });
  window.swaps = [];
  document.addEventListener("htmx:afterSettle", (event) => {
    const board = event.target;
    if (board.id !== "board") return;
    const hand = board.querySelector(".my-hand h2");
    window.swaps.push({
      over: Boolean(board.querySelector(".round-end")),
      hand: hand ? hand.textContent.trim() : "",
      focus: document.activeElement.dataset.focus || document.activeElement.tagName,
    });
  });
})();"""


def names(language: str) -> dict[int, str]:
    return {0: "alice", 1: BOTS[language][0], 2: BOTS[language][1]}


def game_of(table: PlayTable) -> Game:
    table.refresh_from_db()
    return Game.from_json(table.state)


def next_action_name(game: Game, t: Callable[..., str], language: str) -> str:
    """What seat 0 may do first, in the board's order, as a screen reader names it: a
    turned-up Queen's first suit, the first card of the hand that may be played, drawing,
    passing."""
    legal = game.legal_moves()
    hand = game.view(0)["hand"]
    plays = [move for move in legal if move.kind == "play"]
    turned_up = [move for move in plays if move.card.code not in hand]
    with translation.override(language):
        if turned_up:
            return t("Order %(symbol)s", symbol=ORDERED_SUITS[turned_up[0].suit])
        playable = {move.card.code for move in plays}
        first = next((code for code in hand if code in playable), None)
        if first is not None:
            return card_name(parse_card(first))
    kinds = {move.kind for move in legal}
    return t("Draw a card") if "draw" in kinds else t("Pass")


def focused(page: Page):
    return page.locator(":focus")


def move_with_the_keyboard(page: Page) -> None:
    """Make the move the focus is on: Enter; a Queen in the hand opens her suits with Enter,
    Tab goes to the first, Enter orders it."""
    queen = page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")
    if queen:
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")


def alice_moves(page: Page, table: PlayTable, t: Callable[..., str], language: str) -> None:
    """It is alice's turn: the focus is on her first legal move, named as a screen reader
    says it; she makes it with the keyboard, and the board moves on."""
    expect(focused(page)).to_have_accessible_name(next_action_name(game_of(table), t, language))
    before = seen(page)
    move_with_the_keyboard(page)
    expect(page.locator("#board")).not_to_have_attribute("hx-vals", before)


def tab_into_the_board(page: Page) -> None:
    """Tab from the top of the page until the focus is on the board."""
    tab_until(page, "document.getElementById('board').contains(it)", limit=25)


def seen(page: Page) -> str:
    """How the board on the page names itself: its round and how many of its events."""
    return page.locator("#board").get_attribute("hx-vals") or ""


@pytest.fixture
def alices_table(page: Page, log_in, alice) -> Callable[[str], PlayTable]:
    """A table of alice and two greedy bots whose first round she leads, open on her page,
    everything its live region says recorded, and the keyboard on her hand (Tab from the
    top of the page)."""

    def open_table(preset: str) -> PlayTable:
        seed = next(s for s in itertools.count() if Game.new(PRESETS[preset], 3, s).to_move == 0)
        table = play.create_table(
            by=alice,
            preset=preset,
            variant=PRESETS[preset],
            seats=["me", "greedy", "greedy"],
            seed=seed,
        )
        log_in(alice)
        page.goto(table.get_absolute_url())
        page.evaluate(RECORD_THE_BOARD)
        tab_into_the_board(page)
        return table

    return open_table


@pytest.fixture
def _quick_bots(settings):
    settings.PLAY_BOT_DELAY = 0


@pytest.fixture
def _bots_wait(settings):
    # The bots move only when the test says (a move a minute, at their own pace).
    settings.PLAY_BOT_DELAY = 60


@in_both_languages
@pytest.mark.usefixtures("_quick_bots")
def test_a_whole_round_is_played_with_the_keyboard_alone_and_the_bots_moves_are_said(
    page: Page, problems: list[str], alices_table, language, t
):
    table = alices_table("classic")
    board = page.locator("#board")
    end = board.locator(".round-end")
    my_turn = board.get_by_role("heading", name=re.compile(f"^{t('Your turn')}"))

    moves = 0
    while True:
        expect(my_turn.or_(end)).to_be_visible()
        if end.count():
            break
        alice_moves(page, table, t, language)
        moves += 1
        assert moves < 200
    # The round's results take the focus, and the last of it is said.
    over = re.compile(f"{t('The round is over')}|{t('The match is over')}")
    expect(focused(page)).to_have_accessible_name(over)
    # After every board, hers or pushed: on her turn the focus was on a move of hers, on the
    # bots' on the line that says whose turn it is, never dropped to the top of the page.
    swaps = page.evaluate("window.swaps")
    assert len(swaps) > moves  # the bots' moves came to her page too
    for swap in swaps:
        if swap["over"]:
            assert swap["focus"] == "round-end", swap
        elif swap["hand"].startswith(t("Your turn")):
            assert re.match(r"(card|order):|draw$|pass$", swap["focus"]), swap
        else:
            assert swap["focus"] == "status", swap

    # Everything that happened after alice's first move was said, in order, in the page's
    # language: her moves to her, the bots' with their names, a bot's draw as a count.
    announced = " ".join(page.evaluate("window.announced"))
    with translation.override(language):
        sentences = [say(event, names(language), 0) for event in game_of(table).view(0)["log"]]
    at = 0
    for sentence in sentences:
        found = announced.find(sentence, at)
        assert found >= 0, (sentence, announced[at:])
        at = found + len(sentence)
    bot = re.escape(BOTS[language][0])
    plays = {"en": "plays the", "ru": "кладёт"}[language]
    assert re.search(f"{bot} {plays} ", announced)
    assert t("Your turn") + "." in announced
    draws = {"en": r"draws \d+ cards?\.", "ru": r"берёт \d+ карт[уы]?\."}[language]
    for drew in re.findall(f"{bot}(?: 2)? (?:draws|берёт)[^.]*\\.", announced):
        assert re.fullmatch(f"{bot}(?: 2)? {draws}", drew), drew  # a count, never the cards
    assert problems == []


def queen_in_hand_at_my_move() -> Game:
    """A classic round of greedy bots at seat 0's move, with a card on the pile, a Queen in
    seat 0's hand and a card there that may not be played."""
    for seed in itertools.count():
        game = Game.new(PRESETS["classic"], players=3, seed=seed)
        bots = [make_bot("greedy", seed=seat) for seat in range(3)]
        for _ in range(12):
            if game.round_over:
                break
            view = game.view(0)
            playable = {move.card.code for move in game.legal_moves() if move.kind == "play"}
            if (
                game.to_move == 0
                and view["top"]
                and not view["must_cover"]
                and any(code.startswith("Q") for code in view["hand"])
                and set(view["hand"]) - playable
            ):
                return game
            seat = game.to_move
            game.play(bots[seat].choose(game.view(seat), game.legal_moves()))
    raise AssertionError("unreachable")


def read_aloud(page: Page, region: str) -> list[tuple[str, str, bool]]:
    """What a screen reader is given in the region of the board named `region`, from the
    browser's own accessibility tree: (role, name, disabled) of each control in order.
    Chromium calls a <summary> a disclosure triangle; screen readers say "button"."""
    cdp = page.context.new_cdp_session(page)
    nodes = {node["nodeId"]: node for node in cdp.send("Accessibility.getFullAXTree")["nodes"]}
    cdp.detach()

    def name(node) -> str:
        return node.get("name", {}).get("value", "")

    def walk(node) -> list:
        found = []
        for child in node.get("childIds", []):
            child = nodes.get(child)
            if child is None:
                continue
            role = child["role"]["value"]
            if not child.get("ignored") and role in ("button", "DisclosureTriangle"):
                disabled = any(
                    prop["name"] == "disabled" and prop["value"]["value"]
                    for prop in child.get("properties", [])
                )
                found.append(("button", name(child), disabled))
            found += walk(child)
        return found

    [top] = [
        node
        for node in nodes.values()
        if node["role"]["value"] == "region" and name(node) == region
    ]
    return walk(top)


@in_both_languages
@pytest.mark.usefixtures("_bots_wait")
def test_the_board_reads_to_a_screen_reader_as_named_cards_counts_and_totals(
    page: Page, problems: list[str], log_in, alice, language, t
):
    table = play.create_table(
        by=alice, preset="classic", variant=PRESETS["classic"], seats=["me", "greedy", "greedy"]
    )
    game = queen_in_hand_at_my_move()
    PlayTable.objects.filter(pk=table.pk).update(state=game.to_json(), server_moves_at=None)
    view = game.view(0)
    log_in(alice)
    page.goto(table.get_absolute_url())

    def counted(singular: str, plural: str, count: int) -> str:
        return t(singular, plural=plural, count=count) % {"count": count}

    # Whose turn, then each player with their cards and total, then the table: the stock,
    # the top card by name, the pile and the suit a Queen ordered.
    players = "\n".join(
        f"            - listitem: {name} {counted('%(count)s card', '%(count)s cards', count)}"
        f" {t('Total')} 0{' ' + t('to move') if seat == 0 else ''}"
        for seat, (name, count) in enumerate(
            zip(names(language).values(), view["hand_counts"], strict=True)
        )
    )
    stock = counted("%(count)s card in the stock", "%(count)s cards in the stock", view["stock"])
    pile = counted("%(count)s card on the pile", "%(count)s cards on the pile", view["pile"])
    with translation.override(language):
        top = t("On top: %(card)s", card=card_name(parse_card(view["top"])))
        if view["ordered_suit"]:
            pile += ", " + t("ordered: %(ordered)s", ordered=ORDERED_SUITS[view["ordered_suit"]])
    expect(page.locator("#board")).to_match_aria_snapshot(
        f"""
        - paragraph: {t("Round %(number)s", number=1)} · {t("Your turn")}
        - list "{t("Players")}":
{players}
        - region "{t("Table")}": "{stock} {top} {pile}"
        """
    )

    # The hand: a button per card named by the card, those that may not be played disabled,
    # a Queen's button among them; then drawing a card.
    playable = {move.card.code for move in game.legal_moves() if move.kind == "play"}
    with translation.override(language):
        hand = [
            ("button", card_name(parse_card(code)), code not in playable) for code in view["hand"]
        ]
    assert read_aloud(page, t("Your hand")) == [*hand, ("button", t("Draw a card"), False)]

    # A Queen opened with the keyboard offers her suits, each named by the suit.
    queen = next(code for code in view["hand"] if code.startswith("Q"))
    page.locator(f'[data-focus="card:{queen}"]').focus()
    page.keyboard.press("Enter")
    with translation.override(language):
        suits = [
            ("button", t("Order %(symbol)s", symbol=ORDERED_SUITS[suit]), False) for suit in "SHDC"
        ]
        at = hand.index(("button", card_name(parse_card(queen)), False))
    assert read_aloud(page, t("Your hand"))[at + 1 : at + 5] == suits
    assert problems == []


@in_both_languages
@pytest.mark.usefixtures("_bots_wait")
def test_after_a_pushed_board_the_focus_stays_where_it_was_or_goes_to_the_next_action(
    page: Page, problems: list[str], alices_table, language, t
):
    table = alices_table("aaow")
    board = page.locator("#board")
    status = page.locator("#board-status")

    # alice moves: the keyboard waits on the status line, which says whose turn it is.
    alice_moves(page, table, t, language)
    expect(status).to_be_focused()

    # Each bot's move is pushed to her page: the focus stays on the status line until her
    # turn comes, then it is on her first legal move.
    for _ in range(20):
        game = game_of(table)
        if game.round_over or game.to_move == 0:
            break
        before = seen(page)
        bot_moves(table)
        expect(board).not_to_have_attribute("hx-vals", before)
        if game_of(table).to_move != 0 and not game_of(table).round_over:
            expect(status).to_be_focused()
            to_move = names(language)[game_of(table).to_move]
            expect(status).to_contain_text(t("%(name)s to move", name=to_move))
    assert not game_of(table).round_over  # nobody goes out of four cards in one move
    expect(status).to_contain_text(t("Your turn"))
    alice_moves(page, table, t, language)
    expect(status).to_be_focused()

    # She goes on with Tab, past her hand (no card may be played now), to a control of the
    # board; the bots' moves leave her there.
    page.keyboard.press("Tab")
    chosen = page.evaluate("document.activeElement.dataset.focus")
    assert chosen in ("log-earlier", "resign")
    before = seen(page)
    bot_moves(table)
    expect(board).not_to_have_attribute("hx-vals", before)
    expect(focused(page)).to_have_attribute("data-focus", chosen)  # the same, on the new board
    assert problems == []


@in_both_languages
@pytest.mark.usefixtures("_bots_wait")
def test_a_refused_move_takes_the_focus_to_why(
    page: Page, problems: list[str], alices_table, language, t
):
    table = alices_table("classic")
    expect(focused(page)).to_have_accessible_name(next_action_name(game_of(table), t, language))
    # The table moves on behind her page's back (nothing tells the page): her move is refused.
    PlayTable.objects.filter(pk=table.pk).update(version=F("version") + 1)
    press(page, "Enter")
    error = page.locator("#board-refusal .errors")
    expect(error).to_have_text(t("The table has moved on; here it is now."))
    expect(error).to_be_focused()
    # The table moves on again and the board is pushed anew: why stays, and the focus on it.
    board = page.locator("#board")
    shown = board.get_attribute("hx-get")
    PlayTable.objects.filter(pk=table.pk).update(version=F("version") + 1)
    live.announce(PlayTable, table.pk)
    expect(board).not_to_have_attribute("hx-get", shown or "")
    expect(error).to_have_text(t("The table has moved on; here it is now."))
    expect(error).to_be_focused()
    # Her next move, taken, clears it.
    name = next_action_name(game_of(table), t, language)
    board.get_by_role("button", name=name, exact=True).first.click()
    expect(page.locator("#board-status")).not_to_contain_text(t("Your turn"))
    expect(page.locator("#board-refusal .errors")).to_have_count(0)
    assert problems == []


def press(page: Page, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)


def tab_until(page: Page, found: str, limit: int = 40) -> None:
    """Tab until the focused element is `found` (a script's test of document.activeElement)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const it = document.activeElement; return {found}; }})()"):
            return
    raise AssertionError(f"{found} is not reached in {limit} Tabs")


@in_both_languages
def test_a_round_is_entered_on_a_score_sheet_with_the_keyboard_alone(
    page: Page, problems: list[str], log_in, alice, language, t
):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    log_in(alice)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto(match.get_absolute_url())
    form = page.locator("#round-form")
    with translation.override(language):
        six_of_spades, ace_of_clubs = (card_name(parse_card(code)) for code in ("6S", "AC"))
        ace = card_notation(parse_card("AC"))

    # From the top of the page to alice's outcome ("cards left", chosen already): the left
    # arrow makes it "went out", Tab goes to her card, typed.
    tab_until(page, "it.id.startsWith('id_s0-kind')")
    expect(focused(page)).to_be_checked()
    press(page, "ArrowLeft", "Tab")
    expect(form.locator("#id_s0-kind_0")).to_be_checked()
    expect(focused(page)).to_have_id("id_s0-cards")
    page.keyboard.type({"en": "Qs", "ru": "Дп"}[language])

    # Dan's cards from the grid, one stop of Tab: End goes to its last card, Space takes it.
    press(page, "Tab", "Tab", "Tab", "Tab")  # alice's grid, Dan's outcome, his field, his grid
    expect(focused(page)).to_have_accessible_name(six_of_spades)
    press(page, "End")
    expect(focused(page)).to_have_accessible_name(ace_of_clubs)
    press(page, "Space")
    expect(form.locator("#id_s1-cards")).to_have_value(ace)

    # Eve's points: the right arrow chooses "points", Tab goes to their field; then saving.
    press(page, "Tab", "ArrowRight", "Tab")
    expect(focused(page)).to_have_id("id_s2-points")
    page.keyboard.type("17")
    press(page, "Tab")
    expect(focused(page)).to_have_accessible_name(t("Save round"))
    press(page, "Enter")

    expect(page.locator("#sheet-status")).to_have_text(t("Round %(number)s saved.", number=1))
    expect(form.locator("h2")).to_have_text(t("Round %(number)s", number=2))
    expect(focused(page)).to_have_id("id_s0-kind_0")  # the next round goes on from here
    totals = page.locator("#sheet tfoot")
    for total in ("-40", "11", "17"):
        expect(totals).to_contain_text(total)

    # A round the form refuses: the keyboard, and the phone's screen, go to why.
    tab_until(page, "it.value === 'save'")
    press(page, "Enter")
    field = form.locator("#id_s0-cards")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(form.locator("#err-s0")).to_be_in_viewport()
    expect(form.locator("#preview")).to_have_text(t("Not saved: correct the marked fields."))
    assert problems == []
