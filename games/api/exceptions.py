"""One error body for the whole API, whatever raised the error.

    {"code": "stale_ply", "message": "the game has moved on: ...", "game": {...}}

``code`` is a word a program can test, ``message`` a sentence a person can
read. Invalid input adds ``fields`` (messages by field name); a refused action
on a game (409) adds ``game``, the game as it now stands, so a client can
redraw and carry on without asking again.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from games.api.serializers import GameSerializer
from games.errors import GameError
from games.serving import outages
from games.serving.http import status_of
from games.serving.middleware import service_unavailable

logger = logging.getLogger("django.request")

# Where DRF's own code says too little or names it differently.
CODES = {
    exceptions.ValidationError: "invalid",
    exceptions.ParseError: "malformed_json",
}


def api_exception_handler(exc, context):
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every exception a view raises, as one body shape."""
    request = context.get("request")
    if isinstance(exc, GameError):
        response = Response(_game_error_body(exc, request), status=status_of(exc))
        if getattr(exc, "retry_after", None):  # a locked-out sign-in (errors.SignInLocked)
            response["Retry-After"] = str(exc.retry_after)
        return response
    service = outages.service_down(exc)
    if service is not None:  # PostgreSQL or Redis stopped (the throttles count in Redis): 503, Retry-After
        return service_unavailable(request, exc, service)
    if isinstance(exc, ObjectDoesNotExist):
        # The services look games and challenges up by id and let Model.DoesNotExist through.
        thing = type(exc).__qualname__.split(".")[0].lower()
        exc = exceptions.NotFound(f"There is no such {thing}.")
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)  # headers (Retry-After, WWW-Authenticate), rollback
    if response is None:
        if settings.DEBUG:
            return None  # Django's technical page, with the traceback
        logger.error("Unexpected error in the API at %s", request.path if request else "?", exc_info=exc)
        return Response(
            {"code": "server_error", "message": "Something went wrong on the server; it has been logged."},
            status=500,
        )
    response.data = error_body(exc)
    return response


def error_body(exc: exceptions.APIException) -> dict:
    if isinstance(exc, exceptions.ValidationError):
        return _validation_body(exc.detail)
    code = next((code for cls, code in CODES.items() if isinstance(exc, cls)), None)
    detail = exc.detail
    if code is None:
        code = getattr(detail, "code", None) or exc.default_code
    return {"code": code, "message": str(detail)}


def _game_error_body(exc: GameError, request) -> dict:
    body = {"code": exc.code, "message": _sentence(exc.message)}
    if status_of(exc) == 409 and exc.game is not None:
        body["game"] = GameSerializer(exc.game, context={"request": request}).data
    return body


def _sentence(text: str) -> str:
    """The services write messages to sit inside a sentence; here they stand alone."""
    text = str(text)
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# A value not among a field's choices, and nothing else wrong: the word for that field.
CHOICE_CODES = {
    "variant": "invalid_variant",
    "board": "invalid_board",
    "level": "invalid_level",
    "side": "invalid_side",
    "start_mode": "invalid_start_mode",
    "kind": "invalid_kind",
    "reason": "invalid_reason",
    "time_control": "invalid_time_control",
    "move_time_limit": "invalid_time_limit",
}


def _code_of(detail) -> str:
    """``invalid``, or ``invalid_variant`` and the like when the one thing wrong is
    a value of that field not among its choices (a bot can test for it)."""
    if isinstance(detail, dict) and len(detail) == 1:
        ((name, errors),) = detail.items()
        errors = errors if isinstance(errors, list) else [errors]
        if name in CHOICE_CODES and errors and all(getattr(e, "code", None) == "invalid_choice" for e in errors):
            return CHOICE_CODES[name]
    return CODES[exceptions.ValidationError]


def _validation_body(detail) -> dict:
    code = _code_of(detail)
    if isinstance(detail, dict):
        fields = {name: _messages(value) for name, value in detail.items()}
        general = fields.pop(api_settings.NON_FIELD_ERRORS_KEY, [])
    else:
        fields, general = {}, _messages(detail)
    if general:
        message = " ".join(general)
    elif fields:
        name, messages = next(iter(fields.items()))
        message = f"{name}: {messages[0]}" if messages else "The input is not valid."
    else:
        message = "The input is not valid."
    body = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return body


def _messages(value) -> list[str]:
    """Flatten DRF's nested error details into a list of sentences."""
    if isinstance(value, dict):
        return [f"{key}: {message}" for key, item in value.items() for message in _messages(item)]
    if isinstance(value, (list, tuple)):
        return [message for item in value for message in _messages(item)]
    return [str(value)]
