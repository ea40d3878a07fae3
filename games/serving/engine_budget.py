"""The engine's budget for work a request asks for: hints, the AI's thinking
shown on a game page, reviews, the analysis board, puzzles, /api/analyse/.

Every such search goes through :func:`search`, which

- answers from Django's cache when the same question (a kind and a position)
  was answered before: repeating a hint costs nothing, on any server process;
- counts the search against the client who asked (signed-in users by
  account, others by address): ``ENGINE_RATE_ANON`` and ``ENGINE_RATE_USER``
  requests that search per period; past it :class:`~games.errors.EngineRateLimited`
  (429 with Retry-After). A request counts once however many searches it
  makes (a review and its lines); answers from the cache are not counted;
- takes one of ``ENGINE_SLOTS`` slots of this server process, never waiting
  for one: with every slot taken it refuses at once with
  :class:`~games.errors.EngineBusy` (503, "busy, try again"), so searches
  never queue up behind each other and hold the server's threads;
- with ``ENGINE_PROCESSES`` on, runs the search in a process of its own
  (a pool of ``ENGINE_SLOTS`` processes): a search is CPU work that holds
  Python's interpreter lock, and in the server's own process it slows every
  other request, even /healthz/. Off (the tests, a quick local run), the
  search runs in the request's thread.

Each search is bounded by the time budget its caller gives the engine (the
engine answers "not solved in time" rather than guess), and a search run in
the pool is given up past that budget and a margin.

Who asked is the request :class:`EngineClientMiddleware` saw; work that no
request asked for (the worker's puzzles, the AI's own moves) is not counted.
While the cache (Redis) is down nobody is counted and nothing is kept: the
budget protects the engine, it must never stop the site.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager, suppress
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache

from games.errors import EngineBusy, EngineRateLimited
from games.serving import engine_jobs, outages, rate_windows

DEFAULT_RATE_ANON = "20/min"
DEFAULT_RATE_USER = "120/min"
DEFAULT_SLOTS = 1
#: Seconds a client is asked to wait when every slot is taken.
BUSY_RETRY_AFTER = 2
#: Seconds past its own budget a search in the pool may take before it is given up.
POOL_MARGIN = 5.0
#: How long an answer is kept: a day when complete, five minutes when a budget
#: ran out (a later try, with the engine's memory warmer, may finish it).
KEEP_COMPLETE, KEEP_PARTIAL = 24 * 3600, 300

_request: ContextVar = ContextVar("engine_budget_request", default=None)


def client_of(request) -> tuple[str, str]:
    """(the key the client is counted under, its rate)."""
    key = rate_windows.client_key(request)
    if key.startswith("user:"):
        return key, getattr(settings, "ENGINE_RATE_USER", DEFAULT_RATE_USER)
    return key, getattr(settings, "ENGINE_RATE_ANON", DEFAULT_RATE_ANON)


class EngineClientMiddleware:
    """Remembers, for the length of a request, who is asking, so that a search
    made deep inside a selector is counted against them."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)


@contextmanager
def asking_for(request):
    """Count the searches made inside this ``with`` against ``request``'s client
    (what the middleware does for every request)."""
    token = _request.set(request)
    try:
        yield
    finally:
        _request.reset(token)


# --------------------------------------------------------------------------
# The rate, per client.


def _charge(request) -> None:
    """Count one search against the client; EngineRateLimited past its rate."""
    key, rate = client_of(request)
    wait = rate_windows.seconds_to_wait(f"engine:{key}", rate)
    if wait is not None:
        allowed, period = rate_windows.parse_rate(rate)
        raise EngineRateLimited(
            f"the engine has searched {allowed} positions for you in the last "
            f"{rate_windows.period_words(period)}; try again in {wait} seconds",
            retry_after=wait,
        )


# --------------------------------------------------------------------------
# The slots and the pool, per server process.

_lock = threading.Lock()
_slots: threading.BoundedSemaphore | None = None
_slots_size = 0
_pool: ProcessPoolExecutor | None = None


def slots() -> int:
    return max(1, int(getattr(settings, "ENGINE_SLOTS", DEFAULT_SLOTS)))


def _semaphore() -> threading.BoundedSemaphore:
    global _slots, _slots_size
    size = slots()
    with _lock:
        if _slots is None or _slots_size != size:  # made on first use, again if the setting changed (tests)
            _slots, _slots_size = threading.BoundedSemaphore(size), size
        return _slots


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            # "spawn": the server process runs threads, which a fork would copy mid-flight.
            _pool = ProcessPoolExecutor(max_workers=slots(), mp_context=multiprocessing.get_context("spawn"))
        return _pool


def _discard_pool(pool: ProcessPoolExecutor) -> None:
    """A search past its time: the pool's processes are ended and a new pool
    made on the next search (a search cannot be stopped from outside)."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    for process in list(getattr(pool, "_processes", {}).values()):
        with suppress(Exception):
            process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


def shut_down() -> None:
    """End the pool's processes (a new pool is made on the next search)."""
    with _lock:
        pool = _pool
    if pool is not None:
        _discard_pool(pool)


def _run(job, args: tuple, budget: float):
    if not getattr(settings, "ENGINE_PROCESSES", False):
        return job(*args)
    pool = _executor()
    future = pool.submit(job, *args)
    try:
        return future.result(timeout=budget + POOL_MARGIN)
    except FutureTimeout:
        _discard_pool(pool)
        raise EngineBusy("the engine took too long on this position; try again", retry_after=BUSY_RETRY_AFTER) from None


# --------------------------------------------------------------------------
# A search.

_MISSING = object()


def search(job, *args, budget: float, kind: str | None = None, key: str = "", complete=None):
    """``job(*args)`` (a function of :mod:`games.serving.engine_jobs`), within
    the budget: from the cache when ``kind`` is given and ``kind``+``key`` was
    answered before; else counted, in a free slot, and kept in the cache (a day
    when ``complete(result)`` says so, five minutes otherwise). ``budget`` is
    the search's own time bound in seconds, which the job gives the engine.

    Raises EngineRateLimited past the client's rate, EngineBusy with every
    slot taken."""
    cache_key = f"engine:{kind}:{key}" if kind else None
    if cache_key:
        with suppress(*outages.REDIS_DOWN):
            found = cache.get(cache_key, _MISSING)
            if found is not _MISSING:
                return found
    request = _request.get()
    if request is not None and not getattr(request, "_engine_counted", False):
        _charge(request)  # once per request, however many searches it makes (a review and its lines)
        request._engine_counted = True
    semaphore = _semaphore()
    if not semaphore.acquire(blocking=False):
        raise EngineBusy("the engine is busy with other searches; try again in a moment", retry_after=BUSY_RETRY_AFTER)
    try:
        result = _run(job, args, budget)
    finally:
        semaphore.release()
    if cache_key:
        done = complete(result) if complete else True
        with suppress(*outages.REDIS_DOWN):
            cache.set(cache_key, result, KEEP_COMPLETE if done else KEEP_PARTIAL)
    return result


def analysis(board, budget: float):
    """The engine's analysis of ``board`` within ``budget`` seconds, through
    :func:`search` and kept in the cache by position."""
    position = str(board)
    return search(
        engine_jobs.analysis, position, budget, budget=budget, kind="analysis", key=position, complete=_is_exact
    )


def _is_exact(found) -> bool:
    return found.exact
