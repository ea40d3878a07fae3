"""Which way the imports go (docs/architecture.md): pages, the API and the
sockets call services and selectors, which use the models; the engine is pure;
nothing imports upwards and no two modules import each other.

The imports are read from the source (every import statement, also those
inside functions), so a shortcut taken anywhere shows up here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            # "from games.play import services" imports the module games.play.services.
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


MODULES = {
    _module_name(path): _imports(path)
    for path in sorted(GAMES.rglob("*.py"))
    if "migrations" not in path.parts and "management" not in path.parts
}


def _of_kind(*kinds: str) -> list[str]:
    """Modules named for one of ``kinds``: "services", or "puzzle_services" too."""
    return [name for name in MODULES if name.rsplit(".", 1)[-1].split("_")[-1] in kinds]


def _imports_any(module: str, prefixes: tuple[str, ...]) -> list[str]:
    return sorted(name for name in MODULES[module] if name.startswith(prefixes))


def test_the_modules_are_found():
    assert {"games.engine", "games.play.services", "games.lobby.views", "games.api.views"} <= set(MODULES)
    assert {"games.learn.puzzle_services", "games.learn.puzzle_selectors"} <= set(_of_kind("services", "selectors"))


@pytest.mark.parametrize(
    "module", ["games.engine", "games.rules", *(m for m in MODULES if m.startswith("games.search"))]
)
def test_the_engine_is_pure_python(module):
    outside = [name for name in MODULES[module] if name.startswith(("django", "rest_framework", "channels"))]
    site = [
        name
        for name in MODULES[module]
        if name.startswith("games.") and not name.startswith(("games.rules", "games.search", "games.engine"))
    ]
    assert outside == [] and site == [], f"{module} imports {outside + site}"


@pytest.mark.parametrize("module", _of_kind("services", "selectors", "models", "counters", "errors", "players"))
def test_services_selectors_and_models_know_nothing_of_pages_or_http(module):
    upward = _imports_any(
        module, ("django.http", "django.shortcuts", "django.contrib.messages", "rest_framework.response", "games.api")
    )
    pages = [name for name in MODULES[module] if name.rsplit(".", 1)[-1] in ("views", "history", "consumers", "forms")]
    assert upward + pages == [], f"{module} imports {upward + pages}"


def test_template_tags_do_not_import_views():
    tags = [m for m in MODULES if m.startswith("games.templatetags")]
    assert tags
    for module in tags:
        views = [name for name in MODULES[module] if name.rsplit(".", 1)[-1] in ("views", "history")]
        assert views == [], f"{module} imports {views}"


def test_no_two_modules_import_each_other():
    site = set(MODULES)
    graph = {
        module: {name for name in imports if name in site and name != module} for module, imports in MODULES.items()
    }
    # A package's __init__ is imported with any of its modules: only real modules count.
    cycles = sorted((a, b) for a, targets in graph.items() for b in targets if a < b and a in graph.get(b, set()))
    assert cycles == []


def test_refusals_carry_no_http_status():
    from games import errors

    refusals = [
        value for value in vars(errors).values() if isinstance(value, type) and issubclass(value, errors.GameError)
    ]
    assert len(refusals) >= 7
    assert [cls.__name__ for cls in refusals if hasattr(cls, "status")] == []
