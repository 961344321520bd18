"""E-mail, over Django's mail (settings.MAILERS: SMTP at DJANGO_EMAIL_HOST, or the console):
every message carries a one-click unsubscribe link (RFC 8058 headers too)."""

from __future__ import annotations

import smtplib

from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils.translation import gettext as _

from notify import tokens
from notify.channels import GiveUp, TryLater, register
from notify.links import absolute
from notify.models import Channel


class EmailChannel:
    name = Channel.EMAIL
    panel_template = "notify/_email_panel.html"

    def linked(self, user) -> bool:
        return bool(user.email)

    def panel_context(self, request) -> dict:
        return {"email": request.user.email}

    def send(self, notification, *, title: str, text: str, url: str) -> None:
        user = notification.user
        if not user.email:
            raise GiveUp("no e-mail address")
        token = tokens.unsubscribe_token(user.pk, [notification.kind])
        unsubscribe = absolute(reverse("notify:unsubscribe", args=[token]))
        body = "\n\n".join(
            [
                text,
                url,
                "-- ",
                _("Stop these e-mails: %(link)s") % {"link": unsubscribe},
                _("All your notifications: %(link)s")
                % {"link": absolute(reverse("notify:settings"))},
            ]
        )
        message = EmailMessage(
            subject=title,
            body=body,
            to=[user.email],
            headers={
                "List-Unsubscribe": f"<{unsubscribe}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                "Auto-Submitted": "auto-generated",
            },
        )
        try:
            message.send()
        except smtplib.SMTPRecipientsRefused as refused:
            raise GiveUp(_refused(refused)) from refused
        except (smtplib.SMTPException, OSError) as failed:
            if is_permanent(failed):
                raise GiveUp(str(failed)) from failed
            raise TryLater(f"{type(failed).__name__}: {failed}") from failed


def _refused(refused: smtplib.SMTPRecipientsRefused) -> str:
    reasons = [f"{code} {reason!r}" for code, reason in refused.recipients.values()]
    return "the server refused the address: " + "; ".join(reasons)


def is_permanent(failed: Exception) -> bool:
    """A 5xx answer to the message itself (not the connection) will never succeed."""
    code = getattr(failed, "smtp_code", None)
    return isinstance(failed, smtplib.SMTPDataError) and code is not None and 500 <= code < 600


register(EmailChannel())
