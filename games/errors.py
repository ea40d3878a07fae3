"""The refusals the services raise, in the game's words, not HTTP's.

A refused action raises a :class:`GameError` whose ``code`` says why in a word
a program can test and whose message says it in a sentence a person can read;
nothing stored changes. Which HTTP status a refusal becomes is decided where
HTTP lives: :func:`games.serving.http.status_of`, used by the pages and the
API's exception handler.
"""

from __future__ import annotations


class GameError(Exception):
    """An action that was refused: on a game, a challenge or an account.

    ``game`` is the game the refusal is about, as it now stands, when there is
    one: a client can redraw it and carry on without asking again.
    """

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None, game=None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.game = game


class InvalidInput(GameError):
    """Input that is not well formed: a cell that is not a cell, an unknown level."""

    code = "invalid"


class NotAPlayer(GameError):
    """Someone acting on a game (or a challenge) that is not theirs to act on."""

    code = "not_a_player"


class MoveRefused(GameError):
    """A well-formed action the game refuses: occupied, out of turn, stale, or over."""

    code = "illegal_move"


class GameNotFinished(GameError):
    """Asking for what only a finished game has (its review)."""

    code = "game_not_finished"


class ChallengeRefused(GameError):
    """A challenge that cannot be accepted, declined or cancelled (any more)."""

    code = "challenge_closed"


class PairingRefused(GameError):
    """A quick-pairing request that cannot be made or cancelled now: waiting for
    another game already, paired already, or over."""

    code = "pairing_refused"


class AccountRefused(GameError):
    """An account that may not be deleted: the last superuser."""

    code = "account_refused"


class AccountClosed(GameError):
    """The right password for an account that cannot sign in: closed, or suspended for a time."""

    code = "account_closed"


class SignInLocked(GameError):
    """Too many failed sign-ins from this client for this username (django-axes):
    refused, even with the right password, until ``retry_after`` seconds pass."""

    code = "locked_out"

    def __init__(self, message: str, *, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def require_choice(value: str, choices, what: str) -> str:
    """``value`` if it is one of ``choices`` (a TextChoices), else InvalidInput naming ``what``."""
    if value not in choices.values:
        allowed = ", ".join(choices.values)
        raise InvalidInput(f"{what} {value!r} is not one of {allowed}", code=f"invalid_{what.replace(' ', '_')}")
    return value


class ReportRefused(GameError):
    """A report or a sanction refused: reported already, an account that cannot be sanctioned."""

    code = "report_refused"


class ReportsRateLimited(ReportRefused):
    """Too many reports from one player in a day: refused until ``retry_after`` seconds pass."""

    code = "reports_rate_limited"

    def __init__(self, message: str, *, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class ChatRefused(GameError):
    """A chat message or mute the game refuses: no chat against the AI, or a muted sender."""

    code = "chat_refused"


class ChatRateLimited(ChatRefused):
    """Chat messages sent too fast: refused until ``retry_after`` seconds pass."""

    code = "chat_rate_limited"

    def __init__(self, message: str, *, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class EngineRefused(GameError):
    """A search the engine does not answer now for this request (games/engine_work/):
    the page or answer goes without it; ``retry_after`` seconds later it may be asked again."""

    code = "engine_refused"

    def __init__(self, message: str, *, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class EngineRateLimited(EngineRefused):
    """This client asked the engine for more searches than its rate allows."""

    code = "engine_rate_limited"


class EngineBusy(EngineRefused):
    """The engine's queue on this server, or the visitor's share of it, is full: try again in a moment."""

    code = "engine_busy"


class EngineWorking(EngineRefused):
    """The search has started in an engine process: ask again in ``retry_after``
    seconds, when its answer waits in the cache."""

    code = "engine_working"
