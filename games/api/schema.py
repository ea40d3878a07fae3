"""The API's documentation pieces for drf-spectacular: the error answers each
operation can give, and what every operation shares (the Retry-After of a 429 or 503).

The error bodies are written by exceptions.py; these describe them.
"""

from __future__ import annotations

import re

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from games.api import serializers as s


def error(description: str, serializer=s.ErrorSerializer) -> OpenApiResponse:
    return OpenApiResponse(serializer, description=description)


RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    response=[202, 429, 503],
    description="Seconds to wait before asking again.",
)

CHOICES = (
    "`invalid`, with `fields` (an unknown field among them), or, when the one thing wrong is a value "
    "not among a field's choices, that field's code (`invalid_variant`, `invalid_level`, ...)"
)
INVALID = error(f"Invalid input: {CHOICES}.")
MALFORMED_OR_INVALID = error(f"Malformed JSON (`malformed_json`) or invalid input: {CHOICES}.")
SIGN_IN_REFUSED = error(
    f"Malformed JSON (`malformed_json`), invalid input ({CHOICES}), or no such account or the wrong "
    "password (`invalid_credentials`)."
)
ACCOUNT_CLOSED = error(
    "The right password for an account that cannot sign in: closed (`account_closed`), or suspended "
    "(`account_suspended`); `detail` says until when and why."
)
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
ENGINE_WORKING = error(
    "The engine has started searching this position (`engine_working`): send the same request again after "
    "Retry-After, when the answer is ready."
)
UNAVAILABLE = error("The database or Redis is not answering (`service_unavailable`): try again after Retry-After.")
REVIEW_PENDING = error(
    "The game has ended but its review is still being prepared (`review_pending`): ask again after Retry-After."
)


def operation(*, parameters=(), **kwargs):
    """extend_schema with what every operation shares: the Retry-After header of a 202, 429 or 503."""
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
CHALLENGE_REFUSED = error(
    "The challenge is closed already (`challenge_closed`) or is your own (`own_challenge`), or a bot that plays "
    "only bots is on one side and a person on the other (`bot_declines_people`)."
)
CHALLENGE_CREATE_REFUSED = error("The player you challenge is a bot that plays only bots (`bot_declines_people`).")


def answers_to_a_challenge_action(ok: dict, *errors: int, body: bool = False) -> dict:
    """Accepting, declining or cancelling a challenge: its 409 carries no game."""
    return {**answers(ok, 401, 403, 404, *errors, body=body), 409: CHALLENGE_REFUSED}


# -- the tidy-up after drf-spectacular (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]) ---------

#: One line per operation, for the docs' list and generated clients' docstrings.
SUMMARIES = {
    "games_notation": "Download a game in the notation",
    "notifications_list": "List your notifications",
    "notifications_read": "Mark your notifications read",
    "reports_list": "List your reports",
    "reports_create": "Report a player or a chat message",
    "account_bot_retrieve": "Get your bot's settings",
    "account_bot_create": "Make your account a bot",
    "account_bot_update": "Change your bot's settings",
    "analyse": "Analyse a position",
    "auth_token_create": "Get an API token",
    "auth_token_revoke": "Revoke the token in use",
    "auth_tokens_list": "List your API tokens",
    "auth_tokens_revoke": "Revoke a token",
    "auth_tokens_revoke_all": "Revoke all your tokens",
    "challenges_list": "List challenges",
    "challenges_create": "Create a challenge",
    "challenges_accept": "Accept a challenge",
    "challenges_cancel": "Cancel your challenge",
    "challenges_decline": "Decline a challenge",
    "challenges_retrieve": "Get a challenge",
    "challenges_accept_by_token": "Accept an invite link",
    "exams_list": "List your exams",
    "exams_create": "Start an exam",
    "exams_retrieve": "An exam's report",
    "exams_answers": "Answer an exam's positions",
    "games_list": "List your games",
    "games_create": "Start a game against the AI",
    "games_retrieve": "Get a game",
    "games_abort": "Abort a game",
    "games_chat_retrieve": "Read a game's chat",
    "games_chat_create": "Write in a game's chat",
    "games_chat_mute": "Mute your opponent",
    "games_chat_unmute": "Unmute your opponent",
    "games_claim_timeout": "Claim a win on time",
    "games_draw_offer": "Offer a draw",
    "games_draw_accept": "Accept a draw offer",
    "games_draw_decline": "Decline a draw offer",
    "games_moves_create": "Play a move",
    "games_rematch": "Rematch the AI",
    "games_rematch_offer": "Offer a rematch",
    "games_resign": "Resign",
    "games_review": "Review a finished game",
    "games_takeback_request": "Ask to take back a move",
    "games_takeback_accept": "Accept a takeback",
    "games_takeback_decline": "Decline a takeback",
    "leaderboard": "The leaderboard",
    "pairing_retrieve": "Your quick-pairing request",
    "pairing_create": "Ask for a quick game",
    "pairing_cancel": "Stop waiting for a quick game",
    "puzzles_list": "List puzzles",
    "puzzles_daily": "Today's puzzle",
    "puzzles_retrieve": "Get a puzzle",
    "puzzles_attempt": "Check moves on a puzzle",
    "users_stats": "A player's statistics",
}

