"""The layout the code promises: pure cores that load no Django, and apps that import one way.

What modules import is checked by import-linter (the contracts in pyproject.toml); what a pure
core loads when it runs, which a reading of the imports cannot see, by a fresh interpreter."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
        "cards101",
        "cards101.rules",
        "cards101.engine",
        "cards101.bots",
        "cards101.bots.arena",
        "cards101.analysis",
        "cards101.analysis.positions",
        "cards101.analysis.practice",
        "telegram.updates",
        "telegram.webapp",
        "tournaments.seating",
        "stats.ratings",
        "stats.chances",
    ],
)
def test_a_pure_core_loads_no_django(module):
    modules = modules_loaded_by(f"import {module}")
    assert module in modules
    assert django_modules(modules) == []


def test_the_check_sees_django_when_it_is_loaded():
    # So that the test above cannot pass because it never looks.
    assert "django.conf" in django_modules(modules_loaded_by("import django.conf"))


def lint_imports(*options: str, path: Path = ROOT) -> subprocess.CompletedProcess:
    """Run import-linter over the code as it is on disk (no cache written into the tree);
    `path`: where the packages it reads are found."""
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-logo", "--no-cache", *options],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200", "PYTHONPATH": str(path)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_import_contracts_are_kept():
    # pyproject.toml's [tool.importlinter]: cards101 imports neither Django nor any app, and
    # the apps import one way (games never imports tournaments or stats).
    result = lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "cards101 imports no Django KEPT" in result.stdout
    assert "apps depend one way KEPT" in result.stdout
    # TYPE_CHECKING imports count too (grimp reads them unless told not to).
    assert "no import cycle between the modules of a package KEPT" in result.stdout


def test_the_linter_finds_imports_that_break_a_contract(tmp_path):
    # So that the test above cannot pass because the linter never looks: the same two kinds
    # of contract, turned against imports the code does make.
    config = tmp_path / "contracts.toml"
    config.write_text(
        """
[tool.importlinter]
root_packages = ["games", "tournaments"]
include_external_packages = true

[[tool.importlinter.contracts]]
name = "games imports no Django"
type = "forbidden"
source_modules = ["games"]
forbidden_modules = ["django"]

[[tool.importlinter.contracts]]
name = "games above tournaments"
type = "layers"
layers = ["games", "tournaments"]
"""
    )
    result = lint_imports("--config", str(config))
    assert result.returncode == 1
    assert "games imports no Django BROKEN" in result.stdout
    assert "games is not allowed to import django" in result.stdout
    assert "games above tournaments BROKEN" in result.stdout
    assert "tournaments is not allowed to import games" in result.stdout


def test_the_linter_finds_a_cycle_made_only_for_type_checking(tmp_path):
    # So that "no import cycle" cannot pass because cycles go unseen: two modules of a package
    # that import each other, one of them only for type checking.
    package = tmp_path / "cyclic"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from cyclic import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from cyclic import a\n"
    )
    config = tmp_path / "contracts.toml"
    config.write_text(
        """
[tool.importlinter]
root_packages = ["cyclic"]

[[tool.importlinter.contracts]]
name = "no cycle in cyclic"
type = "acyclic_siblings"
ancestors = ["cyclic"]
"""
    )
    result = lint_imports("--config", str(config), path=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no cycle in cyclic BROKEN" in result.stdout


# --- the shape of the site -----------------------------------------------------------------

SITE = ("cards101", "core", "games", "claims", "play", "tournaments", "stats", "config")


def lines_of(package: str) -> int:
    """Lines of Python in a package, leaving out its migrations."""
    return sum(
        len(path.read_text().splitlines())
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_games_is_the_score_sheet_not_the_whole_site():
    # Issue 18: games keeps players and the score sheet, at most a quarter of the site's
    # Python (tests, migrations and bench left out); the game, live play, claims and what
    # every app uses live in packages of their own.
    lines = {package: lines_of(package) for package in SITE}
    assert lines["games"] <= 0.25 * sum(lines.values()), lines
