"""django-allauth as this site needs it (settings.ACCOUNT_ADAPTER): the usernames people choose
are kept as names are, and failed logins are counted per address and account.

Usernames: a username is a name, kept as names are (NFKC: "ａｌｉｃｅ" is "alice", and taken if
alice is) and refused, naming the character as typed, when it holds anything invisible
(core.validators.clean_name); then allauth's checks (ACCOUNT_USERNAME_VALIDATORS, taken or not).

Failed logins (settings.ACCOUNT_RATE_LIMITS; docs/rate-limits.md):

allauth counts failed logins per "key", the login typed (a username or an e-mail), and can count
them per client address too. Keyed by the login alone, five wrong passwords from anyone lock the
account for everyone, its owner too; counted per address alone, ten typos at a club's Wi-Fi
refuse everyone's right password there. Here the key is the client's address and the login
together, the way allauth's maintainer suggests (github.com/pennersr/django-allauth/issues/3584),
and nothing counts failures per address alone: a stranger guessing bob's password stops himself,
bob, at his own address, still logs in, and so does alice beside the stranger. A generous limit
per account alone ("login_failed_account") still caps guessing from many addresses.

Telegram (SOCIALACCOUNT_ADAPTER; docs/telegram.md): "Sign in with Telegram" is allauth's
Telegram provider, whose app is the site's bot (no bot: no button). Whoever it signs in is the
account of their Telegram identity, made or found by telegram.services.sign_in as the Mini
App's sign-in makes or finds it: one Telegram user, one account, however they came.

Mail (the sign-up's confirmation, a password reset): rendered in the request, in its language,
greeting with the site's name and address (settings.SITE_URL), not the host the request came
to; sent by the worker (notify.mail), so that nobody waits for the mail server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import msgspec
from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import ratelimit
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.core.internal.ratelimit import get_ip
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.models import SocialAccount, SocialApp, SocialLogin
from allauth.socialaccount.providers.base import AuthProcess
from django.conf import settings
from django.http import Http404, HttpRequest
from django.shortcuts import render
from django.utils.translation import gettext

from core.validators import clean_name
from notify import mail
from notify.links import absolute
from telegram import bot as telegram_bot
from telegram import services as telegram_services
from telegram import updates as telegram_updates

ACCOUNT_LIMIT = "login_failed_account"


@dataclass(frozen=True)
class Site:
    """What allauth's messages call `current_site`: this site's name and address."""

    name: str
    domain: str


def this_site() -> Site:
    return Site(name=gettext("Сто одно"), domain=urlsplit(settings.SITE_URL).netloc)


def on_this_site(url: str) -> str:
    parts = urlsplit(url)
    return absolute(urlunsplit(("", "", parts.path, parts.query, parts.fragment)))


class AccountAdapter(DefaultAccountAdapter):
    def format_email_subject(self, subject: str) -> str:
        return f"[{this_site().name}] {subject}"

    # The links in the mail lead to the site's address, as the notifications' do.
    def get_email_confirmation_url(self, request, emailconfirmation) -> str:
        return on_this_site(super().get_email_confirmation_url(request, emailconfirmation))

    def get_reset_password_from_key_url(self, key: str) -> str:
        return on_this_site(super().get_reset_password_from_key_url(key))

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        site = this_site()
        message = self.render_mail(
            template_prefix,
            email,
            {"request": self.request, "email": email, "current_site": site, **context},
        )
        mail.later(message)

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


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def list_apps(self, request, provider=None, client_id=None) -> list[SocialApp]:
        # The Login Widget's app is the site's bot: its id (the token's part before ":") and
        # its token, read at each request, never a row of the database.
        apps = [
            app
            for app in super().list_apps(request, provider=provider, client_id=client_id)
            if app.provider != telegram_services.PROVIDER
        ]
        if provider not in (None, telegram_services.PROVIDER) or not telegram_bot.configured():
            return apps
        token = settings.TELEGRAM_BOT_TOKEN
        bot_id = token.partition(":")[0]
        if client_id is not None and client_id != bot_id:
            return apps
        return [
            *apps,
            SocialApp(
                provider=telegram_services.PROVIDER, name="Telegram", client_id=bot_id, secret=token
            ),
        ]

    def get_app(self, request, provider, client_id=None) -> SocialApp:
        # No bot: "Sign in with Telegram" is no page at all, not a server error.
        try:
            return super().get_app(request, provider, client_id=client_id)
        except SocialApp.DoesNotExist:
            raise Http404 from None

    def pre_social_login(self, request: HttpRequest, sociallogin: SocialLogin) -> None:
        """A Telegram user signs in to their identity's account (one the Mini App made, or
        one that linked Telegram for its notifications), made now if there is none."""
        super().pre_social_login(request, sociallogin)
        if sociallogin.account.provider != telegram_services.PROVIDER:
            return
        try:
            person = msgspec.convert(
                sociallogin.account.extra_data, telegram_updates.User, strict=False
            )
        except msgspec.ValidationError:
            raise ImmediateHttpResponse(
                render(request, "telegram/app_refused.html", status=403)
            ) from None
        if (
            sociallogin.state.get("process") == AuthProcess.CONNECT
            and request.user.is_authenticated
        ):
            # Connected from the account's page: this Telegram user is the account's now.
            identity = telegram_services.note_person(person)
            if identity is None:
                raise ImmediateHttpResponse(
                    render(request, "telegram/app_refused.html", status=403)
                )
            telegram_services.claim(identity, request.user)
            user = request.user
        else:
            user = telegram_services.sign_in(person)
        account = SocialAccount.objects.get(provider=telegram_services.PROVIDER, uid=str(person.id))
        account.extra_data = sociallogin.account.extra_data
        account.save(update_fields=["extra_data"])
        sociallogin.account = account
        sociallogin.user = user
