"""Web push: a browser turned on and off (the panel's views), the channel sending to a fake
push service on this machine (a real push service is not reachable from the tests) with a
VAPID key made in the test and the real encryption, the manifest and the service worker."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from notify import services
from notify.channels import CHANNELS, GiveUp, TryLater
from notify.management.commands.vapid_keys import new_key_pair
from notify.models import Delivery, Kind, Notification, PushSubscription
from tests.factories import make_match, run_tasks

SUBJECT = "mailto:director@example.org"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's side of a subscription: its own key pair and secret, as a real browser
    makes them, so that the test reads what the site encrypted for it."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self) -> dict:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


class FakePushService:
    """A push service on 127.0.0.1: answers each path with the status set for it (201 unless
    told), and keeps what it was sent."""

    def __init__(self) -> None:
        self.received: list[dict] = []
        self.answers: dict[str, tuple[int, dict[str, str]]] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append({"path": self.path, "headers": self.headers, "body": body})
                status, headers = service.answers.get(self.path, (201, {}))
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def browser(self, name: str) -> Browser:
        return Browser(f"{self.url}/push/{name}")

    def answer(self, name: str, status: int, **headers: str) -> None:
        self.answers[f"/push/{name}"] = (status, headers)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def keys(settings) -> tuple[str, str]:
    """The site's VAPID key pair, made as `manage.py vapid_keys` makes it."""
    public, private = new_key_pair()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_SUBJECT = SUBJECT
    # The fake push service is plain HTTP on this machine.
    settings.PUSH_ENDPOINT_SCHEMES = ["http", "https"]
    return public, private


@pytest.fixture
def push_service(settings) -> Iterator[FakePushService]:
    service = FakePushService()
    settings.PUSH_ENDPOINT_PORTS = [service.server.server_port]  # not 443: a port of its own
    yield service
    service.stop()


def subscribed(user, browser: Browser) -> PushSubscription:
    keys = browser.subscription()["keys"]
    return PushSubscription.objects.create(
        user=user, endpoint=browser.endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
    )


def told(user, key: str = "table:12:move:40") -> Notification:
    return Notification.objects.create(user=user, kind=Kind.YOUR_MOVE, key=key)


def send(notification: Notification) -> None:
    CHANNELS["push"].send(
        notification,
        title="Ваш ход",
        text="Стол 12: ваш ход.",
        url="http://127.0.0.1:8000/play/12/",
    )


def post_json(client, name: str, body) -> object:
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(reverse(name), data, content_type="application/json")


def vapid_claims(authorization: str, public_key: str) -> dict:
    """The claims of a VAPID Authorization header ("vapid t=<JWT>, k=<key>"), after checking
    the JWT's ES256 signature with the site's public key and that `k` is that key."""
    scheme, _space, params = authorization.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    raw = unb64(signature)
    point = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    point.verify(
        encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
        f"{header}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    return json.loads(unb64(claims))


# Turning a browser on and off.


@pytest.mark.django_db
def test_a_browser_turned_on_is_kept_as_the_persons(client, alice, keys, push_service):
    browser = push_service.browser("a")
    client.force_login(alice)
    response = post_json(client, "notify:push_subscribe", browser.subscription())
    assert response.status_code == 201
    assert response.json()["text"] == "Notifications are on in this browser."
    kept = PushSubscription.objects.get()
    assert (kept.user, kept.endpoint) == (alice, browser.endpoint)
    assert kept.auth == b64(browser.auth)
    assert CHANNELS["push"].linked(alice)


@pytest.mark.django_db
def test_a_post_that_is_not_json_is_refused_with_a_reason_and_nothing_is_saved(client, alice, keys):
    client.force_login(alice)
    response = post_json(client, "notify:push_subscribe", "endpoint=https://x")
    assert response.status_code == 400
    assert response.json() == {"error": "The request is not JSON: send the browser's subscription."}
    assert not PushSubscription.objects.exists()


NOT_A_KEY = "The subscription's %s key is not a key a browser makes."


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda s: s.pop("keys"), "The subscription has no keys."),
        (lambda s: s.pop("endpoint"), "The subscription has no endpoint address."),
        (lambda s: s["keys"].update(auth="c2hvcnQ"), NOT_A_KEY % "auth"),
        (lambda s: s["keys"].update(p256dh="!!!"), NOT_A_KEY % "p256dh"),
        (
            lambda s: s.update(endpoint="javascript:alert(1)"),
            "The subscription's endpoint is not an address of a push service.",
        ),
    ],
)
def test_a_subscription_a_browser_would_not_make_is_refused_with_a_reason(
    client, alice, keys, push_service, change, error
):
    subscription = push_service.browser("a").subscription()
    change(subscription)
    client.force_login(alice)
    response = post_json(client, "notify:push_subscribe", subscription)
    assert response.status_code == 400
    assert response.json() == {"error": error}
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_a_push_service_is_reached_over_https_only(client, alice, keys, settings, push_service):
    settings.PUSH_ENDPOINT_SCHEMES = ["https"]
    client.force_login(alice)
    response = post_json(client, "notify:push_subscribe", push_service.browser("a").subscription())
    assert response.status_code == 400
    assert not PushSubscription.objects.exists()
    https = Browser("https://push.example.org/send/abc")
    response = post_json(client, "notify:push_subscribe", https.subscription())
    assert response.status_code == 201


