"""Every page of the site, found by walking the URL conf, in English and in Russian, as each
role, in the states people meet (tests/world.py): no server error, the page in the language
asked for, no English sentence left in a Russian page, and no number meant for the browser
(an SVG coordinate, a form's number, JSON, CSV) written the language's way.

A new URL is visited without anyone remembering to add it; one that takes arguments fails
here until `states` below says which objects to visit it with."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation

from notify.tokens import unsubscribe_token
from tests.world import ROLES, USERNAMES, World, build_world

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "ru")
CATALOGUE = Path(__file__).resolve().parent.parent / "locale" / "ru" / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once for the module, in a transaction rolled back after it."""
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with django_db_blocker.unblock(), transaction.atomic(), fast:
        yield build_world()
        transaction.set_rollback(True)


def url_patterns() -> Iterator[tuple[str, str, list[str]]]:
    """(route, name with namespaces, argument names) of every named URL of the site."""

    def walk(patterns, route: str, namespace: str | None):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace
                if namespace and inner:
                    inner = f"{namespace}:{inner}"
                yield from walk(
                    pattern.url_patterns, route + str(pattern.pattern), inner or namespace
                )
            elif isinstance(pattern, URLPattern) and pattern.name:
                name = f"{namespace}:{pattern.name}" if namespace else pattern.name
                arguments = list(pattern.pattern.regex.groupindex)
                yield route + str(pattern.pattern), name, arguments

    yield from walk(get_resolver().url_patterns, "", None)


