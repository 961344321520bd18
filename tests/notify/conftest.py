"""A local SMTP server (aiosmtpd) that keeps what it receives, and the site's mail pointed at
it as DJANGO_EMAIL_HOST/PORT with DJANGO_EMAIL_USE_TLS=0 would point it (config/settings.py)."""

from __future__ import annotations

import pytest
from aiosmtpd.controller import Controller

from tests.mail_sink import Sink, free_port


@pytest.fixture
def smtp_sink(settings):
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "notify.smtp.EmailBackend",
            "OPTIONS": {
                "host": "127.0.0.1",
                "port": controller.port,
                "username": "",
                "password": "",
                "use_tls": False,
                "timeout": 5,
            },
        }
    }
    settings.SITE_URL = "https://101.example"
    try:
        yield sink
    finally:
        controller.stop()
