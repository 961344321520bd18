"""A fake Telegram Bot API for the tests: a small HTTP server on 127.0.0.1 (the site reaches it
at DJANGO_TELEGRAM_API_URL) that answers /bot<token>/<method> as the Bot API does, records
every call, and gives what a test put in `answers[method]` first, once each. Telegram itself
is not reachable from here."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

TOKEN = "123456:TEST-token"
BOT = "sto_odno_test_bot"
SECRET = "webhook-secret-42"


class FakeBotApi(ThreadingHTTPServer):
    def __init__(self, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), FakeHandler)
        self.calls: list[tuple[str, dict]] = []
        self.answers: dict[str, list[tuple[int, object]]] = {}
        self.updates: list[dict] = []
        # What each chat shows: its messages by id, as sent and edited since.
        self.messages: dict[int, dict[int, dict]] = {}
        self.lock = threading.Lock()

    def shown(self, chat_id: int) -> list[dict]:
        """The chat's messages as they read now (text and buttons), oldest first."""
        return list(self.messages.get(chat_id, {}).values())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def sent(self) -> list[dict]:
        return [params for method, params in self.calls if method == "sendMessage"]

    def called(self, method: str) -> list[dict]:
        return [params for name, params in self.calls if name == method]

    def answer(self, method: str, params: dict) -> tuple[int, object]:
        if self.answers.get(method):
            return self.answers[method].pop(0)
        if method == "getUpdates":
            offset = int(params.get("offset", 0))
            return 200, {
                "ok": True,
                "result": [u for u in self.updates if u["update_id"] >= offset],
            }
        if method == "sendMessage":
            chat = {"id": int(params["chat_id"]), "type": "private"}
            with self.lock:
                message = {"message_id": len(self.calls), "date": 0, "chat": chat, "text": "…"}
                self.messages.setdefault(chat["id"], {})[message["message_id"]] = {
                    "text": params["text"],
                    "buttons": (params.get("reply_markup") or {}).get("inline_keyboard", []),
                }
            return 200, {"ok": True, "result": message}
        if method == "editMessageText":
            with self.lock:
                chat = self.messages.get(int(params["chat_id"]), {})
                kept = chat.get(int(params["message_id"]))
                if kept is None:
                    return 400, refused("Bad Request: message to edit not found")
                buttons = (params.get("reply_markup") or {}).get("inline_keyboard", [])
                if kept == {"text": params["text"], "buttons": buttons}:
                    return 400, refused(
                        "Bad Request: message is not modified: specified new message content "
                        "and reply markup are exactly the same as a current content and reply "
                        "markup of the message"
                    )
                kept.update(text=params["text"], buttons=buttons)
            return 200, {"ok": True, "result": True}
        return 200, {"ok": True, "result": True}


def refused(description: str, code: int = 400) -> dict:
    """The Bot API's answer refusing a call."""
    return {"ok": False, "error_code": code, "description": description}


class FakeHandler(BaseHTTPRequestHandler):
    server: FakeBotApi

    def do_GET(self) -> None:
        self.reply()

    def do_POST(self) -> None:
        self.reply()

    def reply(self) -> None:
        parts = urlsplit(self.path)
        token, method = parts.path.removeprefix("/bot").split("/", 1)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode()
        # As the Bot API reads them: a JSON body or a form (what the query string holds is
        # not read, so that a client sending its parameters there fails here too).
        if self.headers.get("Content-Type", "").startswith("application/json"):
            params = json.loads(body or "{}")
        else:  # a form's nested values are JSON, as the Bot API takes them
            params = {
                name: json.loads(value) if value[:1] in "[{" else value
                for name, value in parse_qsl(body)
            }
        if token != TOKEN:
            status, answer = 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        else:
            self.server.calls.append((method, params))
            status, answer = self.server.answer(method, params)
        data = answer.encode() if isinstance(answer, str) else json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


