"""Accessible by test: axe-core over every page the every-page walk knows (tests/world.py), in
English and in Russian, as every role, at a phone's width: no violation axe rates serious or
critical, one level-one heading a page (the house's rule; axe rates it moderate), and nothing
wider than the screen. A page
that a role is served exactly as another role was, but for its own top bar, foot and tokens,
is not checked twice; each role's top bar is checked on its other pages.

axe-core is vendored for the tests alone (tests/browser/vendor/axe.min.js, pinned in
package.json; docs/testing.md says how to update it) and is never served: each browser context
of this module adds it as an init script, which the site's Content Security Policy does not
apply to."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.helpers import BROWSER_LOCALES, wider_than_the_screen
from tests.test_every_page import named_visits
from tests.world import ROLES, USERNAMES, World, build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
BLOCKING = {"serious", "critical"}
# Moderate in axe's scale, a rule of the house all the same: one <h1> a page.
HOUSE_RULES = {"page-has-heading-one"}
# Django's own admin markup, which the site does not write: the search icon of a two-box
# picker (filter_horizontal) is a span with an aria-label, a tabular inline's fields are
# named by their column heads, not by labels, and a date's "Today" shortcut is labelled in
# English on a Russian page. Staff alone see these pages.
DJANGOS_ADMIN = {"aria-prohibited-attr", "label", "label-content-name-mismatch"}
# What axe checks: WCAG 2.1 A and AA, and those of its best practices that can be serious or
# critical (the others, moderate or minor, would never be reported: not run, they cost
# nothing), and the house's rule.
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BEST_PRACTICES = [
    "accesskeys",
    "aria-dialog-name",
    "aria-text",
    "aria-treeitem-name",
    "frame-tested",
    "label-title-only",
    "tabindex",
]
# (axe's experimental rules, which a run by tags leaves out, are left out here too.)
RUN = """([tags, rules]) => axe.run(document, {
  runOnly: {
    type: "rule",
    values: axe
      .getRules(tags)
      .filter((rule) => !rule.tags.includes("experimental"))
      .map((rule) => rule.ruleId)
      .concat(rules),
  },
  resultTypes: ["violations"],
})"""


def violations(page: Page, where: str) -> list[str]:
    """Every violation on the page as it stands that the site may not have: the page, the
    rule, its impact, what axe says is wrong and where (a few of the nodes)."""
    rules = BEST_PRACTICES + sorted(HOUSE_RULES)
    found = page.evaluate(RUN, [WCAG, rules])["violations"]
    lines = []
    for violation in found:
        if violation["impact"] not in BLOCKING and violation["id"] not in HOUSE_RULES:
            continue
        if where.startswith("/admin/") and violation["id"] in DJANGOS_ADMIN:
            continue
        nodes = violation["nodes"]
        lines.append(
            f"{where}: {violation['id']} ({violation['impact']}, {len(nodes)} nodes): "
            f"{violation['help']}"
        )
        for node in nodes[:4]:
            # "Fix any of the following:", then the first of the reasons.
            why = node["failureSummary"].splitlines()[1].strip()
            lines.append(f"    {' '.join(node['target'])}: {why}")
    return lines


# What htmx loads by itself once a page is shown (on load, on reveal): sent within two frames
# of the load event, and in flight while an element has the class htmx-request. The live
# pages hold an event stream open, so the network is never idle to wait for.
SETTLE = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  if (!document.querySelector('[hx-trigger*="load"], [hx-trigger*="revealed"]')) return;
  await frame();
  await frame();
  while (document.querySelector(".htmx-request")) await frame();
}"""


def settle(page: Page) -> None:
    """axe looks once what the page loads by itself has come."""
    page.evaluate(SETTLE)


# What a page holds of its visitor alone: the top bar and the foot (the same on every page of
# theirs), the form tokens and the scripts' nonce.
OWN = [
    re.compile(r'<header class="topbar">.*?</header>', re.S),
    re.compile(r'<footer class="footer">.*?</footer>', re.S),
    re.compile(r'(name="csrfmiddlewaretoken" value="|nonce="|"X-CSRFToken": ")[^"]*'),
]


