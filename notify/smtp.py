"""The site's SMTP backend: Django's, told apart where a failure leaves the message.

A timeout or a cut connection once the whole message has been handed over (after DATA's
content, before the server's answer) leaves it in doubt: the server may have queued it. Tried
again, it could arrive twice; so it is given up, the one message in doubt (MailInDoubt). A
failure before that point (connecting, a greylisted address, the DATA command refused for now)
is tried again later, as before (notify.channels.email.is_permanent)."""

from __future__ import annotations

import smtplib

from django.core.mail.backends import smtp


class MailInDoubt(smtplib.SMTPException):
    """The server had the whole message when it stopped answering: it may have kept it."""


class _HandsOver:
    """Knows whether the message itself went out in the DATA command now being sent."""

    handed_over = False

    def data(self, msg):
        self.handed_over = False
        try:
            return super().data(msg)
        except (OSError, smtplib.SMTPServerDisconnected) as error:
            if self.handed_over:
                raise MailInDoubt(f"no answer after the message was sent: {error}") from error
            raise

    def send(self, s):
        super().send(s)
        if isinstance(s, bytes) and s.endswith(b"\r\n.\r\n"):  # the message, with its end
            self.handed_over = True


class _SMTP(_HandsOver, smtplib.SMTP):
    pass


class _SMTPSSL(_HandsOver, smtplib.SMTP_SSL):
    pass


class EmailBackend(smtp.EmailBackend):
    @property
    def connection_class(self):
        return _SMTPSSL if self.use_ssl else _SMTP
