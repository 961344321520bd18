"""An existing database upgrades with nothing lost (issue 18).

`tests/data/before_split.json.gz` is a site's database as the code before the apps were split
wrote it: `manage.py demo` (a finished tournament, 135 score sheets, ratings, a claim), two
tables played on the site (seats, moves) and the admin's log of changes to a table and a claim,
dumped with `dumpdata --natural-foreign` (content types and users by name, as they are the same
on any database). The test puts the database back at the migrations of that code, loads the
rows through the models as they were then, migrates to today and finds every row, field for
field, under today's models, and the admin's log pointing at them. It runs on SQLite and on
PostgreSQL (`DATABASE_URL`), as the whole suite does.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from django.apps import apps as current_apps
from django.core import serializers
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import resolve, reverse

DUMP = Path(__file__).parent / "data" / "before_split.json.gz"

# The migrations the dump was made at (the leaf of every app then).
BEFORE = [
    ("account", "0009_emailaddress_unique_primary_email"),
    ("admin", "0003_logentry_add_action_flag_choices"),
    ("auth", "0012_alter_user_first_name_max_length"),
    ("contenttypes", "0002_remove_content_type_name"),
    ("games", "0010_round_cut"),
    ("sessions", "0001_initial"),
    ("stats", "0001_initial"),
    ("tournaments", "0004_name_key_ordering"),
]
# Apps made since: back to none of their migrations, as if they had never been installed.
SINCE = [("claims", None), ("play", None)]
# The natural keys the dump names rows by (historical models have no get_by_natural_key).
NATURAL_KEYS = {"auth.user": ["username"], "contenttypes.contenttype": ["app_label", "model"]}

# Where each model of the dump lives today ("app.model" labels); the others kept theirs.
MOVED: dict[str, str] = {
    "games.claim": "claims.claim",
    "games.playtable": "play.playtable",
    "games.playseat": "play.playseat",
    "games.playmove": "play.playmove",
}


# Fields added since, by today's label, with the value every upgraded row takes.
ADDED: dict[str, dict] = {
    # nobody had resigned from a table, nor had been seen watching one
    "play.playseat": {"left_at": None, "watched_at": None},
    # no table had a name; none was by correspondence (no clock of days, no reminder due); the
    # moves the site made for people in the round being played were not marked
    "play.playtable": {
        "name": "",
        "clock_seat": None,
        "clock_started_at": None,
        "remind_at": None,
        "site_moves": [],
    },
    "games.player": {"large_print": False},  # nobody had asked for large print
    # no match asked a second player to confirm its rounds, so none waits and none was
    "games.match": {"confirm_results": False, "unconfirmed_rounds": 0},
    "games.round": {"confirmed_by": None, "confirmed_at": None},
    # no tournament was a club's night, none asked a second player to confirm its rounds
    "tournaments.tournament": {"club": None, "confirm_results": False},
}


def today(label: str) -> str:
    return MOVED.get(label, label)


def rows() -> list[dict]:
    with gzip.open(DUMP, "rt", encoding="utf-8") as file:
        return json.load(file)


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


def load(apps, objects: list[dict]) -> None:
    """Write the dumped rows through the historical models of `apps` (dumpdata's order puts
    what a row refers to before it)."""
    for entry in objects:
        model = apps.get_model(entry["model"])
        values, many = {model._meta.pk.attname: entry["pk"]}, {}
        for name, value in entry["fields"].items():
            field = model._meta.get_field(name)
            if field.many_to_many:
                many[name] = value
            elif field.is_relation and isinstance(value, list):  # a natural key
                related = field.related_model
                names = NATURAL_KEYS[related._meta.label_lower]
                found = related._default_manager.get(**dict(zip(names, value, strict=True)))
                values[field.attname] = found.pk
            elif field.is_relation:
                values[field.attname] = value
            else:
                values[name] = field.to_python(value)
        row = model(**values)
        row.save_base(raw=True)
        for name, value in many.items():
            getattr(row, name).set(value)


def as_dumped(label: str, pks: list) -> dict:
    """Today's rows of a dumped model, written the way dumpdata wrote them, by primary key."""
    model = current_apps.get_model(today(label))
    written = serializers.serialize(
        "json", model._default_manager.filter(pk__in=pks), use_natural_foreign_keys=True
    )
    return {row["pk"]: row["fields"] for row in json.loads(written)}


