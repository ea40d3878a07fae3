"""The engine under load, with the site served as in production: granian's
WSGI worker in a few threads (the options scripts/serve gives it), DEBUG
off, the engine's searches in their pool of processes (ENGINE_PROCESSES, on
in production), the test database and a Redis database of its own. Its
engine has neither the tablebase nor the compiled core, as on a machine too
loaded to keep up, so that an early 5x5 position takes seconds to search.

What a visitor would notice: while a signed-in player keeps eight slow 5x5
analyses in flight and a guest as many, /healthz/ and the front page answer
as quickly as ever; every engine request is answered at once, with the
answer, "working" (202) or a refusal (429, 503), never after a search; and
the searches started are answered when asked again. A guest asking for new
positions as fast as it can is refused (429, the site's own page, Retry-After)
once its seconds of search are spent, having started no more than its budget
and one search. With two page workers, a guest reloading its "working" page
is charged for one search, whichever worker each reload reaches. These tests
need Redis at 127.0.0.1:6379 (or TEST_REDIS_URL).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from bench.engine_load import SlowPositions, analysis_page
from bench.process_groups import group_members, stop_group
from games import engine
from games.rules import GEOMETRY
from games.search.solver import ExactSolver, Timeout
from tests.live.test_production_server import database_url, free_port, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/14")

#: Seconds the signed-in player and the guest keep their searches going.
LOAD_SECONDS = 14
#: The most any one HTTP answer may take: nobody waits on a search.
ANSWER_BOUND = 1.0
#: The most a page a visitor opens may take, as a median.
PAGE_MEDIAN_BOUND = 0.05


@dataclass
class Site:
    base: str
    port: int
    process: subprocess.Popen
    log: Path

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


def start_site(collected_static, tmp_path, workers: int = 1, **settings_env) -> Site:
    """granian serving tttsite.wsgi in ``workers`` workers of four threads,
    on the production settings, with ``settings_env`` on top, its engine
    searching in Python without a tablebase (slow searches to be had)."""
    redis.Redis.from_url(REDIS_URL).flushdb()
    env = {key: value for key, value in os.environ.items() if not key.startswith("ENGINE_")}
    env.update(
        DJANGO_SETTINGS_MODULE="tttsite.settings",
        DEBUG="0",
        SECRET_KEY=settings.SECRET_KEY,  # the sessions made here must open there
        DATABASE_URL=database_url(),
        REDIS_URL=REDIS_URL,
        ALLOWED_HOSTS="127.0.0.1",
        STATIC_ROOT=str(collected_static),
        LOG_LEVEL="WARNING",
        ENGINE_CORE="python",
        ENGINE_TABLEBASE=str(tmp_path / "no-tablebase.bin"),
        **settings_env,
    )
    port = free_port()
    granian = Path(sys.executable).parent / "granian"
    command = [str(granian), "--interface", "wsgi", "tttsite.wsgi:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--workers", str(workers), "--blocking-threads", "4"]
    command += ["--no-ws", "--respawn-failed-workers", "--workers-kill-timeout", "10", "--log-level", "warning"]
    log = tmp_path / "granian.log"
    with open(log, "w") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    site = Site(f"http://127.0.0.1:{port}", port, process, log)
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise AssertionError(f"granian exited with {process.returncode}:\n{site.log_tail()}")
        try:
            if get(site, "/healthz/").status == 200:
                return site
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop_site(site)
            raise AssertionError(f"granian did not answer within 60 s:\n{site.log_tail()}")
        time.sleep(0.2)


def stop_site(site: Site) -> None:
    """granian, its worker and the worker's engine processes: all of the group, and nothing left."""
    stop_group(site.process, timeout=20)
    deadline = time.monotonic() + 10
    while (left := group_members(site.process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert left == {}, f"left behind: {left}"
    connection.close()


@pytest.fixture
def site(collected_static, tmp_path):
    """The site on the production settings and the engine's own defaults."""
    served = start_site(collected_static, tmp_path)
    yield served
    stop_site(served)


@pytest.fixture
def site_with_a_small_budget(collected_static, tmp_path):
    """The same, where a guest may have 4 seconds of search a minute."""
    served = start_site(collected_static, tmp_path, ENGINE_SECONDS_GUEST="4/min")
    yield served
    stop_site(served)


@pytest.fixture
def two_workers_with_a_small_budget(collected_static, tmp_path):
    """Two page workers, as scripts/serve runs on two cores, where a guest may
    have 6 seconds of search a minute: one analysis page's search, and a bit."""
    served = start_site(collected_static, tmp_path, workers=2, ENGINE_SECONDS_GUEST="6/min")
    yield served
    stop_site(served)


# --------------------------------------------------------------------------
# A visitor: a cookie jar of its own, a new connection for every request.


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    seconds: float

    def code(self) -> str:
        """The API's error code, or "" for a page."""
        if not self.headers.get("content-type", "").startswith("application/json"):
            return ""
        return json.loads(self.body).get("code", "")


@dataclass
class Visitor:
    cookies: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def cookie_header(self) -> str:
        with self.lock:
            return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def keep(self, set_cookies: list[str]) -> None:
        with self.lock:
            for line in set_cookies:
                for name, morsel in SimpleCookie(line).items():
                    self.cookies[name] = morsel.value


def signed_in(user) -> Visitor:
    """A visitor holding a session of ``user``'s own."""
    name, value = session_cookie(user).split("=", 1)
    return Visitor({name: value})


def get(site: Site, path: str, visitor: Visitor | None = None) -> Answer:
    return ask(site, "GET", path, visitor)


def ask(site: Site, method: str, path: str, visitor: Visitor | None = None, body: dict | None = None) -> Answer:
    headers = {}
    if visitor is not None and (cookie := visitor.cookie_header()):
        headers["Cookie"] = cookie
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conversation = http.client.HTTPConnection("127.0.0.1", site.port, timeout=10)
    start = time.perf_counter()
    try:
        conversation.request(method, path, body=data, headers=headers)
        response = conversation.getresponse()
        text = response.read().decode(errors="replace")
    finally:
        conversation.close()
    seconds = time.perf_counter() - start
    if visitor is not None:
        visitor.keep(response.headers.get_all("Set-Cookie") or [])
    headers = {name.lower(): value for name, value in response.getheaders()}
    return Answer(response.status, headers, text, seconds)


@dataclass
class Asked:
    """One position asked for until it was answered or refused: every HTTP answer on the way."""

    position: str
    answers: list[Answer] = field(default_factory=list)

    @property
    def statuses(self) -> list[int]:
        return [answer.status for answer in self.answers]


def follow(site: Site, visitor: Visitor, position: str, *, api: bool, until: float) -> Asked:
    """Ask for ``position`` (the analysis page, or POST /api/analyse/) and
    again after each "working" answer's Retry-After, until answered (200) or
    refused, or ``until`` has passed."""
    asked = Asked(position)
    while True:
        if api:
            answer = ask(site, "POST", "/api/analyse/", visitor, body={"board": position})
        else:
            answer = get(site, analysis_page(position), visitor)
        asked.answers.append(answer)
        if answer.status != 202 or time.monotonic() > until:
            return asked
        time.sleep(float(answer.headers.get("retry-after", "1")))


# --------------------------------------------------------------------------
# The tests.


def test_pages_stay_quick_while_a_player_and_a_guest_keep_the_engine_busy(site, django_user_model):
    player = signed_in(django_user_model.objects.create_user("eve", password="a-long-password"))
    reader = signed_in(django_user_model.objects.create_user("reader", password="a-long-password"))
    guest = Visitor()
    positions = SlowPositions(seed=random.randrange(1 << 30))
    until = time.monotonic() + LOAD_SECONDS

    # The guest's first search gives it its session: its eight threads are one visitor.
    first = follow(site, guest, positions.next(), api=False, until=time.monotonic())
    assert first.statuses == [202], first.statuses
    assert settings.SESSION_COOKIE_NAME in guest.cookies

    asked: list[Asked] = [first]
    failures: list[BaseException] = []

    def keep_asking(visitor: Visitor, api_every: int) -> None:
        try:
            turn = 0
            while time.monotonic() < until:
                turn += 1
                done = follow(
                    site, visitor, positions.next(), api=bool(api_every) and turn % api_every == 0, until=until
                )
                asked.append(done)
                last = done.answers[-1]
                if last.status in (429, 503):  # as a client should: back again after Retry-After
                    time.sleep(min(float(last.headers.get("retry-after", "1")), max(0, until - time.monotonic())))
        except BaseException as error:  # reported by the test's own thread
            failures.append(error)

    # The signed-in player asks through the pages; the guest through the pages and the API.
    threads = [threading.Thread(target=keep_asking, args=(player, 0)) for _ in range(8)]
    threads += [threading.Thread(target=keep_asking, args=(guest, 2)) for _ in range(8)]
    for thread in threads:
        thread.start()

    # Meanwhile another signed-in reader opens /healthz/ and the front page, in turns.
    time.sleep(1)  # the engine's processes started, the searches under way
    samples: dict[str, list[Answer]] = {"/healthz/": [], "/": []}
    spacing = (LOAD_SECONDS - 2) / 80
    for _ in range(40):
        for path, answers in samples.items():
            answers.append(get(site, path, reader))
            time.sleep(spacing)
    for thread in threads:
        thread.join(timeout=LOAD_SECONDS + 30)
    assert not failures, failures

    for path, answers in samples.items():
        assert {answer.status for answer in answers} == {200}, (path, [answer.status for answer in answers])
        median = statistics.median(answer.seconds for answer in answers)
        assert median < PAGE_MEDIAN_BOUND, f"{path}: median {median * 1000:.0f} ms while the engine works"

    every = [answer for one in asked for answer in one.answers]
    statuses = sorted({answer.status for answer in every})
    assert set(statuses) <= {200, 202, 429, 503}, statuses
    slowest = max(answer.seconds for answer in every)
    assert slowest < ANSWER_BOUND, f"an engine request took {slowest:.2f} s to be answered"
    # Searches were started, and their answers came when asked again.
    answered_later = [one for one in asked if one.statuses[0] == 202 and one.statuses[-1] == 200]
    assert answered_later, f"no search answered; statuses: {statuses}"
    assert any(one.answers[0].code() == "engine_working" for one in asked if one.statuses[0] == 202)
    # Every "working" answer says when to ask again.
    assert all("retry-after" in answer.headers for answer in every if answer.status != 200)
    assert "Traceback" not in site.log_tail(), site.log_tail()


def test_a_guest_asking_as_fast_as_it_can_is_held_to_its_seconds_of_search(site_with_a_small_budget):
    site = site_with_a_small_budget
    budget, bound = 4.0, engine.DEFAULT_BUDGET  # ENGINE_SECONDS_GUEST; an analysis page's time bound
    guest = Visitor()
    positions = SlowPositions(seed=random.randrange(1 << 30))

    # New positions, one after another with no pause, until refused for a
    # while: a search started is a 202, a refusal past the budget a 429.
    started: dict[int, list[tuple[str, float]]] = {}  # window (minute) -> (position, when started)
    refused = []
    for _ in range(40):
        position = positions.next()
        answer = get(site, analysis_page(position), guest)
        assert answer.status in (202, 429), (answer.status, answer.body[:500])
        assert answer.seconds < ANSWER_BOUND
        window = int(time.time() // 60)
        if answer.status == 202:
            started.setdefault(window, []).append((position, time.monotonic()))
        else:
            refused.append(answer)
            if len(refused) >= 10:
                break
    assert len(refused) >= 10, "never refused"
    # One search, and then none: the search started holds its whole time
    # bound, more than the budget, until it ends.
    assert all(len(searches) == 1 for searches in started.values()), started

    # The refusal is the site's own page, saying why and when to come back.
    page = refused[0]
    assert page.headers["content-type"].startswith("text/html")
    assert "A short pause, please" in page.body and "/static/games/site." in page.body
    assert "the engine has searched 4 seconds for you in the last minute" in page.body.lower()
    assert 1 <= int(page.headers["retry-after"]) <= 60
    # And the API, asked by the same guest, says so in its own shape.
    api = ask(site, "POST", "/api/analyse/", guest, body={"board": positions.next()})
    assert api.status == 429 and api.code() == "engine_rate_limited", (api.status, api.body)
    assert 1 <= int(api.headers["retry-after"]) <= 60

    # The searches it got started end, and add up to no more than its budget
    # and one search more (a search may start while what was spent is under
    # the budget). Asked again, each is answered from the cache, for free.
    for window, searches in started.items():
        took = 0.0
        for position, since in searches:
            deadline = since + bound + 10
            while (answer := get(site, analysis_page(position), guest)).status == 202:
                assert time.monotonic() < deadline, f"{position}: still working"
                time.sleep(0.1)
            assert answer.status == 200, (answer.status, answer.body[:500])
            took += time.monotonic() - since
        assert took <= budget + bound, f"minute {window}: {len(searches)} searches took {took:.1f} s"


def _unsolved_in(positions: SlowPositions, seconds: float) -> str:
    """The next of ``positions`` that an engine like the site's (searching in
    Python, no tablebase) cannot solve in ``seconds`` here (a few of them it
    solves in well under a second)."""
    geo = GEOMETRY[5]
    while True:
        position = positions.next()
        board = engine.Board.from_string(position)
        me, opp = board._mover_masks()
        solver = ExactSolver(geo)
        solver.deadline = time.perf_counter() + seconds
        try:
            for cell in board.legal_moves:
                solver.score_move(me, opp, cell)
        except Timeout:
            return position


def test_a_guest_reloading_its_working_page_is_charged_for_one_search(two_workers_with_a_small_budget):
    """The working page reloads itself; each reload is a new connection, which
    may land on either page worker. The search is charged once: with 6 seconds
    a minute the guest still gets a second search started while the first runs."""
    site = two_workers_with_a_small_budget
    guest = Visitor()
    positions = SlowPositions(seed=random.randrange(1 << 30))
    first = _unsolved_in(positions, seconds=3.0)  # still working through every reload
    assert get(site, analysis_page(first), guest).status == 202
    for _ in range(10):  # reloads, on one worker or the other (2**-10 that all land on one)
        time.sleep(0.1)
        assert get(site, analysis_page(first), guest).status == 202
    second = get(site, analysis_page(positions.next()), guest)
    assert second.status in (200, 202), f"refused ({second.status}) after one search of a budget of 6 s"
