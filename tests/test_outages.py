"""When the database is away for a moment: the pool never hands out a connection the database
has ended."""

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_pooled_connection_the_database_ended_is_never_handed_out(alice):
    connection.close()  # back to the pool, where it waits for the next request
    database = connection.settings_dict
    with psycopg.connect(
        dbname=database["NAME"],
        user=database["USER"],
        password=database["PASSWORD"],
        host=database["HOST"],
        port=database["PORT"] or 5432,
        autocommit=True,
    ) as other:
        # The database restarts, as far as this process's pool can tell: every connection it
        # holds is ended.
        ended = other.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]
    assert ended > 0
    assert User.objects.get(pk=alice.pk) == alice
