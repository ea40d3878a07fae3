"""The error codes the schema lists (games/api/codes.py) are the codes the server
sends: a bot can rely on each one it reads in the schema, and meets none other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rest_framework import exceptions as drf

from games import errors
from games.api import exceptions
from games.api.codes import ERROR_CODES
from tests.api.conftest import assert_error

GAMES = Path(__file__).resolve().parents[2] / "games"
LISTED = {code for code, _ in ERROR_CODES}
# DRF's own refusals, which the API meets (authentication, permissions, routing, content negotiation).
DRF_SENDS = {
    cls.default_code
    for cls in (
        drf.NotAuthenticated,
        drf.AuthenticationFailed,
        drf.PermissionDenied,
        drf.NotFound,
        drf.MethodNotAllowed,
        drf.NotAcceptable,
        drf.UnsupportedMediaType,
        drf.Throttled,
    )
}
# Codes that the site's pages or forms use, which no API answer carries.
NOT_THE_APIS = {"refused", "account_refused", "last_superuser", "lookalike", "password_incorrect", "closed"}
# A moderator's decisions are made in the admin, never through the API; the API's note is a string.
MODERATORS_ONLY = {
    "staff_account",
    "duration_missing",
    "reason_missing",
    "reason_too_long",
    "invalid_note",
    "invalid_sanction",
    "invalid_decision",
}
NOT_THE_APIS |= MODERATORS_ONLY
# The live updates (websocket) refuse in their own words, documented in games/api/asyncapi.yaml.
SOCKET_ONLY = {"malformed", "unknown_action"}
# A serializer's own word for one field's error; the body's code is then "invalid".
FIELD_DETAIL_ONLY = {"invalid_position"}


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _codes_in_source() -> set[str]:
    pattern = re.compile(r'(?:\bcode\s*=\s*|"code":\s*|default_code\s*=\s*)"([a-z_]+)"')
    found = set()
    for path in GAMES.rglob("*.py"):
        if path.name != "codes.py":
            found.update(pattern.findall(path.read_text()))
    return found


def sent() -> set[str]:
    return (
        _codes_in_source()
        | {cls.code for cls in _subclasses(errors.GameError)}
        | set(exceptions.CODES.values())
        | set(exceptions.CHOICE_CODES.values())
        | DRF_SENDS
    )


def test_every_listed_code_is_sent():
    assert LISTED - sent() == set()


def test_every_code_sent_is_listed():
    assert sent() - NOT_THE_APIS - SOCKET_ONLY - FIELD_DETAIL_ONLY - LISTED == set()


@pytest.mark.parametrize(
    "path, data, code",
    [
        ("/api/games/", {"variant": "6x6"}, "invalid_variant"),
        ("/api/games/", {"level": "godlike"}, "invalid_level"),
        ("/api/games/", {"side": "Z"}, "invalid_side"),
        ("/api/games/", {"start_mode": "corner"}, "invalid_start_mode"),
        ("/api/challenges/", {"kind": "public"}, "invalid_kind"),
        ("/api/pairing/", {"board": "9x9", "time_control": "3+2"}, "invalid_board"),
        ("/api/challenges/", {"move_time_limit": 45}, "invalid_time_limit"),
    ],
)
def test_a_value_not_among_the_choices_has_its_own_code(as_alice, path, data, code):
    body = assert_error(as_alice.post(path, data, format="json"), 400, code)
    assert len(body["fields"]) == 1


def test_two_bad_fields_are_plain_invalid(as_alice):
    body = assert_error(as_alice.post("/api/games/", {"variant": "6x6", "side": "Z"}, format="json"), 400, "invalid")
    assert set(body["fields"]) == {"variant", "side"}
