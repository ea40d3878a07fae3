"""The API's documentation pieces for drf-spectacular: the error answers each
operation can give, and what every operation shares (the Retry-After of a 429 or 503).

The error bodies are written by exceptions.py; these describe them.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from games.api import serializers as s


def error(description: str, serializer=s.ErrorSerializer) -> OpenApiResponse:
    return OpenApiResponse(serializer, description=description)


RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    response=[429, 503],
    description="Seconds to wait before asking again.",
)

INVALID = error("Invalid input: `code` is `invalid` (with `fields`) or says what was wrong.")
MALFORMED_OR_INVALID = error("Malformed JSON (`malformed_json`) or invalid input (`invalid`, with `fields`).")
UNAUTHENTICATED = error("Not signed in (`not_authenticated`), or a bad token (`authentication_failed`).")
FORBIDDEN = error(
    "Not allowed: `not_a_player` (of this game or challenge), `needs_invite_link`, or `csrf_failed` "
    "(a session request without its CSRF token)."
)
NOT_FOUND = error("No such game, challenge or page (`not_found`).")
REFUSED = error("The game refused: `code` says why, `game` is the game as it now stands.", s.GameRefusalSerializer)
THROTTLED = error("Too many requests (`throttled`): see Retry-After.")
THROTTLED_OR_LOCKED_OUT = error(
    "Too many requests (`throttled`), or too many failed sign-ins for this username from this client "
    "(`locked_out`, refused even with the right password): see Retry-After."
)
UNSUPPORTED = error("The body is not JSON (`unsupported_media_type`).")
TOO_LARGE = error("The body is over the site's limit of 64 KiB (`request_too_large`); it was not read.")
UNAVAILABLE = error("The database or Redis is not answering (`service_unavailable`): try again after Retry-After.")


def operation(*, parameters=(), **kwargs):
    """extend_schema with what every operation shares: the Retry-After header of a 429 or 503."""
    return extend_schema(parameters=[*parameters, RETRY_AFTER], **kwargs)


def answers(ok: dict, *errors: int, body: bool = False) -> dict:
    """An operation's responses: ``ok`` (status -> serializer), the error statuses
    it can give, 413 and 415 when it takes a body, and 429 and 503 always."""
    table = {
        400: MALFORMED_OR_INVALID if body else INVALID,
        401: UNAUTHENTICATED,
        403: FORBIDDEN,
        404: NOT_FOUND,
        409: REFUSED,
        429: THROTTLED,
    }
    out = dict(ok)
    for code in errors:
        out[code] = table[code]
    if body:
        out[413] = TOO_LARGE
        out[415] = UNSUPPORTED
    out[429] = THROTTLED
    out[503] = UNAVAILABLE
    return out


PAIRING_REFUSED = error(
    "Refused: `already_waiting` (for another board or time control: cancel that first), `already_paired` "
    "(someone was paired with you: `game` is the game) or `not_waiting` (cancelled or expired already).",
    s.ErrorSerializer,
)
CHALLENGE_REFUSED = error("The challenge is closed already (`challenge_closed`) or is your own (`own_challenge`).")


def answers_to_a_challenge_action(ok: dict, *errors: int, body: bool = False) -> dict:
    """Accepting, declining or cancelling a challenge: its 409 carries no game."""
    return {**answers(ok, 401, 403, 404, *errors, body=body), 409: CHALLENGE_REFUSED}
