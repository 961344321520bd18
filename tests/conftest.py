"""The cast of the tests: alice creates matches, bob keeps score, carol only watches."""

import pytest
from django.core.cache import cache

from games import services
from games.rules import PRESETS


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache():
    # Pages cache rendered sheets; a test must not see another test's match.
    cache.clear()


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", "alice@example.com", "alice-password")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", "bob@example.com", "bob-password")


@pytest.fixture
def carol(django_user_model):
    return django_user_model.objects.create_user("carol", "carol@example.com", "carol-password")


def make_match(creator, names, preset="classic", **options):
    """A match seated with these players: account usernames or guest names."""
    variant = PRESETS[preset].replace(**options)
    return services.start_match(created_by=creator, names=names, preset=preset, variant=variant)


@pytest.fixture
def match(alice):
    """A classic match of alice and two guests, created by alice."""
    return make_match(alice, ["alice", "Dan", "Eve"])


def rules_form_data(preset: str = "classic") -> dict[str, str]:
    """The rules fields of a form as a browser posts them: the preset's values, ticked boxes."""
    data = {"preset": preset}
    for name, value in PRESETS[preset].as_dict().items():
        if value is True:
            data[name] = "on"
        elif value is not False:
            data[name] = str(value)
    return data
