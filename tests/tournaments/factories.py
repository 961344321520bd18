"""What tournament tests import: a tournament made, entered, imported, seated."""

from cards101.rules import PRESETS
from tests.factories import play_out
from tournaments import services
from tournaments.standings import DEFAULT_POINTS


def make_tournament(creator, **changes):
    settings = {
        "name": "Club night",
        "date": "2026-11-22",
        "place": "Club",
        "preset": "classic",
        "rounds_planned": 2,
        "table_size": 4,
        "match_end": "played_out",
        "points_by_place": {str(k): [float(p) for p in v] for k, v in DEFAULT_POINTS.items()},
        "tie_breaks": ["penalty_total", "deals_won"],
    } | changes
    return services.create_tournament(created_by=creator, variant=PRESETS["classic"], **settings)


def enter(tournament, names, by, checked_in=True):
    added = services.add_entrants(tournament=tournament, names=names, by=by, checked_in=checked_in)
    return added.entrants


def seated(round_):
    return [
        [seat.player.name for seat in table.match.seats.order_by("position")]
        for table in round_.tables.order_by("number")
    ]


def second_round_of_eight(alice, tournament):
    """Round 1 of eight players (two tables of four) played and closed; round 2 seated."""
    enter(tournament, [f"P{i}" for i in range(8)], alice)
    first = services.seat_next_round(tournament=tournament, by=alice)
    for table in first.tables.all():
        play_out(table.match, alice)
    services.close_round(round_=first, by=alice)
    return first, services.seat_next_round(tournament=tournament, by=alice)


def read_file(client, tournament, content: bytes, filename: str = "players.csv"):
    """The director chooses a CSV file of players: the page that shows what was read."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    upload = SimpleUploadedFile(filename, content)
    return client.post(
        reverse("tournaments:players", args=[tournament.pk]),
        {"form": "import", "import-file": upload},
    )


def confirm_import(client, tournament, preview):
    """The director confirms the list the preview shows, as its form posts it."""
    import html
    import re

    from django.urls import reverse

    page = preview.content.decode()
    fields = dict(re.findall(r'<input type="hidden" name="(text|separator)" value="([^"]*)"', page))
    data = {"form": "import_confirm"} | {
        name: html.unescape(value) for name, value in fields.items()
    }
    url = reverse("tournaments:players", args=[tournament.pk])
    return client.post(url, data, follow=True)


def import_file(client, tournament, content: bytes):
    """Choose the file and confirm what was read (the page saying what is wrong, if the file
    cannot be read)."""
    preview = read_file(client, tournament, content)
    if 'name="form" value="import_confirm"' not in preview.content.decode():
        return preview
    return confirm_import(client, tournament, preview)
