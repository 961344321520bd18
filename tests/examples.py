"""How hard the suite tries its properties (Hypothesis): one profile for every test, chosen by
HYPOTHESIS_PROFILE ("suite" by default, "quick" while editing, "thorough" before a release); a
property dearer or cheaper than most says so as a share of the profile's count (`tried`)."""

from __future__ import annotations

import os

from hypothesis import settings

# No deadline (a machine beside other work would fail a slow example that is right); no example
# database (no files left in the repository: each run starts from the seed it draws).
settings.register_profile("suite", max_examples=100, deadline=None, database=None)
settings.register_profile("quick", max_examples=10, deadline=None, database=None)
settings.register_profile("thorough", max_examples=1000, deadline=None, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


def tried(share: float, **more) -> settings:
    """A property tried `share` times as often as the profile says (at least once): more for a
    cheap one whose space is wide, less for a dear one."""
    return settings(max_examples=max(1, round(settings.default.max_examples * share)), **more)
