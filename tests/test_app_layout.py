"""How the apps may lean on each other, beyond the import contracts (pyproject.toml, run by
tests/test_architecture.py: core, which every app uses, imports none of them; the apps depend
one way; no cycles): no app imports another app's views (what two apps share lives in a
module that is not a view); and no page's partial is rendered for another page (what pages
share is an include of its own)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Every package of the project's own: the site's apps (each with an apps.py), config, and the
# pure game library; found, not listed, so that a new app is covered the day it comes.
APPS = tuple(
    sorted(
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in {"tests", "bench", "docs"}
    )
)


def test_the_checks_below_cover_every_app():
    django_apps = {path.parent.name for path in ROOT.glob("*/apps.py")}
    assert django_apps | {"cards101", "config"} <= set(APPS)
    assert {"coach", "notify", "clubs"} <= set(APPS)


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


# --- services write, queries read, and a watched version moves one way ----------------------

# Issue 25: a services module of more than this is doing more than one concern's writing.
SERVICES_CEILING = 500


def services_modules(app: str) -> list[Path]:
    """An app's services: services.py, or every module of its services package."""
    single = ROOT / app / "services.py"
    return [single] if single.exists() else sorted((ROOT / app / "services").glob("*.py"))


def test_no_services_module_exceeds_the_ceiling():
    found = {
        str(path.relative_to(ROOT)): len(path.read_text().splitlines())
        for app in APPS
        for path in services_modules(app)
    }
    assert "games/services/rounds.py" in found and "tournaments/services/rounds.py" in found
    assert {path: lines for path, lines in found.items() if lines > SERVICES_CEILING} == {}


def test_every_app_that_writes_has_a_module_that_reads():
    writing = [app for app in APPS if services_modules(app)]
    assert {"games", "claims", "play", "tournaments", "stats"} <= set(writing)
    assert [app for app in writing if not (ROOT / app / "queries.py").exists()] == []


# Whose every write is in its services (issue 35): the newest apps, held to the rule from the
# start; the older ones keep a few small writes beside what they belong to.
WRITING_ONLY_IN_SERVICES = {"clubs", "coach", "notify"}
WRITES = {"save", "delete", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
QUERYSET = {"objects", "filter", "exclude", "all", "select_for_update", "select_related"}


def orm_writes(source: str) -> list[str]:
    """Where a source writes through the ORM: a model saved or deleted, or a queryset's (or a
    manager's) create, update, delete and the like; not a dict's update or an image's save."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method, receiver = node.func.attr, node.func.value
        chain = {
            part.attr if isinstance(part, ast.Attribute) else getattr(part, "id", None)
            for part in ast.walk(receiver)
        }
        on_a_queryset = bool(chain & QUERYSET)
        if (method in WRITES and (on_a_queryset or not isinstance(receiver, ast.Call))) or (
            method in {"create", "update"} and on_a_queryset
        ):
            found.append(ast.unparse(node))
    return found


def test_the_newest_apps_write_only_in_their_services():
    found = {
        str(path.relative_to(ROOT)): writes
        for app in sorted(WRITING_ONLY_IN_SERVICES)
        for path in sources(app)
        if path not in services_modules(app) and (writes := orm_writes(path.read_text()))
    }
    assert found == {}


def test_the_scan_finds_every_kind_of_write():
    source = (
        "def f(row, qs, data):\n"
        "    row.save(update_fields=['x'])\n"
        "    Row.objects.filter(pk=1).update(x=2)\n"
        "    Row.objects.create(x=1)\n"
        "    qs.all().delete()\n"
        "    data.update(x=1)\n"
        "    segno.make('x').save(buffer)\n"
    )
    assert orm_writes(source) == [
        "row.save(update_fields=['x'])",
        "Row.objects.filter(pk=1).update(x=2)",
        "Row.objects.create(x=1)",
        "qs.all().delete()",
    ]


def unguarded_nexts(source: str) -> list[str]:
    """Where a source reads a request's `next` other than as core.http.local_path's target."""
    tree = ast.parse(source)
    guarded = {
        id(argument)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "local_path"
        for argument in node.args
    }
    found = []
    for node in ast.walk(tree):
        reads_next = (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == "next"
        ) or (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value == "next"
        )
        if reads_next and "request" in ast.unparse(node) and id(node) not in guarded:
            found.append(ast.unparse(node))
    return found


def test_every_next_a_request_sends_is_read_through_local_path():
    found = {
        str(path.relative_to(ROOT)): reads
        for app in APPS
        for path in sources(app)
        if (reads := unguarded_nexts(path.read_text()))
    }
    assert found == {}


def test_the_scan_finds_a_next_read_without_its_guard():
    source = (
        "def f(request):\n"
        "    ok = local_path(request, request.POST.get('next', ''))\n"
        "    bad = request.GET.get('next')\n"
        "    worse = request.POST['next']\n"
    )
    assert unguarded_nexts(source) == ["request.GET.get('next')", "request.POST['next']"]


def version_moves(source: str) -> list[str]:
    """Where a source announces a version, moves one in SQL (`F("version")`) or moves one in
    memory (`x.version += 1`), as the code says it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else None
            called = called or (node.func.id if isinstance(node.func, ast.Name) else None)
            if called == "announce" or (
                called == "F"
                and any(isinstance(a, ast.Constant) and a.value == "version" for a in node.args)
            ):
                found.append(ast.unparse(node))
        elif (
            isinstance(node, ast.AugAssign)
            and isinstance(node.target, ast.Attribute)
            and node.target.attr == "version"
        ):
            found.append(ast.unparse(node))
    return found


def test_a_watched_version_is_moved_and_announced_only_by_core_live():
    # One way: a service calls core.live.moved / moved_all under its lock; no model, view or
    # other module moves a version or announces one.
    found = {
        str(path.relative_to(ROOT)): moves
        for app in APPS
        for path in sources(app)
        if (moves := version_moves(path.read_text()))
    }
    assert found.pop("core/live.py")
    # Versions no page watches live, so nothing announces them: a round's (an edit names the
    # one it was made on), a rating pool's (the cached leaderboards key on it) and a round's
    # review (the round's panel asks again until it is done).
    assert found == {
        "games/services/rounds.py": ["changed.version += 1"],
        "stats/services.py": ["pool.version += 1"],
        "coach/services.py": ["locked.version += 1", "locked.version += 1"],
    }


def test_the_scan_finds_every_way_of_moving_a_version():
    # So that the test above cannot pass because the scan never matches.
    source = (
        "def f(table, qs):\n"
        "    table.version += 1\n"
        "    qs.update(version=F('version') + 1)\n"
        "    live.announce(PlayTable, table.pk)\n"
    )
    assert sorted(version_moves(source)) == [
        "F('version')",
        "live.announce(PlayTable, table.pk)",
        "table.version += 1",
    ]


def test_tests_import_their_helpers_from_factories_not_from_conftest():
    """conftest.py holds fixtures and hooks, which pytest hands out; what tests import to call
    lives in tests/factories.py (and the modules beside each app's tests)."""
    importing = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("*.py")
        if any(module.endswith("conftest") for module in imported_modules(path.read_text()))
    )
    assert importing == []
    assert "tests.conftest" in imported_modules("from tests.conftest import make_match\n")