def states(world: World) -> dict[str, list[dict]]:
    """The arguments each URL that takes some is visited with: one set per state."""
    t, m, tables = world.tournaments, world.matches, world.tables
    running_round = m["running"].rounds.order_by("number").first()
    running_table = t["running"].rounds.get(number=1).tables.order_by("number").first()
    # The running night's table 2: a round of carol's waits for confirmation (tests/world.py).
    waiting_table = t["running"].rounds.get(number=1).tables.get(number=2)
    waiting = {"pk": waiting_table.match_id, "round_id": waiting_table.match.rounds.get().pk}
    tournament_matches = [
        {"pk": table.match_id}
        for tournament in t.values()
        for round_ in tournament.rounds.all()
        for table in round_.tables.all()[:1]
    ]
    every_match = [{"pk": match.pk} for match in m.values()] + tournament_matches
    every_match.append({"pk": waiting_table.match_id})
    every_table = [{"pk": table.pk} for table in tables.values()]
    every_tournament = [{"pk": tournament.pk} for tournament in t.values()]
    rounds = [
        {"pk": tournament.pk, "number": round_.number}
        for tournament in t.values()
        for round_ in tournament.rounds.all()
    ]
    carol, alice = world.people["carol"].pk, world.people["alice"].pk
    profiles = [{"pk": carol}, {"pk": world.guest.pk}, {"pk": world.people["bob"].pk}]
    entrant = t["before"].entrants.order_by("pk").first()
    return {
        "play:invite": [{"invite": tables["waiting"].invite}, {"invite": "no-such-link"}],
        "play:table": every_table,
        "play:chances": every_table,
        "play:join": [{"pk": tables["waiting"].pk}],
        "play:move": [{"pk": tables["your_move"].pk}],
        "play:next": [{"pk": tables["round_over"].pk}],
        "play:back": [{"pk": tables["your_move"].pk}],
        "play:rematch": [{"pk": tables["match_over"].pk}],
        "play:leave": [{"pk": tables["your_move"].pk}, {"pk": tables["waiting"].pk}],
        "play:fast_forward": [{"pk": tables["out_of_round"].pk}],
        "play:replay": [
            {"pk": tables["round_over"].pk, "number": 1},
            {"pk": tables["match_over"].pk, "number": 1},
        ],
        # Before a round's end, a round waiting for the coach, a match reviewed.
        "play:round_end": every_table,
        "coach:table_review": every_table,
        "coach:round_end": every_table,
        "games:match": every_match,
        "games:match_live": every_match,
        "games:round_new": [{"pk": m["running"].pk}],
        "games:round_send": [{"pk": m["running"].pk}],
        "games:round_edit": [{"pk": m["running"].pk, "round_id": running_round.pk}],
        "games:round_delete": [{"pk": m["running"].pk, "round_id": running_round.pk}],
        "games:round_confirm": [waiting],
        "games:history": every_match,
        "games:rematch": [{"pk": m["finished"].pk}],
        "games:rated": [{"pk": m["finished"].pk}],
        "games:scorekeepers": [{"pk": m["running"].pk}],
        "games:match_delete": every_match,
        "games:leave": [{"pk": m["running"].pk}],
        "claims:claim_ask": [{"guest": world.guest.pk}],
        "claims:claim_link": [{"guest": world.guest.pk}],
        "claims:claim_decide": [{"pk": world.claim.pk}],
        "claims:claim_withdraw": [{"pk": world.claim.pk}],
        "tournaments:detail": every_tournament,
        "tournaments:edit": every_tournament,
        "tournaments:directors": every_tournament,
        "tournaments:players": every_tournament,
        "tournaments:check_in_everyone": [{"pk": t["before"].pk}],
        "tournaments:entrant": [{"pk": t["before"].pk, "entrant_pk": entrant.pk}],
        "tournaments:register": [{"pk": t["before"].pk}],
        "tournaments:unregister": [{"pk": t["before"].pk}],
        "tournaments:projector": every_tournament,
        "tournaments:standings_csv": every_tournament,
        "tournaments:results_csv": every_tournament,
        "tournaments:reopen": [{"pk": t["finished"].pk}],
        "tournaments:finish": [{"pk": t["running"].pk}],
        "tournaments:seat": [{"pk": t["before"].pk}],
        "tournaments:round": rounds,
        "tournaments:cards": rounds,
        "tournaments:reseat": [{"pk": t["running"].pk, "number": 1}],
        "tournaments:swap": [{"pk": t["running"].pk, "number": 1}],
        "tournaments:close_round": [{"pk": t["running"].pk, "number": 1}],
        "tournaments:clock": [{"pk": t["running"].pk, "number": 1}],
        "tournaments:close_table": [
            {"pk": t["running"].pk, "number": 1, "table": running_table.number}
        ],
        # --- clubs (clubs.views) ---
        **_club_states(world),
        # --- seasons (clubs.season_views) ---
        **_season_states(world),
        # Posts only, with the secret of settings.TELEGRAM_WEBHOOK_SECRET (none in the tests).
        "telegram:webhook": [{"secret": "no-such-secret"}],
        # --- practice (coach.views): carol's positions to solve, solved and shown; a bot's
        # move at her table (not practised: not found) ---
        **_practice_states(world),
        "stats:player_csv": profiles,
        "stats:player_json": profiles,
        "stats:profile": profiles,
        "stats:head_to_head": [{"pk": carol, "other": alice}],
        # --- notifications (notify.views): carol's own link, and one we did not sign ---
        "notify:unsubscribe": [
            {"token": unsubscribe_token(world.people["carol"].pk, ["your_move"])},
            {"token": "no-such-token"},
        ],
        "account_confirm_email": [{"key": "no-such-key"}],
        "account_reset_password_from_key": [{"uidb36": "2", "key": "no-such-key"}],
        **_admin_states(),
    }


def _club_states(world: World) -> dict[str, list[dict]]:
    """A club's page, members, invitation and nights."""
    club = {"slug": world.club.slug}
    member = world.club.members.order_by("pk").last()
    night = world.tournaments["before"]
    return {
        "clubs:detail": [club, {"slug": "no-such-club"}],
        "clubs:edit": [club],
        "clubs:members": [club],
        "clubs:member": [{**club, "member_pk": member.pk}],
        "clubs:new_invitation": [club],
        "clubs:invitation_qr": [club],
        "chats:club_code": [club],
        "chats:club_unlink": [club],
        "clubs:join": [{**club, "code": world.club.invite_code}, {**club, "code": "no-such-code"}],
        "clubs:ask": [club],
        "clubs:request": [{**club, "request_pk": world.join_request.pk}],
        "clubs:night_new": [club],
        "clubs:roll_call": [{**club, "pk": night.pk}],
    }


