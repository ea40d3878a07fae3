"""Engine work asked for by a request: hints, the AI's thinking on a game page,
the analysis board, puzzles and ``/api/analyse/``.

A page-serving thread never waits on a search. :func:`asking.ask` answers

- at once, for free, what needs no search: any 3x3 position (a table look-up)
  and anything answered before (Django's cache);
- otherwise it charges the visitor's engine-seconds budget
  (:mod:`games.engine_work.budget`), hands the search to this process's pool
  of engine processes (:mod:`games.engine_work.pool`) and raises
  :class:`~games.errors.EngineWorking`: the page says "working" and asks
  again a moment later, when the answer waits in the cache;
- or refuses at once: :class:`~games.errors.EngineBusy` when the pool's queue
  is full, :class:`~games.errors.EngineRateLimited` past the budget.

The searches themselves are the plain functions of
:mod:`games.engine_work.jobs`, which import no Django.
"""
