"""The Bot API client: one bot (its token, the API's address, a timeout), its methods as calls
over HTTPS (https://core.telegram.org/bots/api#making-requests). Each `Bot` holds its own
address, so a test's fake API and Telegram's never share a module global; `from_settings()` is
the site's bot (DJANGO_TELEGRAM_*).

What Telegram asks to retry (429 with its retry_after, its own 5xx, the network, an answer that
is not the API's) is `Unavailable`; an answer refusing the call is `Refused`, for the caller to
judge by its code (400, 403...); a group that became a supergroup is `Refused` with
`migrate_to`, the chat's new id."""

from __future__ import annotations

import threading
from typing import Any

import requests
from django.conf import settings


class Unavailable(Exception):
    """Telegram could not take the call now: try again, `after` seconds on if it said so."""

    def __init__(self, reason: str, *, after: float | None = None) -> None:
        super().__init__(reason)
        self.after = after


class Refused(Exception):
    """Telegram refused the call: trying it again would be refused again."""

    def __init__(self, code: int, description: str, *, migrate_to: int | None = None) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.migrate_to = migrate_to

    @property
    def chat_gone(self) -> bool:
        """The bot can no longer write to the chat: blocked by the person, removed from the
        group, or the chat deleted."""
        return self.code == 403 or "chat not found" in self.description.lower()

    @property
    def unchanged(self) -> bool:
        """An edit to the words the message says already."""
        return "message is not modified" in self.description.lower()

    @property
    def message_gone(self) -> bool:
        """An edit of a message that is not there (deleted, or in a group that moved)."""
        return "message to edit not found" in self.description.lower()


def configured() -> bool:
    """The site has a bot: its token and its username (for deep links) are set."""
    return bool(settings.TELEGRAM_BOT_TOKEN and settings.TELEGRAM_BOT_USERNAME)


# One HTTP session (its connections kept alive) per thread: requests' sessions are not
# thread-safe.
_local = threading.local()


def _session() -> requests.Session:
    if not hasattr(_local, "session"):
        _local.session = requests.Session()
    return _local.session


class Bot:
    def __init__(self, *, token: str, base_url: str, timeout: float, username: str = "") -> None:
        self.token = token
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.username = username

    def call(self, method: str, *, wait: float = 0, **params: Any) -> Any:
        """Bot API `method` with `params` (a JSON body, as the Bot API accepts; those that are
        None left out), its result. `wait`: seconds Telegram may hold the answer back (a long
        poll), on top of the timeout."""
        body = {name: value for name, value in params.items() if value is not None}
        try:
            response = _session().post(
                f"{self.base_url}/bot{self.token}/{method}",
                json=body,
                timeout=(self.timeout, self.timeout + wait),
            )
        except requests.RequestException as error:
            raise Unavailable(f"Telegram unreachable: {type(error).__name__}") from error
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or "ok" not in answer:
            # Not the Bot API's JSON: a proxy's error page, Telegram down.
            raise Unavailable(f"Telegram answered HTTP {response.status_code}")
        if answer["ok"] is True:
            return answer.get("result")
        code = answer.get("error_code")
        code = code if isinstance(code, int) else response.status_code
        description = str(answer.get("description") or "")
        parameters = answer.get("parameters")
        parameters = parameters if isinstance(parameters, dict) else {}
        if code == 429:
            after = parameters.get("retry_after")
            raise Unavailable(
                f"Telegram: {description}", after=after if isinstance(after, int) else None
            )
        # 5xx: Telegram's trouble; 401/404: the bot's token refused, until it is set right.
        if code >= 500 or code in (401, 404):
            raise Unavailable(f"Telegram: {code} {description}")
        migrate_to = parameters.get("migrate_to_chat_id")
        raise Refused(
            code, description, migrate_to=migrate_to if isinstance(migrate_to, int) else None
        )

    # --- the methods the site uses -----------------------------------------------------------

    def send_message(self, chat_id: int, html: str, *, buttons: list | None = None) -> dict:
        """An HTML message, links shown without previews; `buttons`: rows of inline buttons."""
        return self.call(
            "sendMessage",
            chat_id=chat_id,
            text=html,
            parse_mode="HTML",
            link_preview_options={"is_disabled": True},
            reply_markup={"inline_keyboard": buttons} if buttons else None,
        )

    def edit_message_text(
        self, chat_id: int, message_id: int, html: str, *, buttons: list | None = None
    ) -> dict | bool:
        """Message `message_id` in the chat now says `html` (with `buttons`, or none)."""
        return self.call(
            "editMessageText",
            chat_id=chat_id,
            message_id=message_id,
            text=html,
            parse_mode="HTML",
            link_preview_options={"is_disabled": True},
            reply_markup={"inline_keyboard": buttons or []},
        )

    def answer_callback_query(self, query_id: str, text: str = "") -> None:
        self.call("answerCallbackQuery", callback_query_id=query_id, text=text or None)

    def answer_inline_query(self, query_id: str, results: list[dict]) -> None:
        self.call("answerInlineQuery", inline_query_id=query_id, results=results, cache_time=0)

    def get_updates(self, offset: int | None, *, wait: int, allowed: tuple[str, ...]) -> list:
        return (
            self.call(
                "getUpdates", offset=offset, timeout=wait, allowed_updates=list(allowed), wait=wait
            )
            or []
        )

    def set_webhook(self, url: str, *, secret: str, allowed: tuple[str, ...]) -> None:
        self.call("setWebhook", url=url, secret_token=secret, allowed_updates=list(allowed))

    def delete_webhook(self) -> None:
        self.call("deleteWebhook")


def from_settings() -> Bot:
    """The site's bot, as the settings are now."""
    return Bot(
        token=settings.TELEGRAM_BOT_TOKEN,
        base_url=settings.TELEGRAM_API_URL,
        timeout=settings.TELEGRAM_TIMEOUT,
        username=settings.TELEGRAM_BOT_USERNAME,
    )
