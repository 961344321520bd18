"""Accounts through django-allauth: sign up, log in, password reset, each with its player."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from games.models import Player

pytestmark = pytest.mark.django_db


def test_signing_up_creates_the_account_and_its_player(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "zoe",
            "email": "",
            "password1": "a-long-pass-101",
            "password2": "a-long-pass-101",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="zoe")
    assert Player.objects.get(user=user).name == "zoe"
    # Signed in straight away: the new match page opens.
    assert client.get(reverse("games:new_match")).status_code == 200


def test_logging_in_with_a_wrong_password_says_so(client, alice):
    response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})
    assert response.status_code == 200
    assert (
        "The username and/or password you specified are not correct." in response.content.decode()
    )


def test_a_password_reset_sends_an_email(client, alice, settings):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "alice@example.com" in mail.outbox[0].to


def test_logging_out_is_a_post(client, alice):
    client.force_login(alice)
    client.post(reverse("account_logout"))
    assert client.get(reverse("games:new_match")).status_code == 302


def test_account_pages_use_the_site_layout(client):
    page = client.get(reverse("account_login")).content.decode()
    assert 'class="topbar"' in page
    assert "Log In" in page or "Sign In" in page
