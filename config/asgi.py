"""ASGI entry point: Django, with the live pages' event streams served ahead of it
(core/streams.py: an open stream holds no thread)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

from core import streams  # noqa: E402  (after Django is set up)

application = streams.around(django_application)
