"""The background worker: what must happen when nobody is on the site.

``python manage.py run_worker`` runs it as its own process (``scripts/run``
starts one beside the web server; production runs it as a service of its own,
see docs/operations.md). It:

- ends every game whose player to move has run out of time (a loss on time, a
  draw when the other side could no longer win, or an abort before a first
  move), as soon as its deadline passes, and pushes the result to the players
  and spectators;
- makes the moves the AI owes (a server stopped while it thought);
- pairs the players waiting for a quick game whose rating ranges have widened
  enough meanwhile, and expires the requests nobody's page checks in on;
- reviews the games that have just ended, a few every two seconds, and stores
  each review with its game (the pages and the API read it, never search);
- makes new puzzles from the finished games, every hour;
- mails players whose turn it is in a correspondence game and who have been
  away for ten minutes (once per turn), and forgets notifications older than
  30 days;
- opens the accounts whose suspension is over, every minute.

It keeps no state of its own: each pass asks the database which games are
overdue, so a worker started after a stop catches up on every game that ran out
of time meanwhile, and the services lock each game before ending it, so with
several workers (or a player's request racing one) each game ends exactly once.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import close_old_connections
from django.utils import timezone

from games.play import selectors, services

logger = logging.getLogger(__name__)

#: The longest the worker sleeps between passes, in seconds: how late a flag
#: can fall when a deadline is set while it sleeps (a move made meanwhile).
POLL_SECONDS = 0.25


@dataclass
class Job:
    """Work done every ``every`` seconds, in a thread of its own so that a long
    run never holds up the clocks."""

    name: str
    every: float
    run: callable
    next_at: float = 0.0
    thread: threading.Thread | None = field(default=None, repr=False)

    def start_if_due(self, clock: float) -> None:
        if clock < self.next_at or (self.thread is not None and self.thread.is_alive()):
            return
        self.next_at = clock + self.every
        self.thread = threading.Thread(target=self._run, name=f"worker-{self.name}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.run()
        except Exception:  # one failed run must not stop the worker; the next one tries again
            logger.exception("the %s job failed", self.name)
        finally:
            close_old_connections()


def _owed_ai_moves() -> None:
    # A reply owed for a minute is not being thought about by any request.
    quiet = timezone.now() - timedelta(minutes=1)
    for game_id in selectors.games_owing_ai_move(unchanged_since=quiet):
        services.game_play_ai_move(game_id=game_id)


def _pair_waiting() -> None:
    from games.lobby import pairing_services

    started = pairing_services.pairing_match_waiting()
    if started:
        logger.info("paired %d quick game(s)", started)


#: Games reviewed per pass of the reviews job, the longest finished first. A
#: few: each pass asks the database afresh, so a game another worker reviewed
#: meanwhile is not searched again (``manage.py review_games`` does a whole
#: existing database at once).
REVIEWS_PER_PASS = 5


def _review_finished_games() -> None:
    from games.play import review_services

    reviewed = review_services.games_review(limit=REVIEWS_PER_PASS)
    if reviewed:
        logger.info("reviewed %d finished game(s)", reviewed)


def _new_puzzles() -> None:
    from games.learn import puzzle_services

    # 3x3 and 4x4: a 5x5 position can take the solver minutes, which an hourly
    # job has no business spending (``manage.py make_puzzles --variant 5x5``).
    for variant in ("3x3", "4x4"):
        made = puzzle_services.puzzles_make(variant=variant)
        if made.made:
            logger.info("made %d new %s puzzle(s)", len(made.made), variant)


def _turn_mails() -> None:
    from games.notifications import services as notification_services

    sent = notification_services.turn_mails_send()
    if sent:
        logger.info("mailed %d player(s) their turn", sent)


def _forget_notifications() -> None:
    from games.notifications import services as notification_services

    notification_services.notifications_forget()


def _end_suspensions() -> None:
    from games.moderation import services as moderation_services

    opened = moderation_services.suspensions_end()
    if opened:
        logger.info("opened %d account(s) at the end of their suspension", opened)


def default_jobs() -> list[Job]:
    return [
        Job("owed AI moves", every=60, run=_owed_ai_moves),
        Job("pairing", every=2, run=_pair_waiting),
        Job("reviews", every=2, run=_review_finished_games),
        Job("puzzles", every=3600, run=_new_puzzles),
        Job("turn mails", every=30, run=_turn_mails),
        Job("forget notifications", every=3600, run=_forget_notifications),
        Job("suspensions", every=60, run=_end_suspensions),
    ]


def end_games_out_of_time(now=None) -> int:
    """One pass of the clocks: end every game out of time at ``now``; how many
    this worker ended (another worker or a request may end some first)."""
    now = now or timezone.now()
    ended = 0
    for game_id in selectors.games_out_of_time(now):
        try:
            ended += services.game_end_on_time(game_id=game_id, now=now)
        except Exception:
            logger.exception("could not end game %s on time", game_id)
    return ended


def run(stop: threading.Event, *, jobs: list[Job] | None = None, poll: float = POLL_SECONDS, report=None) -> None:
    """Pass after pass until ``stop`` is set: the clocks first, then any job due."""
    jobs = default_jobs() if jobs is None else jobs
    while not stop.is_set():
        try:
            ended = end_games_out_of_time()
            if ended and report:
                report(f"Ended {ended} game(s) on time.")
            for job in jobs:
                job.start_if_due(time.monotonic())
            soonest = selectors.next_deadline(timezone.now())
        except Exception:  # the database went away: say so, wait, try again
            logger.exception("the worker's pass failed")
            soonest = None
            stop.wait(5)
        finally:
            close_old_connections()
        wait = poll
        if soonest is not None:
            wait = min(poll, max(0.0, (soonest - timezone.now()).total_seconds()))
        stop.wait(wait)
