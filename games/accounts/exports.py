"""A player's games as a file to download, JSON or CSV, written a piece at a time.

Each function takes the games as an iterator (selectors.player_games_for_export)
and yields text, so a player with tens of thousands of games gets a download
that starts at once and is never held whole in memory.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator

from django.core.serializers.json import DjangoJSONEncoder

from games.engine import other_side
from games.play.models import Game

#: Games per piece of text handed to the response: fewer, larger writes.
GAMES_PER_PIECE = 200

#: The result of a game from the player's side, in the export's words.
OUTCOMES = {"won": "win", "lost": "loss", "drawn": "draw"}

CSV_COLUMNS = [
    "id",
    "url",
    "variant",
    "created_at",
    "finished_at",
    "side",
    "opponent",
    "opponent_kind",
    "status",
    "outcome",
    "result",
    "termination",
    "move_count",
    "moves",
]


def export_filename(user, extension: str) -> str:
    return f"tttsite-{user.get_username()}-games.{extension}"


def _moment(value) -> str | None:
    return value.isoformat() if value is not None else None


def game_export(game: Game, user, site_url: str = "") -> dict:
    """One game as ``user`` played it: their side, the opponent, the outcome
    for them (win, loss, draw or unfinished) beside the raw result, and the moves."""
    side = game.side_of(user)
    other = other_side(side)
    return {
        "id": game.pk,
        "url": site_url + game.get_absolute_url(),
        "variant": game.variant,
        "created_at": _moment(game.created_at),
        "finished_at": _moment(game.finished_at),
        "side": side,
        "opponent": game.player_name(other),
        "opponent_kind": game.player_kind(other),
        "status": game.status,
        "outcome": OUTCOMES.get(game.outcome_for(side), "unfinished"),
        "result": game.result or None,
        "termination": game.termination or None,
        "move_count": game.move_count,
        # Plies run 0, 1, 2... (one move per ply, stored in turn), X first.
        "moves": [{"ply": ply, "cell": cell, "mark": "XO"[ply % 2]} for ply, cell in enumerate(game.cells)],
    }


def games_json(user, games: Iterable[Game], messages: Iterable[dict] = (), site_url: str = "") -> Iterator[str]:
    """The account, every game and every chat message the player wrote, as
    one JSON document: ``{"account": {...}, "games": [...], "chat_messages": [...]}``."""
    account = {
        "username": user.get_username(),
        "email": user.email,
        "date_joined": _moment(user.date_joined),
    }
    yield '{\n "account": ' + json.dumps(account, cls=DjangoJSONEncoder) + ',\n "games": ['
    yield from _json_items(game_export(game, user, site_url) for game in games)
    yield '\n ],\n "chat_messages": ['
    yield from _json_items(chat_message_export(message) for message in messages)
    yield "\n ]\n}\n"


def _json_items(items: Iterable[dict]) -> Iterator[str]:
    """``items`` as the elements of a JSON list, GAMES_PER_PIECE to a piece of text."""
    separator, piece = "\n  ", []
    for item in items:
        piece.append(separator + json.dumps(item, cls=DjangoJSONEncoder))
        separator = ",\n  "
        if len(piece) == GAMES_PER_PIECE:
            yield "".join(piece)
            piece = []
    if piece:
        yield "".join(piece)


def chat_message_export(message: dict) -> dict:
    """One message the player wrote: in which game, when, and what."""
    return {"game": message["game_id"], "sent_at": _moment(message["created_at"]), "text": message["text"]}


#: What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A value a spreadsheet shows as text: one that would start a formula
    ("=HYPERLINK(...)", "@SUM(...)", "-1+1") gets a leading single quote, as
    OWASP recommends. Usernames may begin with "@", "+" or "-", and one made
    in the admin or before the validator may hold anything."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def games_csv(user, games: Iterable[Game], site_url: str = "") -> Iterator[str]:
    """One row per game, the moves as the cells played in order, separated by
    spaces ("4 0 8"); every cell that could start a formula is made text (csv_cell)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    rows = 0
    for game in games:
        row = game_export(game, user, site_url)
        row["moves"] = " ".join(str(move["cell"]) for move in row["moves"])
        writer.writerow({column: csv_cell(value) for column, value in row.items()})
        rows += 1
        if rows % GAMES_PER_PIECE == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