@pytest.mark.django_db
def test_only_a_push_services_address_is_taken(client, alice, keys, settings):
    """A signed-in person cannot have the site post to a server of their choosing."""
    settings.PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", ".notify.windows.com"]
    client.force_login(alice)
    for elsewhere in ("https://10.0.0.5/send/a", "https://fcm.googleapis.com.evil.example/a"):
        response = post_json(client, "notify:push_subscribe", Browser(elsewhere).subscription())
        assert response.json() == {
            "error": "The subscription's endpoint is not an address of a push service."
        }
    for service in ("https://fcm.googleapis.com/fcm/send/a", "https://wns2.notify.windows.com/w/b"):
        response = post_json(client, "notify:push_subscribe", Browser(service).subscription())
        assert response.status_code == 201
    assert PushSubscription.objects.count() == 2


@pytest.mark.django_db
def test_an_address_two_parsers_could_read_apart_or_on_another_port_is_refused(
    client, alice, keys, settings
):
    """The allow-list read "https://127.0.0.1:8247\\@push.example/x" as push.example, the
    HTTP library as 127.0.0.1: a person could have the site post into its own network."""
    settings.PUSH_SERVICE_HOSTS = ["push.example", "fcm.googleapis.com"]
    client.force_login(alice)
    for elsewhere in (
        "https://127.0.0.1:8247\\@push.example/x",
        "https://someone@push.example/x",
        "https://push.example:8443/x",
        "https://push.example:99999/x",
        "https://fcm.googleapis.com\\.evil.example/x",
    ):
        response = post_json(client, "notify:push_subscribe", Browser(elsewhere).subscription())
        assert response.status_code == 400, elsewhere
    assert not PushSubscription.objects.exists()
    service = "https://push.example:443/x"
    response = post_json(client, "notify:push_subscribe", Browser(service).subscription())
    assert response.status_code == 201


@pytest.mark.django_db
def test_a_key_that_is_no_point_on_the_curve_is_refused(client, alice, keys):
    browser = Browser("https://push.example.org/send/abc")
    subscription = browser.subscription()
    subscription["keys"]["p256dh"] = b64(b"\x04" + bytes(64))  # 65 bytes, no point
    client.force_login(alice)
    response = post_json(client, "notify:push_subscribe", subscription)
    assert response.json() == {"error": NOT_A_KEY % "p256dh"}
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_a_refusal_is_in_russian_for_a_russian_page(client, alice, keys):
    client.force_login(alice)
    response = client.post(
        reverse("notify:push_subscribe"),
        "[]",
        content_type="application/json",
        headers={"accept-language": "ru"},
    )
    assert response.status_code == 400
    with translation.override("ru"):
        expected = translation.gettext(
            "The subscription must be a JSON object with an endpoint and keys."
        )
    assert response.json()["error"] == expected
    assert expected != "The subscription must be a JSON object with an endpoint and keys."


@pytest.mark.django_db
def test_only_a_signed_in_person_turns_push_on(client, keys, push_service):
    response = post_json(client, "notify:push_subscribe", push_service.browser("a").subscription())
    assert response.status_code == 302
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_without_vapid_keys_push_is_off_and_the_panel_says_so(client, alice, push_service):
    browser = push_service.browser("a")
    client.force_login(alice)
    response = post_json(client, "notify:push_subscribe", browser.subscription())
    assert response.status_code == 400
    assert response.json() == {"error": "Web push is not set up on this site."}
    subscribed(alice, browser)
    assert not CHANNELS["push"].linked(alice)
    assert "Notifications in the browser are not set up on this site." in panel(alice, "en")
    with pytest.raises(GiveUp):
        send(told(alice))
    assert push_service.received == []