def init_data(
    person: dict | None,
    *,
    auth_date: int | None,
    start_param: str = "",
    token: str = TOKEN,
    **fields: str,
) -> str:
    """A Mini App's initData as Telegram gives it to a page, signed here with `token` the way
    Telegram documents (computed apart from telegram.webapp, so that a mistake there shows)."""
    import hashlib
    import hmac
    from urllib.parse import urlencode

    values = {"query_id": "AAHdF6IQAAAAAN0XohDhrOrc"}
    if person is not None:
        values["user"] = json.dumps(person, ensure_ascii=False, separators=(",", ":"))
    if auth_date is not None:
        values["auth_date"] = str(auth_date)
    if start_param:
        values["start_param"] = start_param
    values |= fields
    check = "\n".join(f"{key}={values[key]}" for key in sorted(values))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    values["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(values)


def login_widget_result(person: dict, *, auth_date: int, token: str = TOKEN) -> str:
    """What Telegram's Login Widget hands back (tgAuthResult): the person's fields and their
    hash under SHA-256 of the token, as JSON in base64."""
    import base64
    import hashlib
    import hmac

    values = {**person, "auth_date": auth_date}
    check = "\n".join(f"{key}={values[key]}" for key in sorted(values))
    digest = hmac.new(hashlib.sha256(token.encode()).digest(), check.encode(), hashlib.sha256)
    values["hash"] = digest.hexdigest()
    return base64.b64encode(json.dumps(values).encode()).decode()


class PaceClock:
    """The pace's clock: its waits move it instead of taking real seconds."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@contextlib.contextmanager
def serving(settings, monkeypatch) -> Iterator[FakeBotApi]:
    """The fake, and the site's bot set up to talk to it (its pace on a clock of its own)."""
    from telegram import pace

    server = FakeBotApi()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.TELEGRAM_API_URL = server.url
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_BOT_USERNAME = BOT
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    clock = PaceClock()
    monkeypatch.setattr(pace, "PACE", pace.Pace(clock=clock.time, sleep=clock.sleep))
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def update(
    chat_id: int,
    text: str,
    *,
    language: str = "en",
    number: int = 1,
    chat_type: str = "private",
    sender: int | None = None,
) -> dict:
    """A text message's update, from `sender` (the chat's person when it is private)."""
    person = {
        "id": sender or chat_id,
        "is_bot": False,
        "first_name": "A",
        "language_code": language,
    }
    chat = {"id": chat_id, "type": chat_type}
    chat |= {"first_name": "A"} if chat_type == "private" else {"title": "The club"}
    message = {"message_id": number, "date": 0, "chat": chat, "from": person, "text": text}
    return {"update_id": number, "message": message}


def member_update(number: int, chat: dict, status: str, *, sender: int = 5550001) -> dict:
    """The bot's own place in `chat` changed to `status` (added, "left", "kicked")."""
    person = {"id": sender, "is_bot": False, "first_name": "A"}
    me = {"id": 42, "is_bot": True, "first_name": "101"}
    return {
        "update_id": number,
        "my_chat_member": {
            "chat": chat,
            "from": person,
            "date": 0,
            "old_chat_member": {"user": me, "status": "member"},
            "new_chat_member": {"user": me, "status": status},
        },
    }


def tap(
    number: int,
    chat_id: int,
    data: str,
    *,
    sender: int,
    first_name: str = "A",
    language: str = "ru",
    message_id: int = 1,
) -> dict:
    """A tap on a button of the bot's message `message_id` in the chat."""
    person = {"id": sender, "is_bot": False, "first_name": first_name, "language_code": language}
    chat = {"id": chat_id, "type": "group", "title": "The club"}
    message = {"message_id": message_id, "date": 0, "chat": chat, "text": "…"}
    query = {"id": f"tap-{number}", "from": person, "message": message, "data": data}
    return {"update_id": number, "callback_query": query}
