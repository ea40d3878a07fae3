"""Asking the engine on behalf of a request, without waiting for it.

:func:`ask` is the one way a page or the API gets a search made (see the
package's docstring). With ``ENGINE_PROCESSES`` off (the tests, ``manage.py``
commands) a search that is not answered at once runs in the caller's thread,
charged the same way: there is no pool to hand it to.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from contextlib import suppress

from django.conf import settings
from django.core.cache import cache

from games import engine
from games.engine_work import budget as engine_budget
from games.engine_work import jobs as engine_jobs
from games.engine_work.pool import engine_pool
from games.errors import EngineBusy, EngineWorking
from games.serving import outages

#: How long an answer is kept: a day when complete, five minutes when a time
#: bound cut it short (a later try, with the engine's memory warmer, may finish it).
KEEP_COMPLETE, KEEP_PARTIAL = 24 * 3600, 300
#: Seconds past its own time bound a search may run before the pool ends it.
#: Every search stops itself at its bound; this only ends one that does not,
#: and it is wide so that a machine too loaded to give a search its seconds
#: on time is not taken for one.
POOL_MARGIN = 30.0
#: Seconds a search the pool had to end is refused for, rather than started again at once.
FAILED_FOR = 10
#: Seconds after which a page asks again for a search under way.
ASK_AGAIN_AFTER = 1

_MISSING = object()

# The answers this process's pool delivered, newest last: the page that asks
# again finds its answer here too while the cache (Redis) is down.
_delivered: OrderedDict[str, object] = OrderedDict()
_DELIVERED_LIMIT = 256
_delivered_lock = threading.Lock()


def _key(job, args: tuple) -> str:
    digest = hashlib.sha256(repr(args).encode()).hexdigest()[:32]
    return f"engine:{job.__name__}:{digest}"


def _recall(key: str):
    with _delivered_lock:
        found = _delivered.get(key, _MISSING)
    if found is not _MISSING:
        return found
    with suppress(*outages.REDIS_DOWN):
        return cache.get(key, _MISSING)
    return _MISSING


def _keep(key: str, result, complete: bool, *, delivered: bool = False) -> None:
    if delivered:
        with _delivered_lock:
            _delivered[key] = result
            while len(_delivered) > _DELIVERED_LIMIT:
                _delivered.popitem(last=False)
    with suppress(*outages.REDIS_DOWN):
        cache.set(key, result, KEEP_COMPLETE if complete else KEEP_PARTIAL)


def forget() -> None:
    """Forget the answers this process's pool delivered (the cache keeps its own)."""
    with _delivered_lock:
        _delivered.clear()


def _answered_at_once(args: tuple) -> bool:
    """A 3x3 position is a look-up in the solved table: no search, free."""
    position = args[0] if args else None
    return isinstance(position, str) and len(position) == 9


def _accounts(request) -> tuple:
    """Whom a search is charged to: nobody when no request asked for it (a command, the worker)."""
    return () if request is None else engine_budget.accounts_of(request)


def ask(request, job, *args, budget: float, complete=None, at_once=None):
    """``job(*args)`` (a function of :mod:`games.engine_work.jobs` whose
    first argument is a position) for ``request``'s visitor, bounded by
    ``budget`` seconds of search.

    Answered at once from the cache or, on 3x3, by the engine. Otherwise the
    search is charged to the visitor and handed to an engine process, and
    :class:`~games.errors.EngineWorking` says to ask again. Raises
    EngineRateLimited past the visitor's or the address's budget, EngineBusy
    when the queue is full. ``complete(result)`` says whether the answer is
    whole (kept a day) or was cut short by its time bound (kept five minutes).
    ``at_once`` says whether the job answers at once, in this thread, for
    free; by default a job on a 3x3 position does."""
    key = _key(job, args)
    found = _recall(key)
    if found is not _MISSING:
        return found
    if _answered_at_once(args) if at_once is None else at_once:
        return job(*args)[0]
    whole = complete or (lambda result: True)
    if not getattr(settings, "ENGINE_PROCESSES", False):
        return _search_here(request, key, job, args, budget, whole)
    _hand_over(request, key, job, args, budget, whole)


def _search_here(request, key: str, job, args: tuple, budget: float, whole):
    """The search in this thread, charged the seconds it searched (no pool: the tests, commands)."""
    reservation = engine_budget.reserve(_accounts(request), budget)
    try:
        result, seconds = job(*args)
    except BaseException:
        reservation.settle(0)
        raise
    reservation.settle(seconds)
    _keep(key, result, whole(result))
    return result


def _hand_over(request, key: str, job, args: tuple, budget: float, whole):
    """Charge the search and hand it to this process's pool; raises
    EngineWorking once it is under way, or the refusal."""
    with suppress(*outages.REDIS_DOWN):
        if cache.get(f"{key}:failed"):
            raise EngineBusy("the engine took too long on this position; try again later", retry_after=FAILED_FOR)
    working = EngineWorking("the engine is working on this position", retry_after=ASK_AGAIN_AFTER)
    # One search for one question in the whole site: the page asking again may
    # reach another server process than the one searching. The mark outlives
    # a search that waited in the queue; a process that died leaves it to expire.
    running = f"{key}:running"
    with suppress(*outages.REDIS_DOWN):
        if not cache.add(running, True, timeout=math.ceil(2 * (budget + POOL_MARGIN))):
            raise working
    try:
        accounts = _accounts(request)
        reservation = engine_budget.reserve(accounts, budget)
    except BaseException:
        _forget_running(running)
        raise

    def done(future):
        try:
            result, seconds = future.result()
        except Exception:  # ended past its time bound, or the process died: charged in full
            with suppress(*outages.REDIS_DOWN):
                cache.set(f"{key}:failed", True, FAILED_FOR)
        else:
            reservation.settle(seconds)
            _keep(key, result, whole(result), delivered=True)
        _forget_running(running)

    visitor = accounts[0].name if accounts else ""
    try:
        started = engine_pool().submit(key, visitor, job, args, budget + POOL_MARGIN, done)
    except EngineBusy:
        reservation.settle(0)
        _forget_running(running)
        raise
    if not started:  # the same search under way in this process (the cache is down)
        reservation.settle(0)
    raise working


def _forget_running(running: str) -> None:
    with suppress(*outages.REDIS_DOWN):
        cache.delete(running)


def analysis(request, board: engine.Board, budget: float) -> engine.Analysis:
    """The engine's analysis of ``board`` within ``budget`` seconds, through :func:`ask`."""
    return ask(request, engine_jobs.analysis, str(board), budget, budget=budget, complete=_is_exact)


def _is_exact(found) -> bool:
    """Whole: every cell solved, and the traps counted."""
    return found.exact and found.traps is not None
