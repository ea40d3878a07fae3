"""What a refusal is in HTTP: one table for the pages and the API alike.

The services raise :class:`games.errors.GameError` and know nothing of HTTP;
a view that answers a refusal with a status, and the API's exception handler,
ask here.
"""

from __future__ import annotations

from games.errors import (
    AccountClosed,
    ChatRateLimited,
    EngineBusy,
    EngineRateLimited,
    EngineWorking,
    GameError,
    InvalidInput,
    NotAPlayer,
    ReportsRateLimited,
    SignInLocked,
)

#: The most specific class wins: the table is read in order.
STATUSES: list[tuple[type[GameError], int]] = [
    (InvalidInput, 400),  # malformed input
    (NotAPlayer, 403),  # not yours to act on
    (AccountClosed, 403),  # an account closed or suspended: no sign-in
    (SignInLocked, 429),  # too many failed sign-ins: wait
    (ChatRateLimited, 429),  # chat messages sent too fast: wait
    (ReportsRateLimited, 429),  # too many reports in a day: wait
    (EngineRateLimited, 429),  # too many searches asked of the engine: wait
    (EngineBusy, 503),  # the engine's queue is full: try again in a moment
    (EngineWorking, 202),  # the search has started: ask again in a moment
    (GameError, 409),  # well formed, but the game (or challenge, or account) refuses it now
]


def status_of(error: GameError) -> int:
    """The HTTP status of a refusal: 400, 403, 409, 429 or 503 (202 for a search under way)."""
    return next(status for cls, status in STATUSES if isinstance(error, cls))
