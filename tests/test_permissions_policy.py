"""Every page says which powerful browser features it may use (Permissions-Policy): none of
those the site has no use for, so that an injected script or frame cannot ask for them."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

DENIED = ["camera", "microphone", "geolocation", "payment", "usb", "screen-wake-lock"]


def features(response) -> dict[str, str]:
    """The header's features and their allow-lists: {"camera": "()", ...}."""
    header = response.headers["Permissions-Policy"]
    return dict(item.strip().split("=", 1) for item in header.split(","))


@pytest.mark.parametrize("feature", DENIED)
def test_a_page_denies_the_powerful_features(client, feature):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert features(response)[feature] == "()"


def test_a_page_that_is_not_found_denies_them_too(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    policy = features(response)
    assert all(policy[feature] == "()" for feature in DENIED)
    # Nothing is allowed but the one feature the site uses: writing the clipboard (the button
    # that copies a table's invitation link), from its own pages.
    assert {feature: allowed for feature, allowed in policy.items() if allowed != "()"} == {
        "clipboard-write": "(self)"
    }


def test_a_signed_in_score_sheet_denies_them(client, alice, match):
    client.force_login(alice)
    response = client.get(reverse("games:match", args=[match.pk]))
    assert response.status_code == 200
    assert all(features(response)[feature] == "()" for feature in DENIED)


# Features Chromium does not know on a desktop: each one named in the header is an error in the
# console of every page ("Unrecognized feature"), which hides the errors that matter.
UNKNOWN_TO_CHROMIUM = ["bluetooth", "web-share"]


@pytest.mark.parametrize("feature", UNKNOWN_TO_CHROMIUM)
def test_the_policy_names_no_feature_the_browser_does_not_know(client, feature):
    response = client.get(reverse("home"))
    assert feature not in features(response)
