"""The site as a Telegram Mini App (docs/telegram.md): opening it signs the person in by its
initData, checked on the server (a changed, stale, replayed or foreign string signs nobody
in); the same Telegram user is always the same account, whether they came by the Mini App, by
"Sign in with Telegram" on the site, or linked Telegram from their account first. The initData
here is signed with the tests' token (tests/fake_telegram.py), never by Telegram."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from telegram import tasks
from telegram.models import Identity, UsedInitData
from tests.factories import run_tasks
from tests.fake_telegram import (
    BOT,
    SECRET,
    TOKEN,
    init_data,
    login_widget_result,
    serving,
    update,
)

pytestmark = pytest.mark.django_db

ANNA_ID = 7001
ANNA = {
    "id": ANNA_ID,
    "first_name": "Анна",
    "last_name": "К",
    "username": "anna_k",
    "language_code": "ru",
}
BORIS = {"id": 7002, "first_name": "Boris", "language_code": "en"}


@pytest.fixture
def api(settings, monkeypatch):
    with serving(settings, monkeypatch) as server:
        yield server


def opened(person: dict = ANNA, **kwargs) -> str:
    return init_data(person, auth_date=kwargs.pop("auth_date", int(time.time()) - 5), **kwargs)


def sign_in(client, raw: str):
    return client.post(reverse("telegram:app_login"), {"init_data": raw})


def signed_in_as(client):
    response = client.get(reverse("home"))
    return response.wsgi_request.user


# --- the page the Mini App opens ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"), [("en", "open it from the bot"), ("ru", "откройте")]
)
def test_the_mini_apps_page_opens_in_both_languages_with_telegrams_script_from_this_site(
    api, client, language, words
):
    response = client.get(reverse("telegram:app"), headers={"Accept-Language": language})
    assert response.status_code == 200
    page = response.content.decode()
    assert words in page
    assert "/static/vendor/telegram-web-app/telegram-web-app.js" in page
    assert "/static/js/miniapp.js" in page
    assert "telegram.org/js" not in page


def test_telegram_web_may_frame_every_page_and_no_other_site_and_no_inline_code_runs(api, client):
    for url in (reverse("telegram:app"), reverse("home")):
        response = client.get(url)
        policy = response.headers["Content-Security-Policy"]
        assert "frame-ancestors https://web.telegram.org;" in policy
        assert "form-action 'self';" in policy
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
        assert "X-Frame-Options" not in response.headers


def test_outside_the_mini_app_pages_load_no_telegram_script(api, client, alice):
    client.force_login(alice)
    assert "telegram-web-app.js" not in client.get(reverse("home")).content.decode()


# --- signing in ---------------------------------------------------------------------------------


def test_a_signed_init_data_signs_the_person_in_and_opens_its_start_page_in_their_language(
    api, client
):
    response = sign_in(client, opened(start_param="t12"))
    assert response.status_code in (302, 303)
    assert response.headers["Location"] == reverse("play:table", args=[12]) == "/play/12/"
    assert response.cookies["django_language"].value == "ru"
    user = signed_in_as(client)
    assert user.is_authenticated
    assert (user.username, user.first_name, user.last_name) == ("anna_k", "Анна", "К")
    assert not user.has_usable_password() and user.email == ""
    assert Identity.objects.get(telegram_id=ANNA_ID).user == user
    assert SocialAccount.objects.get(provider="telegram", uid=str(ANNA_ID)).user == user
    # Every page follows Telegram's theme and back button from now on.
    assert "telegram-web-app.js" in client.get(reverse("home")).content.decode()


@pytest.mark.parametrize(
    ("start_param", "page"),
    [
        ("", "/"),
        ("home", "/"),
        ("nothing", "/"),
        ("t0", "/"),
        ("t12x", "/"),
        ("m", "/"),
        ("m5", "/matches/5/"),
        ("t" + "9" * 30, "/"),
    ],
)
def test_the_start_parameter_names_a_page_of_this_site_or_the_home_page(
    api, client, start_param, page
):
    response = sign_in(client, opened(start_param=start_param))
    assert response.headers["Location"] == page


def test_the_mini_apps_links_name_the_bot_the_app_and_the_start_parameter(api, settings):
    from telegram import start

    settings.TELEGRAM_APP_NAME = ""
    assert start.link("t12") == ""
    settings.TELEGRAM_APP_NAME = "play"
    assert start.link() == f"https://t.me/{BOT}/play"
    assert start.link("t12") == f"https://t.me/{BOT}/play?startapp=t12"
    with pytest.raises(ValueError):
        start.link("t 12")


def test_an_english_telegram_opens_the_site_in_english(api, client):
    response = sign_in(client, opened(BORIS))
    assert response.cookies["django_language"].value == "en"
    assert signed_in_as(client).username == "tg7002"


def test_the_same_telegram_user_is_always_the_same_account(api, client):
    first = sign_in(client, opened())
    assert first.status_code == 302
    user = signed_in_as(client)
    client.logout()
    sign_in(
        client,
        opened(
            ANNA | {"username": "anna_new", "first_name": "Аня"}, auth_date=int(time.time()) - 1
        ),
    )
    assert signed_in_as(client) == user
    assert get_user_model().objects.count() == 1
    assert Identity.objects.get(telegram_id=ANNA_ID).first_name == "Аня"


def test_a_taken_username_gives_the_new_account_another(api, client, django_user_model):
    django_user_model.objects.create_user("Anna_K")
    sign_in(client, opened())
    assert signed_in_as(client).username == f"tg{ANNA_ID}"


def test_someone_who_linked_telegram_for_notifications_lands_in_their_account(api, client, alice):
    client.force_login(alice)
    location = client.post(reverse("notify:telegram_link")).headers["Location"]
    token = location.split("?start=", 1)[1]
    body = update(ANNA_ID, f"/start {token}")
    client.post(
        reverse("telegram:webhook", kwargs={"secret": SECRET}),
        data=json.dumps(body),
        content_type="application/json",
        headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
    )
    run_tasks()
    assert Identity.objects.get(telegram_id=ANNA_ID).user == alice
    client.logout()
    assert sign_in(client, opened()).status_code == 302
    assert signed_in_as(client) == alice
    assert get_user_model().objects.count() == 1


# --- refused ------------------------------------------------------------------------------------


def refused(client, response) -> None:
    assert response.status_code == 403
    assert not signed_in_as(client).is_authenticated
    assert not get_user_model().objects.exists()


def test_a_changed_init_data_signs_nobody_in(api, client):
    raw = opened().replace("anna_k", "boris")
    response = sign_in(client, raw)
    assert "could not be checked" in response.content.decode()
    refused(client, response)


def test_an_init_data_of_another_bot_signs_nobody_in(api, client):
    refused(client, sign_in(client, opened(token="654321:OTHER-token")))


def test_an_init_data_over_a_day_old_signs_nobody_in(api, client):
    refused(client, sign_in(client, opened(auth_date=int(time.time()) - 86400 - 60)))


def test_an_init_data_is_used_once(api, client):
    raw = opened()
    assert sign_in(client, raw).status_code == 302
    user = signed_in_as(client)
    client.logout()
    again = sign_in(client, raw)
    assert again.status_code == 403
    assert not signed_in_as(client).is_authenticated
    assert get_user_model().objects.get() == user


def test_a_deactivated_account_is_not_signed_in(api, client):
    sign_in(client, opened())
    user = signed_in_as(client)
    client.logout()
    user.is_active = False
    user.save()
    response = sign_in(client, opened(auth_date=int(time.time()) - 1))
    assert response.status_code == 403
    assert not signed_in_as(client).is_authenticated


def test_without_a_bot_nothing_signs_in(api, client, settings):
    settings.TELEGRAM_BOT_TOKEN = ""
    refused(client, sign_in(client, opened()))


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"init_data": ""},
        {"init_data": "garbage"},
        {"init_data": "a=%ZZ"},
        {"init_data": "x" * 100_000},
    ],
)
def test_a_missing_or_garbage_init_data_is_refused_in_the_persons_language(api, client, body):
    response = client.post(reverse("telegram:app_login"), body, headers={"Accept-Language": "ru"})
    assert "Не удалось проверить" in response.content.decode()
    refused(client, response)


def test_the_sign_in_needs_no_csrf_token(api, settings):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    assert sign_in(client, opened()).status_code == 302


def test_used_init_data_is_forgotten_once_it_would_be_too_old_anyway(api, client):
    sign_in(client, opened())
    UsedInitData.objects.create(
        signature="old", expires_at=timezone.now() - timezone.timedelta(seconds=1)
    )
    tasks.forget_old.call()
    assert list(UsedInitData.objects.values_list("signature", flat=True)) != ["old"]
    assert UsedInitData.objects.count() == 1


# --- "Sign in with Telegram" on the site (allauth's provider, Telegram's Login Widget) ---------


def widget_sign_in(
    client,
    person: dict,
    *,
    auth_date: int | None = None,
    token: str = TOKEN,
    process: str = "login",
):
    """The login page's button, Telegram's page (its answer signed here), and allauth's
    callback, followed as a browser follows them."""
    if process == "login":
        page = client.get(reverse("account_login"))
        assert "Sign in with Telegram" in page.content.decode()
    start = client.post(reverse("telegram_login") + f"?process={process}")
    telegrams = urlsplit(start.headers["Location"])
    assert telegrams.netloc == "oauth.telegram.org"
    query = parse_qs(telegrams.query)
    assert query["bot_id"] == [TOKEN.split(":")[0]]
    state = parse_qs(urlsplit(query["return_to"][0]).query)["state"][0]
    result = login_widget_result(person, auth_date=auth_date or int(time.time()), token=token)
    return client.post(reverse("telegram_callback") + f"?state={state}", {"tgAuthResult": result})


WIDGET_ANNA = {"id": ANNA_ID, "first_name": "Анна", "username": "anna_k"}


def test_the_widgets_page_alone_lets_its_form_lead_to_telegrams_login_page(api, client):
    # Its form is answered by a redirect to Telegram's login page.
    policy = client.get(reverse("telegram_login")).headers["Content-Security-Policy"]
    assert "form-action 'self' https://oauth.telegram.org;" in policy
    assert "'unsafe-inline'" not in policy


def test_the_login_page_has_no_telegram_button_without_a_bot(client, settings):
    settings.TELEGRAM_BOT_TOKEN = ""
    assert "Sign in with Telegram" not in client.get(reverse("account_login")).content.decode()


def test_the_widget_signs_in_the_account_the_mini_app_made(api, client):
    sign_in(client, opened())
    user = signed_in_as(client)
    client.logout()
    response = widget_sign_in(client, WIDGET_ANNA)
    assert response.status_code == 302
    assert signed_in_as(client) == user
    assert get_user_model().objects.count() == 1


def test_the_mini_app_signs_in_the_account_the_widget_made(api, client):
    widget_sign_in(client, WIDGET_ANNA)
    user = signed_in_as(client)
    assert user.is_authenticated and user.username == "anna_k"
    client.logout()
    sign_in(client, opened())
    assert signed_in_as(client) == user
    assert Identity.objects.get(telegram_id=ANNA_ID).user == user


def test_the_widget_signs_in_the_account_that_linked_telegram(api, client, alice):
    from telegram import services

    identity = Identity.objects.create(telegram_id=ANNA_ID, first_name="Анна")
    services.claim(identity, alice)
    widget_sign_in(client, WIDGET_ANNA)
    assert signed_in_as(client) == alice


def test_a_widget_answer_signed_with_another_token_signs_nobody_in(api, client):
    response = widget_sign_in(client, WIDGET_ANNA, token="654321:OTHER-token")
    assert response.status_code != 302
    assert not signed_in_as(client).is_authenticated
    assert not get_user_model().objects.exists()


def test_telegram_connected_from_an_account_makes_that_telegram_user_the_accounts(
    api, client, alice
):
    client.force_login(alice)
    widget_sign_in(client, WIDGET_ANNA, process="connect")
    assert Identity.objects.get(telegram_id=ANNA_ID).user == alice
    assert SocialAccount.objects.get(provider="telegram", uid=str(ANNA_ID)).user == alice
    client.logout()
    sign_in(client, opened())
    assert signed_in_as(client) == alice