@pytest.mark.django_db
def test_a_browser_someone_else_turned_on_is_the_new_persons(
    client, alice, bob, keys, push_service
):
    browser = push_service.browser("shared")
    subscribed(alice, browser)
    client.force_login(bob)
    assert post_json(client, "notify:push_subscribe", browser.subscription()).status_code == 201
    assert PushSubscription.objects.get().user == bob
    assert not CHANNELS["push"].linked(alice)


@pytest.mark.django_db
def test_turning_this_browser_off_leaves_the_others_and_other_peoples(
    client, alice, bob, keys, push_service
):
    phone = subscribed(alice, push_service.browser("phone"))
    subscribed(alice, push_service.browser("laptop"))
    bobs = subscribed(bob, push_service.browser("bob"))
    client.force_login(alice)
    response = post_json(client, "notify:push_unsubscribe", {"endpoint": phone.endpoint})
    assert response.status_code == 200
    assert response.json()["text"] == "Notifications are off in this browser."
    # bob's browser is not alice's to turn off, whatever endpoint she names.
    post_json(client, "notify:push_unsubscribe", {"endpoint": bobs.endpoint})
    left = PushSubscription.objects.order_by("user__username").values_list(
        "user__username", "endpoint"
    )
    assert list(left) == [("alice", f"{push_service.url}/push/laptop"), ("bob", bobs.endpoint)]


@pytest.mark.django_db
def test_turning_off_without_naming_the_browser_is_refused(client, alice, keys, push_service):
    subscribed(alice, push_service.browser("phone"))
    client.force_login(alice)
    response = post_json(client, "notify:push_unsubscribe", {})
    assert response.status_code == 400
    assert "endpoint" in response.json()["error"]
    assert PushSubscription.objects.count() == 1


@pytest.mark.django_db
def test_the_form_turns_push_off_in_every_browser_and_goes_back(
    client, alice, bob, keys, push_service
):
    subscribed(alice, push_service.browser("phone"))
    subscribed(alice, push_service.browser("laptop"))
    subscribed(bob, push_service.browser("bob"))
    client.force_login(alice)
    response = client.post(
        reverse("notify:push_unsubscribe"), {"next": "/notifications/?tab=1"}, follow=True
    )
    assert response.redirect_chain[0] == ("/notifications/?tab=1", 302)
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]
    response = client.post(
        reverse("notify:push_unsubscribe"), {"next": "https://evil.example/"}, follow=False
    )
    assert response["Location"] == "/"


