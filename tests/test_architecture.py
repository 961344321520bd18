"""The layout the code promises: pure cores that load no Django, and apps that import one way."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# games is the base app: tournaments and stats import it, never the reverse.
IMPORTS_APPS_ABOVE = re.compile(r"^\s*(from|import)\s+(tournaments|stats)\b", re.MULTILINE)


def modules_loaded_by(statement: str) -> list[str]:
    """The modules a fresh interpreter has loaded after running `statement`."""
    code = f"{statement}; import json, sys; print(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin"},  # no DJANGO_SETTINGS_MODULE, nothing inherited
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout)


def django_modules(modules: list[str]) -> list[str]:
    return [name for name in modules if name == "django" or name.startswith("django.")]


@pytest.mark.parametrize(
    "module",
    [
        "cards101.rules",
        "cards101.engine",
        "cards101.bots",
        "cards101.bots.arena",
        "tournaments.seating",
        "stats.ratings",
    ],
)
def test_a_pure_core_loads_no_django(module):
    modules = modules_loaded_by(f"import {module}")
    assert module in modules
    assert django_modules(modules) == []


def test_the_check_sees_django_when_it_is_loaded():
    # So that the test above cannot pass because it never looks.
    assert "django.conf" in django_modules(modules_loaded_by("import django.conf"))


def games_sources() -> list[Path]:
    return [path for path in (ROOT / "games").rglob("*.py") if "migrations" not in path.parts]


def test_games_never_imports_tournaments():
    importing = [
        str(path.relative_to(ROOT))
        for path in games_sources()
        if IMPORTS_APPS_ABOVE.search(path.read_text())
    ]
    assert importing == []


def test_the_import_scan_finds_an_import_of_tournaments():
    # So that the test above cannot pass because the pattern never matches.
    assert IMPORTS_APPS_ABOVE.search("def f():\n    from tournaments.models import Tournament\n")
    assert IMPORTS_APPS_ABOVE.search("import tournaments.services\n")
    assert IMPORTS_APPS_ABOVE.search("from stats.ratings import rate\n")
    assert not IMPORTS_APPS_ABOVE.search("# tournaments import games, never the reverse\n")
