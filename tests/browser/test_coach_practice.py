"""Practice from your own mistakes in the browser: on a phone, in Russian, a person whose
rounds were reviewed opens practice, tries a wrong move (told how much worse it is), then the
best (solved), with the keyboard alone; and the English page once, with the best move shown
before it is found."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from cards101.analysis import practice
from coach import queries
from coach.models import Practice
from tests.browser.helpers import in_russian
from tests.coach.mistakes import mistakes_of, worst_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
FOCUSED = "(element) => element === document.activeElement"


def control_of(page: Page, move: dict) -> list[Locator]:
    """What a person presses for `move`, in order: a card; a Queen, then the suit she
    orders; or the draw or pass button."""
    if move["kind"] != "play":
        return [page.locator(f"#practice button[name=kind][value={move['kind']}]")]
    card = move["card"]
    if not move.get("suit"):
        return [page.locator(f"#practice button[name=card][value='{card}']")]
    turned_up = page.locator(f"#practice form.turned-up:has(input[name=card][value='{card}'])")
    order = f"button[name=suit][value={move['suit']}]"
    if turned_up.count():
        return [turned_up.locator(order)]
    queen = page.locator(f"#practice details.queen-pick:has(input[name=card][value='{card}'])")
    return [queen.locator("summary"), queen.locator(order)]


def by_keyboard(page: Page, target: Locator, tabs: int = 40) -> None:
    """Tab until `target` has the focus, then Enter."""
    for _ in range(tabs):
        if target.evaluate(FOCUSED):
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {target}")


def play_by_keyboard(page: Page, move: dict) -> None:
    for control in control_of(page, move):
        by_keyboard(page, control)


@in_russian
def test_on_a_phone_a_wrong_move_then_the_best_by_keyboard(
    page: Page, problems: list[str], alice, log_in, t
):
    mistakes_of(alice, count=1, rounds=2)
    decision = queries.practised(alice).first()  # the costliest: the list's first
    wrong = worst_move(decision)
    assert not practice.solves(decision, wrong)
    extra = round(practice.extra_loss(decision, wrong))
    log_in(alice)
    page.set_viewport_size(PHONE)

    page.goto(reverse("coach:practice"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Работа над ошибками")
    by_keyboard(page, page.get_by_role("link", name=t("Practise the next position")))
    expect(page).to_have_url(reverse("coach:practice_position", args=[decision.pk]))

    play_by_keyboard(page, wrong)
    answer = page.locator(".practice-answer")
    expect(answer).to_contain_text(
        t(
            "This costs about %(count)s point more than the best move.",
            plural="This costs about %(count)s points more than the best move.",
            count=extra,
        )
        % {"count": extra}
    )
    expect(answer).to_contain_text("Попробуйте ещё раз.")
    # htmx moves the focus to [autofocus] as the swap settles, a moment after the text is in.
    expect(answer, "the keyboard is on the answer").to_be_focused()

    play_by_keyboard(page, decision.best)
    expect(answer).to_contain_text("Лучший ход!")
    expect(answer).to_contain_text("В игре вы сыграли:")
    expect(answer).to_be_focused()
    expect(page.get_by_role("link", name="Посмотреть ход в записи раунда")).to_be_visible()
    # The phone shows the page without scrolling sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    done = Practice.objects.get(user=alice, decision=decision)
    assert done.tries == 2 and done.solved_at is not None
    assert problems == []


def test_in_english_the_best_move_is_shown_then_played(
    page: Page, problems: list[str], alice, log_in
):
    decision = mistakes_of(alice, count=1, rounds=2)[0]
    log_in(alice)
    page.goto(reverse("coach:practice_position", args=[decision.pk]))
    expect(page.get_by_text("Your turn. What is best here?")).to_be_visible()
    page.get_by_role("button", name="Show the best move").click()
    shown = page.locator(".practice-shown")
    expect(shown).to_contain_text("The best move here:")
    expect(shown).to_be_focused()
    for control in control_of(page, decision.best):
        control.click()
    expect(page.locator(".practice-answer")).to_contain_text("Best move!")
    page.goto(reverse("coach:practice"))
    row = page.locator(".practice-row").filter(
        has=page.locator(f"a[href='{reverse('coach:practice_position', args=[decision.pk])}']")
    )
    expect(row.locator(".practice-state")).to_have_text("solved after seeing the best move")
    assert problems == []
