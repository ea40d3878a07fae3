"""``python -m bench pages``: every page measured or said to be missing, never skipped."""

import re

import pytest

from bench import pages as bench_pages
from bench.__main__ import main as bench

pytestmark = pytest.mark.django_db


@pytest.fixture
def sample_games(capsys):
    bench(["sample_games", "--games", "120", "--users", "8", "--seed", "3"])
    capsys.readouterr()


@pytest.fixture
def run(capsys):
    def run(*args) -> str:
        bench(["pages", *args])
        return capsys.readouterr().out

    return run


def test_every_page_is_timed_cold_and_warm_with_its_queries(sample_games, run):
    out = run("--requests", "3")
    for label in ("profile, busiest player", "profile, median player", "history p.1, busiest player"):
        rows = [line for line in out.splitlines() if line.startswith(label)]
        assert len(rows) == 2, out
        for row in rows:
            assert re.search(r"(cold|warm)\s+200\s+[\d.]+ms\s+[\d.]+ms\s+[\d.]+ms\s+\d+", row), row
    for label in ("site statistics", "leaderboard"):
        assert len([line for line in out.splitlines() if line.startswith(label)]) == 2, out


def test_a_page_whose_url_does_not_resolve_is_reported_not_available(sample_games, run, monkeypatch):
    monkeypatch.setattr(bench_pages, "pages_to_measure", lambda: [bench_pages.Page("a missing page", "games:nope")])
    out = run("--requests", "1")
    assert re.search(r"a missing page\s+cold\s+not available", out)
    assert re.search(r"a missing page\s+warm\s+not available", out)


def test_an_error_page_is_flagged_not_passed_off_as_a_time(sample_games, run, monkeypatch):
    page = bench_pages.Page("someone nobody knows", "games:profile", ("nobody-at-all",))
    monkeypatch.setattr(bench_pages, "pages_to_measure", lambda: [page])
    assert "<-- HTTP 404" in run("--requests", "1")


def test_no_requests_is_refused(run):
    with pytest.raises(SystemExit, match="--requests must be at least 1"):
        run("--requests", "0")