def _season_states(world: World) -> dict[str, list[dict]]:
    """Every season of the club, with its table, files and pages."""
    club = {"slug": world.club.slug}
    seasons = [{**club, "season_id": season.pk} for season in world.seasons.values()]
    # A season asked for at another club's address: not found.
    elsewhere = {"slug": "no-such-club", "season_id": world.seasons["running"].pk}
    return {
        "clubs:seasons": [club],
        "clubs:season_new": [club],
        "clubs:season": [*seasons, elsewhere],
        "clubs:season_edit": seasons,
        "clubs:season_close": seasons,
        "clubs:season_json": [*seasons, elsewhere],
        "clubs:season_csv": seasons,
        "clubs:season_print": seasons,
        "clubs:season_embed": seasons,
        "clubs:last_night_json": [club],
        "clubs:last_night_csv": [club],
    }


def _practice_states(world: World) -> dict[str, list[dict]]:
    positions = [{"pk": decision.pk} for decision in world.practice.values()]
    review = world.practice["to_solve"].review
    bots = review.decisions.exclude(by="").order_by("pk").first()
    return {
        "coach:practice_position": [*positions, {"pk": bots.pk}],
        "coach:practice_answer": positions[:1],
    }


def _admin_states() -> dict[str, list[dict]]:
    """The admin's pages for one object of every model it shows."""
    found: dict[str, list[dict]] = {"admin:app_list": []}
    for route, name, arguments in url_patterns():
        if not name.startswith("admin:"):
            continue
        if name == "admin:app_list":
            found[name] = [
                {"app_label": label}
                for label in re.findall(r"\w+", route.split("(")[1])
                if label not in ("P", "app_label")
            ]
        elif name == "admin:view_on_site":
            match = apps.get_model("games", "Match").objects.first()
            kind = ContentType.objects.get_for_model(match)
            found[name] = [{"content_type_id": kind.pk, "object_id": match.pk}]
        elif arguments:
            app_label, model_name = route.removeprefix("admin/").split("/")[:2]
            instance = apps.get_model(app_label, model_name).objects.order_by("pk").first()
            # A model with no row (groups) is visited with a key that is not there.
            found[name] = [dict.fromkeys(arguments, instance.pk if instance else 1)]
    return found


# Event streams never end (a browser holds them open): tests/core/test_live.py reads them.
STREAMS = {"play:events", "games:match_events", "tournaments:events"}


def named_visits(world: World) -> list[tuple[str, str]]:
    """(URL name, path) of every visit of the walk: each URL once per state it is visited in."""
    known = states(world)
    found, unknown = [], []
    for _route, name, arguments in url_patterns():
        if name in STREAMS:
            continue
        if not arguments:
            found.append((name, reverse(name)))
        elif name in known:
            found += [(name, reverse(name, kwargs=kwargs)) for kwargs in known[name]]
        else:
            unknown.append(name)
    assert unknown == [], "URLs the walk cannot visit: say in states() which objects to use"
    return found


def visits(world: World) -> list[str]:
    return [path for _name, path in named_visits(world)]


NUMBER = r"-?\d+(?:\.\d+)?"


