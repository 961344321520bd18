"""django-allauth as this site needs it (settings.ACCOUNT_ADAPTER): the usernames people choose
are kept as names are, and failed logins are counted per address and account.

Usernames: a username is a name, kept as names are (NFKC: "ａｌｉｃｅ" is "alice", and taken if
alice is) and refused, naming the character as typed, when it holds anything invisible
(core.validators.clean_name); then allauth's checks (ACCOUNT_USERNAME_VALIDATORS, taken or not).

Failed logins (settings.ACCOUNT_RATE_LIMITS; README, "Rate limits"):

allauth counts failed logins per "key", the login typed (a username or an e-mail), and can count
them per client address too. Keyed by the login alone, five wrong passwords from anyone lock the
account for everyone, its owner too; counted per address alone, ten typos at a club's Wi-Fi
refuse everyone's right password there. Here the key is the client's address and the login
together, the way allauth's maintainer suggests (github.com/pennersr/django-allauth/issues/3584),
and nothing counts failures per address alone: a stranger guessing bob's password stops himself,
bob, at his own address, still logs in, and so does alice beside the stranger. A generous limit
per account alone ("login_failed_account") still caps guessing from many addresses."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import ratelimit
from allauth.core.internal.ratelimit import get_ip
from django.http import HttpRequest

from core.validators import clean_name

ACCOUNT_LIMIT = "login_failed_account"


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        return super().clean_username(clean_name(username), shallow=shallow)

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # The key of allauth's "login_failed" limit, and of its clearing after a password
        # reset. get_ip is the address allauth's per-address limit counts (an IPv6 address
        # cut to its /64 network, so that one client cannot hop between its own addresses).
        return f"{get_ip(request)}|{self._account_key(request, **credentials)}"

    def _account_key(self, request: HttpRequest, **credentials: Any) -> str:
        """allauth's own key: the site and the login as typed. A username and an e-mail of one
        account count apart, as in allauth."""
        return super()._get_login_attempts_cache_key(request, **credentials)

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        # Only looked at here; a failure counts in authentication_failed, so that attempts
        # refused by the limits before the password is checked never add to it.
        account = self._account_key(request, **credentials)
        if not ratelimit.consume(request, action=ACCOUNT_LIMIT, key=account, dry_run=True):
            raise self.validation_error("too_many_login_attempts")
        super().pre_authenticate(request, **credentials)

    def authentication_failed(self, request: HttpRequest, **credentials: Any) -> None:
        super().authentication_failed(request, **credentials)
        account = self._account_key(request, **credentials)
        ratelimit.consume(request, action=ACCOUNT_LIMIT, key=account)