def documents(world: World, client: Client) -> list[tuple[str, str]]:
    """The walk's paths that answer this visitor with a whole HTML document, each with what the
    page holds beyond the visitor's own top bar and tokens (a digest): downloads, JSON and the
    bare answers of write-only URLs are not pages. An error page (403, 404) is checked once for
    each status."""
    found, statuses = [], set()
    for _name, path in named_visits(world):
        response = client.get(path)
        kind = response.get("Content-Type", "")
        if "text/html" not in kind or b"<html" not in response.content[:2000]:
            continue
        if response.status_code != 200:
            if response.status_code in statuses:
                continue
            statuses.add(response.status_code)
        text = response.content.decode()
        for own in OWN:
            text = own.sub("", text)
        found.append((path, hashlib.sha256(text.encode()).hexdigest()))
    return found


@pytest.fixture
def world(transactional_db) -> World:
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        return build_world()


@pytest.fixture
def checked(browser: Browser, live_server) -> Iterator:
    """Opens a browser as `role` in `language` and checks every page it is given with axe."""
    contexts: list[BrowserContext] = []
    # What was checked, by language, width and print: a page that another role saw the same
    # but for its own top bar is not checked again (its top bar is, on the role's other pages).
    checked_already: dict[tuple, set[str]] = {}

    def check(
        world: World, role: str, language: str, viewport: dict = PHONE, large: bool = False
    ) -> list[str]:
        client = Client(HTTP_ACCEPT_LANGUAGE=language, raise_request_exception=False)
        context = browser.new_context(
            base_url=live_server.url,
            locale=BROWSER_LOCALES[language],
            viewport=viewport,
        )
        contexts.append(context)
        context.set_default_timeout(5_000)
        context.add_init_script(path=AXE)
        if role != "anonymous":
            client.force_login(world.users[USERNAMES[role]])
            cookie = client.cookies[settings.SESSION_COOKIE_NAME]
            context.add_cookies(
                [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
            )
        page = context.new_page()
        if large:  # this browser's choice, kept in its session (games/large_print.py)
            page.goto(reverse("home") + "?large=1")
            assert page.locator("html.large").count() == 1
        pages = documents(world, client)
        # The walk reached the site's pages, not only its errors.
        assert {reverse("home"), reverse("games:rules")} <= {path for path, _ in pages}, pages
        seen = checked_already.setdefault((language, viewport["width"], large), set())
        found, looked = [], 0
        for path, digest in pages:
            if digest in seen:
                continue
            seen.add(digest)
            page.goto(path)
            settle(page)
            where = f"{path} ({role}, {language})"
            found += violations(page, where)
            # Nothing wider than the screen, with everything that opens opened (a Queen's
            # suits, a round's cards, the rules' variants).
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            found += [
                f"{where}: wider than the screen: {line}" for line in wider_than_the_screen(page)
            ]
            looked += 1
        assert looked, f"none of {role}'s pages (nor their top bar) was checked"
        return found

    yield check
    for context in contexts:
        context.close()


# One test a language, every role in turn: the world is built once for them all.
@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_page_has_no_serious_accessibility_violation(world, checked, language):
    found = [line for role in ROLES for line in checked(world, role, language)]
    assert not found, "\n".join(found)


# At a laptop's width the pages lay out otherwise (tables unscrolled, columns side by side):
# the roles that see the most of them, once each.
@pytest.mark.parametrize(("role", "language"), [("director", "ru"), ("player", "en")])
def test_every_page_has_no_serious_accessibility_violation_at_a_laptops_width(
    world, checked, role, language
):
    found = checked(world, role, language, LAPTOP)
    assert not found, "\n".join(found)


def test_every_page_in_large_print_has_no_serious_accessibility_violation(world, checked):
    """Large print at a phone's width, in Russian (the longer words): the player's pages."""
    found = checked(world, "player", "ru", PHONE, large=True)
    assert not found, "\n".join(found)


FAULTY = """<!doctype html><html lang="en"><head><title>Faulty</title>
<style>.faint { color: #aaa; background: #fff; }</style></head>
<body><main><h2>Not a level-one heading</h2><p class="faint">Too faint to read</p>
<button type="button"></button></main></body></html>"""


def test_the_check_finds_faint_text_an_unnamed_button_and_no_level_one_heading(page: Page):
    page.set_content(FAULTY)
    page.add_script_tag(path=AXE)
    found = violations(page, "/faulty/")
    rules = [line.split(": ")[1].split(" (")[0] for line in found if line.startswith("/faulty/")]
    assert sorted(rules) == ["button-name", "color-contrast", "page-has-heading-one"]
    assert "/faulty/: color-contrast (serious, 1 nodes)" in "\n".join(found)
    assert "    p: Element has insufficient color contrast of 2.32" in "\n".join(found)
