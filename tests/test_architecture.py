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


def lint_imports(*options: str) -> subprocess.CompletedProcess:
    """Run import-linter over the code as it is on disk (no cache written into the tree)."""
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-logo", "--no-cache", *options],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"},
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