@pytest.mark.django_db
def test_a_renewed_subscription_replaces_the_old_for_the_same_person(
    client, alice, keys, push_service
):
    old = subscribed(alice, push_service.browser("old"))
    new = push_service.browser("new")
    body = {"old_endpoint": old.endpoint, "subscription": new.subscription()}
    # From a service worker: no session, no CSRF token.
    client.handler.enforce_csrf_checks = True
    assert post_json(client, "notify:push_renew", body).status_code == 204
    kept = PushSubscription.objects.get()
    assert (kept.user, kept.endpoint) == (alice, new.endpoint)
    # An endpoint the site does not know gives nobody a subscription.
    body = {"old_endpoint": f"{push_service.url}/push/unknown", "subscription": new.subscription()}
    body["subscription"]["endpoint"] = f"{push_service.url}/push/other"
    assert post_json(client, "notify:push_renew", body).status_code == 404
    assert PushSubscription.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["notify:push_subscribe", "notify:push_unsubscribe", "notify:push_renew"]
)
@pytest.mark.parametrize(
    "spoil",
    [
        lambda s: "[" * 100_000 + "]" * 100_000,  # too deep for Python's parser
        lambda s: {**s, "keys": {"p256dh": [[[[[[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]]]]]}},
        lambda s: {**s, "endpoint": s["endpoint"] + "\u0000"},
        lambda s: {**s, "endpoint": s["endpoint"] + "\ud800"},
        lambda s: {**s, "endpoint": 1e400},
    ],
    ids=["deep", "nested", "nul", "surrogate", "huge"],
)
def test_a_body_the_site_cannot_keep_is_refused_by_each_push_address_and_changes_nothing(
    client, alice, keys, push_service, name, spoil
):
    """Once a RecursionError, or an error of PostgreSQL's (a NUL, half a surrogate pair): a
    500, and /push/renew/ asks for no login."""
    kept = subscribed(alice, push_service.browser("kept"))
    good = push_service.browser("new").subscription()
    body = spoil(good)
    if name == "notify:push_renew" and isinstance(body, dict):
        body = {"old_endpoint": body["endpoint"], "subscription": body}
    client.force_login(alice)
    data = body if isinstance(body, str) else json.dumps(body).replace("Infinity", "1e400")
    response = client.post(reverse(name), data, content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.json()
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [kept.endpoint]


# The channel, against the fake push service.


@pytest.mark.django_db
def test_a_browser_whose_keys_cannot_be_used_is_forgotten_and_the_others_get_their_push_once(
    alice, keys, push_service
):
    """Once its error ended the whole send: tried again, the person's other browsers got
    every try again (3 copies in 3 attempts)."""
    phone = push_service.browser("phone")
    subscribed(alice, phone)
    PushSubscription.objects.create(
        user=alice,
        endpoint=f"{push_service.url}/push/old",
        p256dh=b64(b"\x04" + bytes(64)),
        auth=b64(bytes(16)),
    )
    PushSubscription.objects.create(
        user=alice, endpoint=f"{push_service.url}/push/older", p256dh="abcde", auth=b64(bytes(16))
    )
    send(told(alice))  # sent: no TryLater
    assert [request["path"] for request in push_service.received] == ["/push/phone"]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [phone.endpoint]


@pytest.mark.django_db
def test_a_push_reaches_the_browser_encrypted_for_it_and_signed_by_the_site(
    alice, keys, push_service
):
    public, _private = keys
    browser = push_service.browser("phone")
    subscribed(alice, browser)
    send(told(alice))
    [request] = push_service.received
    assert request["path"] == "/push/phone"
    assert request["headers"]["Content-Encoding"] == "aes128gcm"
    assert int(request["headers"]["TTL"]) > 3600
    assert browser.read(request["body"]) == {
        "title": "Ваш ход",
        "body": "Стол 12: ваш ход.",
        "url": "http://127.0.0.1:8000/play/12/",
        "tag": "table:12:move:40",
    }
    claims = vapid_claims(request["headers"]["Authorization"], public)
    assert claims["aud"] == push_service.url
    assert claims["sub"] == SUBJECT


@pytest.mark.django_db
def test_a_push_goes_to_each_of_the_persons_browsers_and_no_one_elses(
    alice, bob, keys, push_service
):
    subscribed(alice, push_service.browser("phone"))
    subscribed(alice, push_service.browser("laptop"))
    subscribed(bob, push_service.browser("bob"))
    send(told(alice))
    assert sorted(request["path"] for request in push_service.received) == [
        "/push/laptop",
        "/push/phone",
    ]


@pytest.mark.django_db
def test_a_browser_its_push_service_says_is_gone_is_forgotten(alice, keys, push_service):
    subscribed(alice, push_service.browser("gone"))
    subscribed(alice, push_service.browser("phone"))
    push_service.answer("gone", 410)
    send(told(alice))
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        f"{push_service.url}/push/phone"
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("status", [404, 410])
def test_when_the_last_browser_is_gone_the_push_is_given_up(alice, keys, push_service, status):
    subscribed(alice, push_service.browser("gone"))
    push_service.answer("gone", status)
    with pytest.raises(GiveUp):
        send(told(alice))
    assert not PushSubscription.objects.exists()
    assert not CHANNELS["push"].linked(alice)


@pytest.mark.django_db
def test_a_busy_push_service_is_tried_later_when_it_says(alice, keys, push_service):
    subscribed(alice, push_service.browser("phone"))
    push_service.answer("phone", 429, **{"Retry-After": "120"})
    with pytest.raises(TryLater) as raised:
        send(told(alice))
    assert raised.value.after == 120
    assert PushSubscription.objects.count() == 1


@pytest.mark.django_db
def test_a_push_service_down_is_tried_later(alice, keys, push_service):
    subscribed(alice, push_service.browser("phone"))
    push_service.answer("phone", 503)
    with pytest.raises(TryLater) as raised:
        send(told(alice))
    assert raised.value.after is None
    assert PushSubscription.objects.count() == 1


@pytest.mark.django_db
def test_a_push_service_out_of_reach_is_tried_later(alice, keys, push_service):
    subscribed(alice, push_service.browser("phone"))
    push_service.stop()
    with pytest.raises(TryLater):
        send(told(alice))


@pytest.mark.django_db
def test_a_push_one_browser_got_is_sent_though_another_failed(alice, keys, push_service):
    # Tried again, it would reach the first browser twice: the second misses this one.
    subscribed(alice, push_service.browser("busy"))
    subscribed(alice, push_service.browser("phone"))
    push_service.answer("busy", 429)
    send(told(alice))
    assert len(push_service.received) == 2


@pytest.mark.django_db
def test_a_push_the_service_refuses_is_given_up(alice, keys, push_service):
    subscribed(alice, push_service.browser("phone"))
    push_service.answer("phone", 413)
    with pytest.raises(GiveUp, match="refused it \\(413\\)"):
        send(told(alice))
    assert PushSubscription.objects.count() == 1


@pytest.mark.django_db
def test_a_person_without_a_browser_is_not_linked(alice, keys):
    assert not CHANNELS["push"].linked(alice)
    with pytest.raises(GiveUp):
        send(told(alice))


def test_the_command_prints_a_key_pair_that_signs(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines())
    public = unb64(lines["DJANGO_VAPID_PUBLIC_KEY"])
    private = unb64(lines["DJANGO_VAPID_PRIVATE_KEY"])
    assert len(public) == 65 and public[0] == 4
    key = ec.derive_private_key(int.from_bytes(private), ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert point == public


# The panel, the manifest and the service worker.


def panel(user, language: str) -> str:
    request = RequestFactory().get("/notifications/")
    request.user = user
    with translation.override(language):
        context = CHANNELS["push"].panel_context(request)
        return render_to_string(CHANNELS["push"].panel_template, context, request=request)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_panel_offers_to_turn_push_on_in_the_persons_language(
    alice, keys, push_service, language
):
    public, _private = keys
    subscribed(alice, push_service.browser("phone"))
    html = panel(alice, language)
    with translation.override(language):
        on = translation.gettext("Turn on notifications in this browser")
        every = translation.gettext("Turn off in every browser")
    assert on in html and every in html
    if language == "ru":
        assert on == "Включить уведомления в этом браузере"
    assert f'data-key="{public}"' in html
    assert f'data-subscribe="{reverse("notify:push_subscribe")}"' in html
    assert f'"{push_service.url}/push/phone"' in html  # the endpoints it knows, as JSON


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_manifest_names_the_site_with_its_icons_in_every_language(client, language):
    response = client.get("/manifest.webmanifest", headers={"accept-language": language})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "101 · Сто одно"
    assert manifest["short_name"] == "101"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


@pytest.mark.django_db
def test_every_page_links_the_manifest(client, alice):
    """Whichever page a phone adds to its home screen (a match, a club, the sign-up page, a
    page not found), signed in or not: each names the manifest."""
    match = make_match(alice, ["alice", "Вера"])
    anyone = [
        "/",
        reverse("games:rules"),
        match.get_absolute_url(),
        reverse("tournaments:list"),
        reverse("clubs:list"),
        reverse("play:lobby"),
        reverse("stats:leaderboard"),
        "/no-such-page/",
    ]
    signed_out = [*anyone, reverse("account_login"), reverse("account_signup")]
    signed_in = [
        *anyone,
        reverse("notify:settings"),
        reverse("stats:profile", args=[alice.player.pk]),
    ]
    link = '<link rel="manifest" href="/manifest.webmanifest">'
    for pages in (signed_out, signed_in):
        if pages is signed_in:
            client.force_login(alice)
        for path in pages:
            response = client.get(path)
            assert response.status_code == (404 if path == "/no-such-page/" else 200), path
            assert link in response.text, path


@pytest.mark.django_db
def test_the_service_worker_shows_a_push_and_opens_its_page(client):
    worker = client.get(reverse("games:service_worker")).text
    assert 'addEventListener("push"' in worker
    assert "showNotification(" in worker
    assert 'addEventListener("notificationclick"' in worker
    assert "openWindow(" in worker
    assert f'const RENEW = "{reverse("notify:push_renew")}"' in worker


@pytest.mark.django_db
def test_a_notification_told_reaches_the_browser_once_through_the_sender(alice, keys, push_service):
    """notify's sender, as the worker runs it: the test message of the Notifications page goes
    to the person's browser, once."""
    browser = push_service.browser("phone")
    subscribed(alice, browser)
    services.send_test(user=alice)

    run_tasks()
    run_tasks()

    [request] = push_service.received
    assert browser.read(request["body"])["url"].startswith("http://127.0.0.1:8000/")
    assert Delivery.objects.get(channel="push").status == Delivery.Status.SENT