def renamed(label: str, pk, fields: dict, by_model: dict[str, dict]) -> dict:
    """A dumped row's fields as today's rows read: a content type follows its model, and the
    fields added since hold what an upgraded row takes."""
    content_type = fields.get("content_type")
    if content_type:
        content_label = today(".".join(content_type))
        fields = fields | {"content_type": content_label.split(".")}
    fields = fields | ADDED.get(today(label), {})
    if today(label) == "play.playtable":
        # The moves the table kept, counted by the migration that added the count.
        moves = by_model.get("games.playmove", {}).values()
        kept = [move["number"] for move in moves if move["table"] == pk]
        fields = fields | {"moves_made": max(kept, default=0)}
    return fields


@pytest.mark.django_db(transaction=True)
def test_a_database_made_before_the_split_upgrades_with_every_row():
    dumped = rows()
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        executor = migrate(BEFORE + SINCE)
        old = executor.loader.project_state(BEFORE).apps
        # The content types such a database holds: its apps' models, and not today's apps'.
        content_types = old.get_model("contenttypes", "ContentType")
        content_types.objects.all().delete()
        for model in old.get_models():
            content_types.objects.get_or_create(
                app_label=model._meta.app_label, model=model._meta.model_name
            )
        load(old, dumped)
    finally:
        migrate(latest)

    by_model: dict[str, dict] = {}
    for entry in dumped:
        by_model.setdefault(entry["model"], {})[entry["pk"]] = entry["fields"]
    assert len(dumped) > 5000 and {"games.playmove", "games.claim"} <= set(by_model)
    for label, wanted in by_model.items():
        found = as_dumped(label, list(wanted))
        assert set(found) == set(wanted), f"{label}: rows lost"
        for pk, fields in wanted.items():
            assert found[pk] == renamed(label, pk, fields, by_model), f"{label} {pk}"

    # The admin's log leads to the rows it names, under today's models.
    log = current_apps.get_model("admin", "LogEntry")
    for entry in log.objects.all():
        assert entry.get_edited_object().pk == int(entry.object_id)


# The addresses of what moved, as the code before the split served them: links people keep
# (an invitation to a table, a claim) still lead where they did.
PATHS_BEFORE = {
    ("play:lobby", ()): "/play/",
    ("play:new", ()): "/play/new/",
    ("play:invite", ("abc123",)): "/play/join/abc123/",
    ("play:table", (7,)): "/play/7/",
    ("play:join", (7,)): "/play/7/join/",
    ("play:move", (7,)): "/play/7/move/",
    ("play:next", (7,)): "/play/7/next/",
    ("play:back", (7,)): "/play/7/back/",
    ("play:rematch", (7,)): "/play/7/rematch/",
    ("play:replay", (7, 2)): "/play/7/rounds/2/",
    ("claims:claims", ()): "/claims/",
    ("claims:claim_ask", (5,)): "/claims/ask/5/",
    ("claims:claim_link", (5,)): "/claims/link/5/",
    ("claims:claim_decide", (5,)): "/claims/5/decide/",
    ("claims:claim_withdraw", (5,)): "/claims/5/withdraw/",
    ("claims:privacy", ()): "/privacy/",
}


@pytest.mark.parametrize(("view", "path"), PATHS_BEFORE.items(), ids=lambda item: str(item))
def test_the_urls_keep_their_paths(view, path):
    name, args = view
    assert reverse(name, args=args) == path
    assert resolve(path).view_name == name
