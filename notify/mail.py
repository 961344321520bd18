"""Mail written in a request and sent by a worker: the accounts' messages (the sign-up's
confirmation, a password reset) as a task of Django's framework (settings.TASKS: django-tasks-db,
whose row is written in the transaction of the request and run by `manage.py db_worker`).

A sign-up no longer waits for the mail server (1.5–4.4 s with a real one): the message is rendered
in the request, in its language, and sent outside it. As with notifications
(notify.services.deliveries): an outage is tried again later, with the same backoff, up to the same
limit; a 5xx answer is given up, a 4xx (greylisting) tried again; a task is run once, so a worker
killed while sending does not send it again, and a message the server may have kept when it stopped
answering is not sent again either (notify.smtp).
"""

from __future__ import annotations

import datetime
import logging
import smtplib

from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.tasks import task
from django.utils import timezone

from notify.channels.email import is_permanent, said
from notify.services.deliveries import MOST_ATTEMPTS, backoff

logger = logging.getLogger(__name__)


def later(message: EmailMessage) -> None:
    """Send `message` from the worker (written now, in the current transaction)."""
    html = [
        content
        for content, mimetype in getattr(message, "alternatives", [])
        if mimetype == "text/html"
    ]
    send_mail.enqueue(
        {
            "subject": message.subject,
            "body": message.body,
            "html": html[0] if html else None,
            "subtype": message.content_subtype,
            "from_email": message.from_email,
            "to": list(message.to),
            "headers": dict(message.extra_headers),
        }
    )


@task
def send_mail(message: dict, attempt: int = 1) -> str:
    mail = EmailMultiAlternatives(
        subject=message["subject"],
        body=message["body"],
        from_email=message["from_email"],
        to=message["to"],
        headers=message["headers"],
    )
    mail.content_subtype = message["subtype"]
    if message["html"]:
        mail.attach_alternative(message["html"], "text/html")
    try:
        mail.send()
    except (smtplib.SMTPException, OSError) as failed:
        if is_permanent(failed) or attempt >= MOST_ATTEMPTS:
            logger.warning("mail to %s given up: %s", message["to"], said(failed))
            return "given up"
        wait: datetime.timedelta = backoff(attempt)
        send_mail.using(run_after=timezone.now() + wait).enqueue(message, attempt + 1)
        return "retried"
    return "sent"
