"""How the apps may lean on each other, beyond the import contracts (pyproject.toml, run by
tests/test_architecture.py: core, which every app uses, imports none of them; the apps depend
one way; no cycles): no app imports another app's views (what two apps share lives in a
module that is not a view); and no page's partial is rendered for another page (what pages
share is an include of its own)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("config", "core", "games", "claims", "play", "tournaments", "stats")


def imported_modules(source: str) -> set[str]:
    """Every module a source imports, and every name it imports from one as if it were a
    module (`from claims import views` names claims.views)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def sources(app: str) -> list[Path]:
    return [path for path in (ROOT / app).rglob("*.py") if "migrations" not in path.parts]


def views_module(module: str) -> str | None:
    """The views module `module` is or lies in (games.views for games.views.home), if any."""
    parts = module.split(".")
    for end in range(2, len(parts) + 1):
        if parts[end - 1].endswith("views"):
            return ".".join(parts[:end])
    return None


def imports_of_other_apps_views(app: str, source: str) -> list[str]:
    return sorted(
        {
            views_module(module)
            for module in imported_modules(source)
            if module.split(".")[0] in APPS and module.split(".")[0] != app and views_module(module)
        }
    )


def test_no_app_imports_another_apps_views():
    importing = {
        str(path.relative_to(ROOT)): imports_of_other_apps_views(app, path.read_text())
        for app in APPS
        for path in sources(app)
    }
    assert {path: modules for path, modules in importing.items() if modules} == {}


def test_the_scan_finds_an_import_of_another_apps_views():
    # So that the test above cannot pass because the scan never matches.
    assert imports_of_other_apps_views("stats", "from claims import services, views\n") == [
        "claims.views"
    ]
    assert imports_of_other_apps_views("stats", "def f():\n    import games.views\n") == [
        "games.views"
    ]
    assert imports_of_other_apps_views("stats", "from tournaments.views import x\n") == [
        "tournaments.views"
    ]
    assert imports_of_other_apps_views("claims", "from claims import views\n") == []
    panel = "from claims.claim_panel import claim_panel\n"
    assert imports_of_other_apps_views("stats", panel) == []


# A partial of a template named in code or in a template: "games/match.html#match-body".
PARTIAL = re.compile(r"""["']([\w/.-]+\.html)#[\w-]+["']""")


def is_page(template: str) -> bool:
    """Pages are named as they are; includes, which any page may use, start with "_"."""
    return not template.rsplit("/", 1)[-1].startswith("_")


def partials_of_other_pages_in_code(source: str) -> list[str]:
    """Pages whose partial a module renders without ever rendering the page itself."""
    return sorted(
        {
            page
            for page in PARTIAL.findall(source)
            if is_page(page) and f'"{page}"' not in source and f"'{page}'" not in source
        }
    )


def partials_of_other_pages_in_template(name: str, source: str) -> list[str]:
    """Pages whose partial a template includes, other than its own."""
    return sorted({page for page in PARTIAL.findall(source) if is_page(page) and page != name})


def test_a_pages_partial_is_rendered_only_with_that_page():
    templates = ROOT / "templates"
    found = {
        str(path.relative_to(ROOT)): partials_of_other_pages_in_code(path.read_text())
        for app in APPS
        for path in sources(app)
    } | {
        str(path.relative_to(ROOT)): partials_of_other_pages_in_template(
            str(path.relative_to(templates)), path.read_text()
        )
        for path in templates.rglob("*.html")
    }
    assert {path: pages for path, pages in found.items() if pages} == {}


def test_the_scan_finds_a_partial_of_another_page():
    # So that the test above cannot pass because the scan never matches.
    assert partials_of_other_pages_in_code('template = "games/new_match.html#options"\n') == [
        "games/new_match.html"
    ]
    assert (
        partials_of_other_pages_in_code(
            'render(r, "games/match.html")\nrender(r, "games/match.html#match-body")\n'
        )
        == []
    )
    assert partials_of_other_pages_in_code('render(r, "games/_rules.html#options")\n') == []
    assert partials_of_other_pages_in_template(
        "games/play_new.html", '{% include "games/new_match.html#options" %}'
    ) == ["games/new_match.html"]
    assert (
        partials_of_other_pages_in_template(
            "games/match.html", '{% include "games/match.html#match-body" %}'
        )
        == []
    )