class Page(HTMLParser):
    """What a reader sees of a page (its text and labelling attributes), and the numbers it
    gives the browser."""

    READABLE = {"title", "aria-label", "placeholder", "alt"}
    NUMERIC = {
        "x",
        "y",
        "x1",
        "x2",
        "y1",
        "y2",
        "cx",
        "cy",
        "r",
        "rx",
        "ry",
        "width",
        "height",
        "viewbox",
        "points",
        "min",
        "max",
        "step",
        "offset",
    }  # fmt: skip (path data and transforms may separate numbers by commas: none drawn here)
    # The values of these inputs are for the browser: it shows them the reader's way.
    TYPED = {
        "number": NUMBER,
        "date": r"\d{4}-\d{2}-\d{2}",
        "time": r"\d{2}:\d{2}(?::\d{2})?",
        "datetime-local": r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?",
    }

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.numbers: list[tuple[str, str, str, str | None]] = []
        self.json: list[str] = []
        self.lang: str | None = None
        self._skip = 0
        self._json = False

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "html":
            self.lang = values.get("lang")
        if tag in ("script", "style"):
            self._skip += 1
            self._json = tag == "script" and values.get("type") == "application/json"
        for name, value in attrs:
            if value is None:
                continue
            if name in self.READABLE:
                self.text.append(value)
            typed = name == "value" and tag == "input" and values.get("type") in self.TYPED
            if name in self.NUMERIC or typed or name.startswith("data-"):
                self.numbers.append((tag, name, value, values.get("type") if typed else None))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if self._json:
            self.json.append(data)
            self._json = False
        elif not self._skip:
            self.text.append(data)


def localized(tag: str, name: str, value: str, kind: str | None = None) -> bool:
    """Whether a number or date for the browser was written the language's way (28,0 or
    25.11.2026 where the browser reads only 28.0 and 2026-11-25)."""
    if kind is not None:
        return value != "" and not re.fullmatch(Page.TYPED[kind], value)
    if name == "points":  # "x,y x,y ...": a comma only between the two numbers of a point
        return not all(re.fullmatch(f"{NUMBER},{NUMBER}", point) for point in value.split())
    return re.search(r"\d,\d", value) is not None


def english_sentences() -> list[str]:
    """Pieces of three words or more of the English messages the catalogue translates: none
    of them belongs on a Russian page."""
    pieces = set()
    for entry in polib.pofile(str(CATALOGUE)).translated_entries():
        for english in filter(None, (entry.msgid, entry.msgid_plural)):
            for piece in re.split(r"%\(\w+\)[sd]|%[sd]|\{\{.*?\}\}|<[^>]+>|[.:;!?()\"“”]", english):
                piece = " ".join(piece.split())
                if len(re.findall(r"\b[A-Za-z]{2,}\b", piece)) >= 3 and piece.isascii():
                    pieces.add(piece)
    return sorted(pieces, key=len, reverse=True)


@pytest.fixture(scope="module")
def english() -> list[str]:
    return english_sentences()


def problems_of(path: str, response, language: str, english: list[str]) -> list[str]:
    found = []
    if response.status_code >= 500:
        error = response.exc_info[1] if response.exc_info else ""
        return [f"{path}: {response.status_code} {error!r}"]
    if response.status_code != 200:
        return []
    kind = response.get("Content-Type", "")
    body = response.content.decode()
    if "json" in kind:
        json.loads(body)
    elif "csv" in kind:
        for row in csv.reader(
            io.StringIO(body.lstrip("\ufeff")),
            delimiter=";" if ";" in body.splitlines()[0] else ",",
        ):
            found += [
                f"{path}: a number written {cell!r}"
                for cell in row
                if re.fullmatch(r"-?\d+,\d+", cell)
            ]
    elif "html" in kind:
        page = Page()
        page.feed(body)
        if "<html" in body and page.lang != language:
            found.append(f"{path}: <html lang={page.lang!r}>, not {language!r}")
        found += [
            f"{path}: a number written {number}" for number in page.numbers if localized(*number)
        ]
        for data in page.json:
            json.loads(data)
        # Breadcrumbs lead somewhere: none ends with a separator («Стол 1 ›»).
        for crumbs in re.findall(r'class="crumbs"[^>]*>(.*?)</(?:p|nav)>', body, re.S):
            said = " ".join(re.sub(r"<[^>]+>", " ", crumbs).split())
            if said.endswith(("›", "·")):
                found.append(f"{path}: breadcrumbs end with a separator: {said!r}")
        if language == "ru":
            text = " ".join(" ".join(page.text).split())
            found += [f"{path}: English left: {piece!r}" for piece in english if piece in text]
    return found


