"""The site's settings with the benchmark's bare view added to the URLs.

Only two things differ from config.settings: ROOT_URLCONF (the site's URLs plus
/bench/bare/) and STATIC_ROOT, which bench/sheet.py points at a temporary directory
(BENCH_STATIC_ROOT) so collectstatic does not touch the working tree.
"""

import os

from config.settings import *  # noqa: F403
from config.settings import STATIC_ROOT as _SITE_STATIC_ROOT

ROOT_URLCONF = "bench.bare_urls"
STATIC_ROOT = os.environ.get("BENCH_STATIC_ROOT") or _SITE_STATIC_ROOT
