"""Accounts through django-allauth: sign up, log in, password reset, each with its player."""

import smtplib

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import OperationalError
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.models import Player
from tests.factories import run_tasks

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
    # Written in the request, sent by the worker.
    assert mail.outbox == []
    run_tasks()
    assert len(mail.outbox) == 1
    assert "alice@example.com" in mail.outbox[0].to


def sign_up(client, username: str, email: str, language: str = "ru"):
    return client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": email,
            "password1": "a-long-pass-101",
            "password2": "a-long-pass-101",
        },
        headers={"Accept-Language": language},
    )


def test_the_sign_up_mail_leaves_from_the_worker_greeting_with_the_sites_name(client, settings):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    settings.SITE_URL = "https://101.example"
    response = sign_up(client, "zoe", "zoe@example.com")
    assert response.status_code == 302
    # The request did not wait for the mail server: nothing has left yet.
    assert mail.outbox == []
    run_tasks()
    [message] = mail.outbox
    assert message.to == ["zoe@example.com"]
    body = message.body
    # The site's name and address, not the host the request came to ("testserver").
    assert "Вас приветствует Сто одно!" in body
    assert "101.example" in body
    assert "testserver" not in message.subject + body
    # In the language the person signed up in.
    assert message.subject == "[Сто одно] Пожалуйста, подтвердите Ваш адрес электронной почты"
    # Sent once: another pass of the worker sends nothing more.
    run_tasks()
    assert len(mail.outbox) == 1


def test_the_sign_up_mail_waits_out_a_mail_server_outage(client, settings, monkeypatch):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    sign_up(client, "zoe", "zoe@example.com", language="en")
    from django.core.mail.backends.locmem import EmailBackend

    real_send = EmailBackend.send_messages

    def down(self, messages):
        raise smtplib.SMTPServerDisconnected("the mail server went away")

    monkeypatch.setattr(EmailBackend, "send_messages", down)
    run_tasks()
    assert mail.outbox == []
    # Tried again later, not given up.
    [retry] = DBTaskResult.objects.filter(status="READY", task_path="notify.mail.send_mail")
    assert retry.run_after > timezone.now()
    monkeypatch.setattr(EmailBackend, "send_messages", real_send)
    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())
    run_tasks()
    [message] = mail.outbox
    assert message.to == ["zoe@example.com"]
    assert "Hello from" in message.body


def test_logging_out_is_a_post(client, alice):
    client.force_login(alice)
    client.post(reverse("account_logout"))
    assert client.get(reverse("games:new_match")).status_code == 302


def test_account_pages_use_the_site_layout(client):
    page = client.get(reverse("account_login")).content.decode()
    assert 'class="topbar"' in page
    assert "Log In" in page or "Sign In" in page


def test_the_db_worker_outlives_a_database_outage(client, settings, monkeypatch):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    sign_up(client, "zoe", "zoe@example.com", language="en")
    from config.management.commands import db_worker

    monkeypatch.setattr(db_worker.time, "sleep", lambda seconds: None)
    ready = DBTaskResult.objects.ready
    failures = iter([OperationalError("the database restarts")])

    def flaky():
        for failure in failures:
            raise failure
        return ready()

    monkeypatch.setattr(DBTaskResult.objects, "ready", flaky)
    run_tasks()
    # The worker waited, looked again, and sent the mail.
    [message] = mail.outbox
    assert message.to == ["zoe@example.com"]
