"""Seconds of engine time per visitor and per address, counted in Django's cache.

A search is charged to the visitor who asked (the signed-in account, else a
token kept in the guest's session) and to their address: the visitor's share
is ``ENGINE_SECONDS_GUEST`` or ``ENGINE_SECONDS_USER``, the address's
``ENGINE_SECONDS_ADDRESS``, large enough for a class behind one router. Each
is so many seconds of search a period ("30/min").

A search reserves its whole time bound when it starts and gives back what it
did not use when it ends, so a visitor cannot start more searches than their
budget covers. A search may start while the seconds already spent are under the
budget. Counts live in one fixed window per period, so the budget starts again
when the window turns. While the cache is down nobody is counted: the budget
protects the engine, it must never stop the site.
"""

from __future__ import annotations

import math
import secrets
import time
from contextlib import suppress
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from games.errors import EngineRateLimited
from games.serving import outages
from games.serving.clients import client_address

DEFAULT_SECONDS_GUEST = "30/min"
DEFAULT_SECONDS_USER = "60/min"
DEFAULT_SECONDS_ADDRESS = "600/min"

#: Where a guest's visitor token lives in their session.
VISITOR_SESSION_KEY = "engine_visitor"

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_PERIOD_WORDS = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}


def parse_rate(rate: str) -> tuple[float, int]:
    """ "30/min" -> (30.0, 60): seconds of search allowed, per so many seconds."""
    seconds, period = rate.split("/")
    return float(seconds), _PERIODS[period.strip()[0]]


def seconds_words(seconds: float) -> str:
    """ "1 second", "0.5 seconds", "30 seconds"."""
    return "1 second" if seconds == 1 else f"{seconds:g} seconds"


def period_words(seconds: int) -> str:
    """ "minute" for 60: the period of a rate, in words."""
    return _PERIOD_WORDS.get(seconds, f"{seconds} seconds")


def rates() -> dict[str, str]:
    """The budgets in force, by whom they fall on (the README and the 429 page show them)."""
    return {
        "guest": getattr(settings, "ENGINE_SECONDS_GUEST", DEFAULT_SECONDS_GUEST),
        "user": getattr(settings, "ENGINE_SECONDS_USER", DEFAULT_SECONDS_USER),
        "address": getattr(settings, "ENGINE_SECONDS_ADDRESS", DEFAULT_SECONDS_ADDRESS),
    }


@dataclass(frozen=True)
class Account:
    """One budget: its counter's name, and its rate."""

    name: str
    rate: str
    words: str  # whose budget, for the refusal's message


def accounts_of(request) -> tuple[Account, Account]:
    """(the visitor's budget, the address's budget) for ``request``."""
    every = rates()
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        visitor = Account(f"user:{user.pk}", every["user"], "you")
    else:
        token = request.session.get(VISITOR_SESSION_KEY)
        if not token:
            token = request.session[VISITOR_SESSION_KEY] = secrets.token_hex(8)
        visitor = Account(f"guest:{token}", every["guest"], "you")
    address = Account(f"addr:{client_address(request)}", every["address"], "your network")
    return visitor, address


@dataclass(frozen=True)
class Reservation:
    """Seconds reserved for one search in the windows they were taken from."""

    counters: tuple[str, ...]
    milliseconds: int

    def settle(self, seconds: float) -> None:
        """The search took ``seconds``: give back the rest of what was reserved."""
        unused = self.milliseconds - max(0, math.ceil(seconds * 1000))
        if unused <= 0:
            return
        for counter in self.counters:
            with suppress(ValueError, *outages.REDIS_DOWN):  # ValueError: the window has turned
                cache.decr(counter, unused)


def _counter(account: Account, now: float) -> tuple[str, float, int]:
    """(the counter of the current window, seconds allowed in it, seconds until it turns)."""
    allowed, period = parse_rate(account.rate)
    window = int(now // period)
    return f"engine-seconds:{account.name}:{window}", allowed, max(1, math.ceil((window + 1) * period - now))


def spent(account: Account) -> float:
    """Seconds of search charged to ``account`` in the current window."""
    counter, _, _ = _counter(account, time.time())
    with suppress(*outages.REDIS_DOWN):
        return (cache.get(counter) or 0) / 1000
    return 0.0


def reserve(accounts: tuple[Account, ...], seconds: float) -> Reservation:
    """Reserve ``seconds`` of search against every one of ``accounts``, or
    raise EngineRateLimited when one of them had spent its budget already.
    Each counter is added to first and read back after, so requests arriving
    together cannot all pass one check."""
    now = time.time()
    milliseconds = math.ceil(seconds * 1000)
    taken: list[str] = []
    try:
        for account in accounts:
            counter, allowed, wait = _counter(account, now)
            _, period = parse_rate(account.rate)
            with suppress(*outages.REDIS_DOWN):
                cache.add(counter, 0, timeout=period + 1)
                try:
                    total = cache.incr(counter, milliseconds)
                except ValueError:  # expired between add and incr: a new window
                    cache.set(counter, milliseconds, timeout=period + 1)
                    total = milliseconds
                taken.append(counter)
                if total - milliseconds >= allowed * 1000:
                    raise EngineRateLimited(
                        f"the engine has searched {seconds_words(allowed)} for {account.words} in the last "
                        f"{period_words(period)}; try again in {seconds_words(wait)}",
                        retry_after=wait,
                    )
    except EngineRateLimited:
        Reservation(tuple(taken), milliseconds).settle(0)
        raise
    return Reservation(tuple(taken), milliseconds)