@pytest.fixture
def counts(monkeypatch) -> list[str]:
    """Every number a page counts with (a blocktranslate count, an ngettext) that is not an
    int: English's plural rule takes anything, Russian's n % 10 only a number."""
    found: list[str] = []

    def checked(function, number_at):
        def count(*arguments, **named):
            number = named.get("number", arguments[number_at] if len(arguments) > number_at else 0)
            if type(number) is not int:
                found.append(f"{function.__name__} counted with {type(number).__name__}")
            return function(*arguments, **named)

        return count

    monkeypatch.setattr(translation, "ngettext", checked(translation.ngettext, 2))
    monkeypatch.setattr(translation, "npgettext", checked(translation.npgettext, 3))
    return found


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_answers_in_the_language_asked_for(world, english, counts, role, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language, raise_request_exception=False)
    if role != "anonymous":
        client.force_login(world.users[USERNAMES[role]])
    found = []
    for path in visits(world):
        found += problems_of(path, client.get(path), language, english)
        # A page's htmx fragment too (a live refresh, a swapped form).
        found += problems_of(path, client.get(path, HTTP_HX_REQUEST="true"), language, english)
    assert found == [], "\n".join(found)
    assert sorted(set(counts)) == []


def test_the_walk_knows_the_states_people_meet(world):
    """The world the walk visits holds what the issue lists, so that a page's hard case is met."""
    from cards101.engine import Game

    assert Game.from_json(world.tables["turned_up_queen"].state).opening_queen
    assert Game.from_json(world.tables["round_over"].state).round_over
    assert world.tables["match_over"].status == "finished"
    assert world.tables["timed"].move_seconds
    assert 0 in Game.from_json(world.tables["out_of_round"].state).view(0)["went_out"]
    assert world.tables["resigned"].seats.get(position=0).has_left
    assert [t.status for t in world.tournaments.values()] == ["registration", "running", "finished"]
    assert world.tournaments["before"].rounds.count() == 0
    assert world.matches["finished"].is_finished and not world.matches["running"].is_finished


def test_an_english_sentence_or_a_localized_coordinate_on_a_russian_page_is_found(english):
    """The walk's own checks find what they are there to find."""

    class Response:
        status_code = 200
        exc_info = None
        content = (
            b'<html lang="ru"><p>Register for this tournament</p>'
            b'<svg><circle cx="28,0" cy="12.5"/><polyline points="1.5,2 3,4.25"/></svg>'
            b'<input type="date" value="25.11.2026">'
            b'<p class="crumbs"><a href="/play/">Play</a> \xe2\x80\xba</p></html>'
        )

        def get(self, header, default=""):
            return "text/html; charset=utf-8"

    assert problems_of("/page/", Response(), "ru", english) == [
        "/page/: a number written ('circle', 'cx', '28,0', None)",
        "/page/: a number written ('input', 'value', '25.11.2026', 'date')",
        "/page/: breadcrumbs end with a separator: 'Play ›'",
        "/page/: English left: 'Register for this tournament'",
    ]


def numbers_in(table: bytes) -> list[list[bytes]]:
    """The numbers and dates of each row after the header, as written."""
    return [re.findall(rb"-?\d+(?:[.,:/-]\d+)*", row) for row in table.splitlines()[1:]]


def test_every_download_is_the_same_data_in_russian_as_in_english(world):
    """CSV and JSON are read by programs and spreadsheets: no number or date in them follows
    the reader's language (a comma in "1,5" would even split a CSV cell in two). A CSV is
    also read by people: its header and words (yes, no) may be in the reader's language, its
    numbers and dates may not."""
    client = Client(raise_request_exception=False)
    client.force_login(world.users["alice"])
    downloads = 0
    for path in visits(world):
        english = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
        kind = english.get("Content-Type", "")
        if english.status_code != 200 or not ("csv" in kind or "json" in kind):
            continue
        russian = client.get(path, HTTP_ACCEPT_LANGUAGE="ru").content
        if "csv" in kind:
            english, russian = numbers_in(english.content), numbers_in(russian)
        else:
            english = english.content
        assert russian == english, path
        downloads += bool(english)
    assert downloads >= 8  # with data in them
