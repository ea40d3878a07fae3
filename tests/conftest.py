"""Fixtures shared by every test folder."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture(autouse=True)
def _action_budgets_out_of_reach(settings):
    """Every test signs in and posts forms from one address: the actions'
    budgets per client (games/serving/action_limits.py) are out of reach
    unless a test sets its own."""
    settings.ACTION_RATES = {action: "100000/min" for action in settings.ACTION_RATES}


@pytest.fixture
def password():
    """The password every `user` fixture signs in with."""
    return PASSWORD


@pytest.fixture
def user(django_user_model):
    """A registered player with an e-mail address (for password resets)."""
    return django_user_model.objects.create_user(username="alice", email="alice@example.com", password=PASSWORD)


@pytest.fixture
def bob(django_user_model):
    """A second player; signs in with `password` too."""
    return django_user_model.objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def carol(django_user_model):
    """A third player, often one who plays in none of the games at hand."""
    return django_user_model.objects.create_user("carol", password=PASSWORD)


@pytest.fixture
def client_logged_in(client, user):
    """The test client, signed in as `user`."""
    client.force_login(user)
    return client


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory):
    """A STATIC_ROOT filled by collectstatic as production runs it (hashed names,
    compressed copies), for tests that start the site on the production
    settings: a fresh clone has no staticfiles/ of its own."""
    root = tmp_path_factory.mktemp("static")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tttsite.settings", "DEBUG": "0", "SECRET_KEY": "x" * 50}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=BASE_DIR,
        env={**env, "STATIC_ROOT": str(root)},
        check=True,
    )
    return root


def pytest_collection_modifyitems(config, items):
    """Run the browser tests last: Playwright's sync API leaves an event loop
    running in the main thread, where the asyncio tests (tests/live) cannot
    start theirs."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(autouse=True)
def _engine_answers_forgotten():
    """The engine's answers are kept in the cache (games/engine_work/asking.py):
    each test asks the engine afresh, so a test that patches the engine hears
    its own answer."""
    from django.core.cache import cache

    from games.engine_work import asking

    cache.clear()
    asking.forget()
    yield


@pytest.fixture
def reviewed():
    """``reviewed(game)``: the finished ``game`` reviewed as the background worker
    reviews it (games/play/review_services.py), so its pages and the API read a review."""
    from games.play import review_services

    def review(game):
        review_services.game_review_store(game_id=game.pk)
        return game

    return review


@pytest.fixture
def engine_searches(monkeypatch):
    """Every search the engine starts, by entry point: a review, a line of best
    play, an analysis, or the solver's own search (which all three use on 4x4 and 5x5)."""
    from games import engine
    from games.search.solver import ExactSolver

    calls = []
    for name in ("review", "principal_variation", "analyse"):
        real = getattr(engine, name)
        monkeypatch.setattr(
            engine, name, lambda *args, _real=real, _name=name, **kwargs: calls.append(_name) or _real(*args, **kwargs)
        )
    real_search = ExactSolver.search
    monkeypatch.setattr(
        ExactSolver,
        "search",
        lambda self, *args, **kwargs: calls.append("search") or real_search(self, *args, **kwargs),
    )
    return calls


#: The seconds of search each analysis reports under ``charged_searches``.
SEARCH_SECONDS = 0.6


@pytest.fixture
def charged_searches(monkeypatch):
    """Every analysis the engine makes, counted, each reporting SEARCH_SECONDS
    of search: what the visitor who asked is charged (games/engine_work/)."""
    import dataclasses

    from games import engine

    calls = []
    real = engine.analyse

    def counted(board, budget=None, **options):
        calls.append(str(board))
        found = real(board, budget=budget, **options)
        stats = dataclasses.replace(found.stats, seconds=SEARCH_SECONDS)
        return engine.Analysis(found, stats, exact=found.exact, traps=found.traps)

    monkeypatch.setattr(engine, "analyse", counted)
    return calls


@pytest.fixture
def engine_processes(settings):
    """The engine's searches in a pool of one engine process, as in production
    (games/engine_work/pool.py); the pool is ended after the test."""
    from games.engine_work import pool

    settings.ENGINE_PROCESSES = True
    settings.ENGINE_SLOTS = 1
    yield
    pool.shut_down()


@pytest.fixture
def slow_engine_processes(engine_processes, monkeypatch, tmp_path):
    """The engine's pool, its processes without the tablebase and the compiled
    core: what an overloaded machine looks like, where an early 5x5 position
    takes seconds to search (the processes start with this environment)."""
    monkeypatch.setenv("ENGINE_CORE", "python")
    monkeypatch.setenv("ENGINE_TABLEBASE", str(tmp_path / "no-tablebase.bin"))
