"""E-mail, over Django's mail (settings.MAILERS: SMTP at DJANGO_EMAIL_HOST, or the console):
every message carries a one-click unsubscribe link (RFC 8058 headers too)."""

from __future__ import annotations

import email.policy
import smtplib

from allauth.account.models import EmailAddress
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils.translation import gettext as _

from notify import tokens
from notify.channels import GiveUp, TryLater, register
from notify.links import absolute
from notify.models import Channel
from notify.smtp import MailInDoubt


def confirmed(user) -> bool:
    """Whether the account's address is one it confirmed (allauth's EmailAddress)."""
    return bool(user.email) and (
        EmailAddress.objects.filter(user=user, email__iexact=user.email, verified=True).exists()
    )


class EmailChannel:
    name = Channel.EMAIL
    panel_template = "notify/_email_panel.html"

    def linked(self, user) -> bool:
        return bool(user.email)

    def may_test(self, user) -> bool:
        """Only to an address the person confirmed (allauth's link): a test message asked for
        again and again must not reach someone else's mailbox."""
        return confirmed(user)

    def panel_context(self, request) -> dict:
        return {"email": request.user.email, "email_confirmed": confirmed(request.user)}

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
        message = _Message(
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
        except (smtplib.SMTPException, OSError) as failed:
            if is_permanent(failed):
                raise GiveUp(said(failed)) from failed
            raise TryLater(said(failed)) from failed


class _Message(EmailMessage):
    """Headers folded at 998 characters, as RFC 5322 allows, not 78: a List-Unsubscribe
    address longer than that was written as encoded words (=?utf-8?q?=3Chttps...), which no
    mail program reads as the literal <URI> RFC 2369 and 8058 ask for."""

    def message(self, *, policy=email.policy.default):
        return super().message(policy=policy.clone(max_line_length=998))


def said(failed: Exception) -> str:
    """What went wrong, for the person's page and the log."""
    if isinstance(failed, smtplib.SMTPRecipientsRefused):
        reasons = [f"{code} {reason!r}" for code, reason in failed.recipients.values()]
        return "the server refused the address: " + "; ".join(reasons)
    return f"{type(failed).__name__}: {failed}"


def is_permanent(failed: Exception) -> bool:
    """Whether sending again could never help, or could send the message twice: a 5xx answer
    to the sender, every address or the message (a 4xx, greylisting among them, is for now);
    or a message in doubt (notify.smtp), which the server may have kept."""
    if isinstance(failed, MailInDoubt):
        return True
    if isinstance(failed, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _reason in failed.recipients.values()]
        return bool(codes) and all(500 <= code < 600 for code in codes)
    code = getattr(failed, "smtp_code", None)
    permanent_kind = isinstance(failed, smtplib.SMTPDataError | smtplib.SMTPSenderRefused)
    return permanent_kind and code is not None and 500 <= code < 600


register(EmailChannel())
