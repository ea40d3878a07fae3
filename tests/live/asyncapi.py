"""The protocol's document (games/api/asyncapi.yaml), for checking what the
sockets say against it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator, FormatChecker

DOCUMENT_PATH = Path(__file__).resolve().parents[2] / "games" / "api" / "asyncapi.yaml"


@cache
def document() -> dict:
    return yaml.safe_load(DOCUMENT_PATH.read_text())


def channel_of(path: str) -> str:
    return "/ws/games/{gameId}/" if path.startswith("/ws/games/") else "/ws/lobby/"


def messages(channel: str, operation: str) -> dict[str, dict]:
    """The messages of ``channel`` sent by the server ("subscribe") or the
    client ("publish"), by their name (a message's "type" or "action")."""
    listed = document()["channels"][channel][operation]["message"]
    found = {}
    for reference in listed.get("oneOf", [listed]):
        component = reference["$ref"].rsplit("/", 1)[-1]
        message = document()["components"]["messages"][component]
        found[message["name"]] = message
    return found


def validator(message: dict) -> Draft202012Validator:
    schema = {**message["payload"], "components": document()["components"]}
    return Draft202012Validator(schema, format_checker=FormatChecker())


def check_received(path: str, received: dict) -> None:
    """Fail unless ``received``, heard on the socket at ``path``, is one of
    the document's messages for that channel and matches its schema."""
    known = messages(channel_of(path), "subscribe")
    kind = received.get("type")
    assert kind in known, f"{kind!r} on {path} is not in games/api/asyncapi.yaml"
    errors = sorted(validator(known[kind]).iter_errors(received), key=str)
    assert not errors, f"{received} does not match the document: {[e.message for e in errors]}"
