"""Tournament fixtures: alice directs, bob co-directs, carol plays, dave only watches."""

import pytest

from tests.factories import counts_tables_of
from tests.tournaments.factories import (
    make_tournament,
)


@pytest.fixture
def carol(carol, alice):
    """carol plays at alice's club: she confirmed the first table alice named her at, so
    alice's tournaments count for her at once."""
    counts_tables_of(carol, alice)
    return carol


@pytest.fixture
def dave(django_user_model):
    return django_user_model.objects.create_user("dave", "dave@example.com", "dave-password")


@pytest.fixture
def tournament(alice):
    return make_tournament(alice)
