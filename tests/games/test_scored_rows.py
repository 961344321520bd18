"""The sheet as last scored (Match.scored_rows) is what the entries say, after every kind of
change, so that a sheet shown from it is the sheet the entries make; and the migration that
filled it for matches already played gives the same."""

import importlib

import pytest
from django.apps import apps

from games.models import Entry, Match, Seat
from games.sheet import Sheet
from tests.factories import change, delete, make_match, play_out, record

pytestmark = pytest.mark.django_db


MIGRATION = importlib.import_module("games.migrations.0009_scored_rows")


def rows_from_entries(match: Match) -> list:
    """The sheet read the long way: every entry of every round (the migration's reading)."""
    read = MIGRATION.scored_rows(
        Seat.objects.filter(match=match), Entry.objects.filter(round__match=match)
    )
    return dict(read).get(match.pk, [])


def stored(match: Match) -> list:
    match.refresh_from_db()
    return match.scored_rows


def test_the_stored_rows_follow_every_change(alice):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    assert stored(match) == []
    record(
        match,
        alice,
        {"alice": {"out": "7C"}, "Dan": {"points": 40}, "Eve": {"points": 30}},
        {"alice": {"points": 20}, "Dan": {"out": "7C"}, "Eve": {"points": 102}},  # Eve loses
        {"alice": {"out": "8H"}, "Dan": {"points": 12}},
    )
    rows = stored(match)
    assert rows == rows_from_entries(match)
    assert [number for _pk, number, _cells in rows] == [1, 2, 3]
    assert rows[2][2][2] is None  # Eve lost in round 2: no cell in round 3

    change(match, alice, 1, {"alice": {"out": "7C"}, "Dan": {"points": 41}, "Eve": {"points": 30}})
    assert stored(match) == rows_from_entries(match)
    assert stored(match)[0][2][1][2:4] == [41, 41]  # Dan's score and total

    delete(match, alice, 1)
    rows = stored(match)
    assert rows == rows_from_entries(match)
    assert [number for _pk, number, _cells in rows] == [1, 2]


def test_a_sheet_shows_the_stored_rows_and_its_corrections(alice):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    record(match, alice, {"alice": {"out": "7C"}, "Dan": {"points": 40}, "Eve": {"points": 30}})
    assert not match.corrected
    assert Sheet(match).corrections == []
    change(match, alice, 1, {"alice": {"out": "7C"}, "Dan": {"points": 44}, "Eve": {"points": 30}})
    match.refresh_from_db()
    assert match.corrected
    sheet = Sheet(match)
    [row] = sheet.rows
    assert row.round.number == 1
    assert [cell.total for cell in row.cells] == [seat.total for seat in sheet.seats]
    assert [cell.score for cell in row.cells][1:] == [44, 30]
    assert row.correction is not None and row.correction.by == alice


def test_the_migration_fills_the_rows_of_matches_played_before_it(alice, monkeypatch):
    monkeypatch.setattr(MIGRATION, "CHUNK", 1)  # every batch of updates is used
    finished = make_match(alice, ["alice", "Dan", "Eve", "Gleb"])
    play_out(finished, alice)
    running = make_match(alice, ["alice", "Dan", "Eve"])
    record(running, alice, {"alice": {"out": "7C"}, "Dan": {"points": 4}, "Eve": {"points": 3}})
    delete(running, alice, 1)
    record(running, alice, {"alice": {"points": 9}, "Dan": {"out": "7C"}, "Eve": {"points": 3}})
    empty = make_match(alice, ["alice", "Dan"])
    expected = {m.pk: (stored(m), m.corrected) for m in (finished, running, empty)}
    Match.objects.update(scored_rows=[], corrected=False)

    MIGRATION.fill(apps, schema_editor=None)

    for match in (finished, running, empty):
        match.refresh_from_db()
        assert (match.scored_rows, match.corrected) == expected[match.pk]
    assert expected[running.pk][1] and not expected[finished.pk][1]
