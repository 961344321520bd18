"""The README stays short, and no link in it or in docs/ leads nowhere.

A relative link must name a file of the repository; one with `#anchor` into a Markdown file
must name one of its headings, slugged as GitHub slugs them. Links to the web and mail are
not followed. No database: the standard library reads the files.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
README_MAX_LINES = 150

FENCE = re.compile(r"^ {0,3}(```|~~~)")
# [text](target) or ![alt](target), with an optional "title" after the target.
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # http:, https:, mailto:, …


def documents() -> list[Path]:
    return [README, *sorted((ROOT / "docs").rglob("*.md"))]


def prose(text: str, code: bool = False) -> list[str]:
    """The lines of a Markdown text outside fenced code, inline code blanked out unless
    `code` (a heading's anchor keeps the text of its code)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced and code:
            lines.append(line)
        elif not fenced:
            lines.append(re.sub(r"`+[^`]*`+", lambda m: " " * len(m.group()), line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text lowercased, with every character but letters,
    digits (of any script), hyphens, underscores and spaces dropped, and spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor in a Markdown text; a repeated one gets -1, -2… as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose(text, code=True):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(text: str, source: Path) -> list[str]:
    """The links of `text` (a Markdown file at `source`) that lead nowhere, each with why."""
    broken = []
    for number, line in enumerate(prose(text), 1):
        for match in LINK.finditer(line):
            target = match.group(1)
            if not target or EXTERNAL.match(target):
                continue
            path_part, _, anchor = target.partition("#")
            where = f"{source.relative_to(ROOT)}:{number}: {target}"
            if not path_part:  # into the text itself
                if anchor and anchor.lower() not in anchors(text):
                    broken.append(f"{where}: no such heading")
                continue
            path = (source.parent / path_part).resolve()
            if not path.exists():
                broken.append(f"{where}: no such file")
            elif not path.is_relative_to(ROOT):
                broken.append(f"{where}: outside the repository")
            elif (
                anchor
                and path.suffix == ".md"
                and anchor.lower() not in anchors(path.read_text(encoding="utf-8"))
            ):
                broken.append(f"{where}: no such heading")
    return broken


def test_the_readme_is_at_most_150_lines():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_every_link_in_the_readme_and_docs_leads_somewhere():
    broken = [
        problem
        for document in documents()
        for problem in broken_links(document.read_text(encoding="utf-8"), document)
    ]
    assert not broken, "\n".join(broken)


def test_the_docs_have_pages_and_the_readme_links_them():
    readme = README.read_text(encoding="utf-8")
    pages = sorted((ROOT / "docs").glob("*.md"))
    assert len(pages) > 10
    for page in pages:
        assert f"](docs/{page.name}" in readme or any(
            f"]({page.name}" in other.read_text(encoding="utf-8")
            for other in pages
            if other != page
        ), f"nothing links docs/{page.name}"


def test_the_checker_finds_a_broken_link():
    source = ROOT / "docs" / "sample.md"  # not on disk: its own anchors come from the text
    sample = "\n".join(
        [
            "# Правила игры: «Сто одно»",
            "## Deploy, step 2 (`manage.py`)",
            "[ok](rules.md) [ok](#правила-игры-сто-одно) [ok](#deploy-step-2-managepy)",
            "[web](https://example.org/nowhere) [mail](mailto:someone@example.org)",
            "![image](img/score-sheet.png) [up](../README.md#two-commands)",
            "`[code](nowhere.md)`",
            "```",
            "[fenced](nowhere.md)",
            "```",
            "[gone](missing.md) [no heading](rules.md#no-such-heading) [here](#nope)",
        ]
    )
    broken = [problem.split(": ", 1)[1] for problem in broken_links(sample, source)]
    assert broken == [
        "missing.md: no such file",
        "rules.md#no-such-heading: no such heading",
        "#nope: no such heading",
    ]


def test_slugs_follow_github():
    assert slug("When PostgreSQL or Redis is away") == "when-postgresql-or-redis-is-away"
    assert slug("The game as a library: `cards101`") == "the-game-as-a-library-cards101"
    assert slug("Правила игры: «Сто одно»") == "правила-игры-сто-одно"
    assert slug("Open event streams: 10,000 on one app server process") == (
        "open-event-streams-10000-on-one-app-server-process"
    )
    assert slug("The coach's review") == "the-coachs-review"