#: What the URLs accept in a path (games/api/urls.py): ids from 1, Django's usernames.
PATH_PARAMETERS = {
    "id": {"type": "integer", "minimum": 1},
    "username": {"type": "string", "pattern": r"^[\w.@+-]+$", "minLength": 1, "maxLength": 150},
}

#: Names for enum values that are not names themselves, for generated clients
#: (``TimeControl.MINUTES_3_PLUS_2``, not ``VALUE_1``): x-enum-varnames.
_NUMBER_WORDS = {30: "SECONDS_30", 60: "MINUTE_1", 300: "MINUTES_5", 86400: "DAY_1"}


def _varname(value) -> str:
    if isinstance(value, int):
        return _NUMBER_WORDS.get(value, f"SECONDS_{value}")
    text = str(value)
    if re.fullmatch(r"\d+\+\d+", text):
        minutes, seconds = text.split("+")
        return f"MINUTES_{minutes}_PLUS_{seconds}"
    if re.fullmatch(r"\d+d", text):
        return f"DAYS_{text[:-1]}"
    if re.fullmatch(r"\d+x\d+", text):
        return f"BOARD_{text.upper()}"
    return re.sub(r"\W", "_", text).upper()


def _nodes(node):
    """Every schema-like dict in the document, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


def _component(document, ref: str) -> dict:
    return document["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def tidy(result, generator, request, public):
    """What drf-spectacular leaves loose, made strict for linters and generated clients:
    a summary on every operation; a type beside every ``nullable``; no blank ``""``
    in a query's enum (absent means "any"); readable enum value names; no unknown
    fields in a request body."""
    schemas = result["components"]["schemas"]
    for methods in result["paths"].values():
        for operation in methods.values():
            operation["summary"] = SUMMARIES[operation["operationId"]]  # a new operation needs its line here
            if operation.get("security") == [{}]:
                operation["security"] = []  # no credentials at all: generated clients then need none
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    parameter["schema"].update(PATH_PARAMETERS[parameter["name"]])
                enum = parameter.get("schema", {}).get("enum")
                if parameter["in"] == "query" and enum and "" in enum:
                    enum.remove("")
    for node in list(_nodes(result)):
        if not node.get("nullable") or "type" in node:
            continue
        if "allOf" in node and len(node["allOf"]) == 1:  # a nullable object: one of it or null
            node["oneOf"] = [node.pop("allOf")[0], {"$ref": "#/components/schemas/NullEnum"}]
            schemas.setdefault("NullEnum", {"enum": [None]})
        types = {_component(result, one["$ref"]).get("type") for one in node.get("oneOf", []) if "$ref" in one}
        types.discard(None)  # NullEnum
        if len(types) == 1:
            node["type"] = types.pop()
    for schema in list(_nodes(result)):  # components and the queries' own enums
        values = schema.get("enum")
        if isinstance(values, list) and values and "x-enum-varnames" not in schema and None not in values:
            if not all(isinstance(v, str) and re.fullmatch(r"[A-Za-z]\w*", v) for v in values):
                schema["x-enum-varnames"] = [_varname(v) for v in values]
    _refuse_unknown_fields(result)
    _describe_anonymous_operations(result)
    return result


def _refuse_unknown_fields(result) -> None:
    """Request bodies take only the fields they list (serializers.InputSerializer): say so."""
    for methods in result["paths"].values():
        for operation in methods.values():
            for content in operation.get("requestBody", {}).get("content", {}).values():
                ref = content.get("schema", {}).get("$ref")
                if ref:
                    _component(result, ref)["additionalProperties"] = False


def _anonymous(operation) -> bool:
    """Whether an operation answers a client without credentials: security ``[]`` or a ``{}`` among them."""
    security = operation.get("security")
    return security == [] or {} in (security or [])


def _describe_anonymous_operations(result) -> None:
    """Fill in the description's list of what anonymous clients may call, from the
    operations whose security allows no credentials ({}), so it is never out of date."""
    anonymous = [
        f"{method.upper()} {path}"
        for path, methods in result["paths"].items()
        for method, operation in methods.items()
        if _anonymous(operation)
    ]
    info = result["info"]
    info["description"] = info["description"].replace("{anonymous}", ", ".join(anonymous))
