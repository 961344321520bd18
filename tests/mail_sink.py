"""A local SMTP server's handler (aiosmtpd) that keeps what it receives (tests/notify/conftest.py
points the site's mail at it; tests/isolation.py starts one where a hanging server was)."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket


class Sink:
    """Keeps each message received (and its bytes, in `raw`); refuses the addresses in
    `refused`, asks those in `greylisted` to try later (451), and takes `slow` seconds to
    answer a message it has kept (a server that queued it and then stopped answering)."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.raw: list[bytes] = []
        self.refused: set[str] = set()
        self.greylisted: set[str] = set()
        self.slow = 0.0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return "550 5.1.1 no such mailbox"
        if address in self.greylisted:
            return "451 4.7.1 greylisted, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.raw.append(envelope.original_content or envelope.content)
        self.messages.append(
            email.message_from_bytes(envelope.content, policy=email.policy.default)
        )
        if self.slow:
            await asyncio.sleep(self.slow)
        return "250 Message accepted"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [message for message in self.messages if address in message["To"]]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
