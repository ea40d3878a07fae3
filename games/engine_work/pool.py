"""This server process's engine processes: a pebble ``ProcessPool`` of
``ENGINE_SLOTS`` processes at a lower priority than the pages, and a bounded
queue in front of it.

A search is handed over and the request goes on at once; the pool calls back
when it ends. At most ``ENGINE_QUEUE`` searches wait or run in one server
process, and at most ``ENGINE_SEARCHES_PER_VISITOR`` of them for one visitor;
past either the search is refused at once (:class:`~games.errors.EngineBusy`).
A search that outlives its time bound is ended by the pool (pebble stops the
process and starts another). When the server process ends, its engine
processes end too: each one leaves when the pipe to its parent closes.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import Counter

from django.conf import settings
from pebble import ProcessPool

from games.errors import EngineBusy

DEFAULT_SLOTS = 2
DEFAULT_QUEUE = 8
DEFAULT_SEARCHES_PER_VISITOR = 2
#: Seconds a client is asked to wait when the engine refuses as busy.
BUSY_RETRY_AFTER = 2


def _yield_to_pages() -> None:
    """Run in each engine process as it starts: the pages' threads come first."""
    os.nice(10)


class EnginePool:
    """The pool and its queue, made on the first search of a server process."""

    def __init__(self, slots: int, queue: int, per_visitor: int):
        self.slots, self.queue, self.per_visitor = slots, queue, per_visitor
        # "spawn": a server process runs threads, which a fork would copy mid-flight.
        self.pool = ProcessPool(
            max_workers=slots, initializer=_yield_to_pages, context=multiprocessing.get_context("spawn")
        )
        self.lock = threading.Lock()
        self.running: dict[str, str] = {}  # the search's key -> the visitor it runs for
        self.by_visitor: Counter[str] = Counter()

    def submit(self, key: str, visitor: str, job, args: tuple, timeout: float, done) -> bool:
        """Hand ``job(*args)`` (a function of :mod:`games.engine_work.jobs`) to
        an engine process; ``done(future)`` is called when it ends. False when
        the same ``key`` is already running here; EngineBusy when the queue, or
        the visitor's share of it, is full."""
        with self.lock:
            if key in self.running:
                return False
            if len(self.running) >= self.queue:
                raise EngineBusy(
                    "the engine is busy with other searches; try again in a moment", retry_after=BUSY_RETRY_AFTER
                )
            if self.by_visitor[visitor] >= self.per_visitor:
                raise EngineBusy(
                    f"the engine is already searching {self.per_visitor} positions for you; "
                    "try again when they are done",
                    retry_after=BUSY_RETRY_AFTER,
                )
            future = self.pool.schedule(job, args=args, timeout=timeout)
            self.running[key] = visitor
            self.by_visitor[visitor] += 1

        def ended(finished):
            with self.lock:
                self.running.pop(key, None)
                self.by_visitor[visitor] -= 1
                if self.by_visitor[visitor] <= 0:
                    del self.by_visitor[visitor]
            done(finished)

        future.add_done_callback(ended)
        return True

    def stop(self) -> None:
        """End the engine processes (a search under way is given up)."""
        self.pool.stop()
        self.pool.join(timeout=5)


_lock = threading.Lock()
_pool: EnginePool | None = None


def engine_pool() -> EnginePool:
    """This process's pool, made on first use (again when the settings changed, in tests)."""
    global _pool
    shape = (
        max(1, int(getattr(settings, "ENGINE_SLOTS", DEFAULT_SLOTS))),
        max(1, int(getattr(settings, "ENGINE_QUEUE", DEFAULT_QUEUE))),
        max(1, int(getattr(settings, "ENGINE_SEARCHES_PER_VISITOR", DEFAULT_SEARCHES_PER_VISITOR))),
    )
    with _lock:
        if _pool is None or (_pool.slots, _pool.queue, _pool.per_visitor) != shape:
            if _pool is not None:
                _pool.stop()
            _pool = EnginePool(*shape)
        return _pool


def shut_down() -> None:
    """End this process's engine processes; the next search starts a new pool."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.stop()
