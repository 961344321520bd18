"""The site's settings with the benchmark's bare view added to the URLs.

Only these differ from config.settings: ROOT_URLCONF (the site's URLs plus /bench/bare/),
STATIC_ROOT, which bench/sheet.py points at a temporary directory (BENCH_STATIC_ROOT) so
collectstatic does not touch the working tree, and with BENCH_CACHE=dummy a cache that keeps
nothing, to measure every page as the first view after a change.
"""

import os

from config.settings import *  # noqa: F403
from config.settings import STATIC_ROOT as _SITE_STATIC_ROOT

ROOT_URLCONF = "bench.bare_urls"
STATIC_ROOT = os.environ.get("BENCH_STATIC_ROOT") or _SITE_STATIC_ROOT

if os.environ.get("BENCH_CACHE") == "dummy":
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
