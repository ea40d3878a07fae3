"""A move's statements, built once: the game locked with its players and its
cells in order, the new moves, the game's new state; and the game's row as
every socket opened on it reads it. The services call these
inside their transactions; ``games/rows.py`` says why they are not the ORM's."""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from games.play.models import Game, Move
from games.rows import ModelRows, Writes, fetch_column, fetch_one, for_update_of


@cache
def _games() -> ModelRows:
    return ModelRows(Game)


@cache
def _users() -> ModelRows:
    return ModelRows(get_user_model())


@cache
def _moves() -> ModelRows:
    return ModelRows(Move)


@cache
def _game_locked_sql(vendor: str) -> str:
    games, users, moves, quote = _games(), _users(), _moves(), connection.ops.quote_name
    joins = "".join(
        f" LEFT OUTER JOIN {quote(users.table)} {quote(side)}"
        f" ON ({games.column(side)} = {users.column('pk', alias=side)})"
        for side in ("x_player", "o_player")
    )
    game_id, played = games.column("pk"), quote("played")
    ply, cell = moves.column("ply", alias="played"), moves.column("cell", alias="played")
    pairs = f"CAST({ply} AS TEXT) || ':' || CAST({cell} AS TEXT)"
    cells = (
        f"(SELECT {'string_agg' if vendor == 'postgresql' else 'group_concat'}({pairs}, ',')"
        f" FROM {quote(moves.table)} {played} WHERE {moves.column('game', alias='played')} = {game_id})"
    )
    return (
        f"SELECT {games.columns()}, {users.columns('x_player')}, {users.columns('o_player')},"
        f" {cells}, {_cells_current(vendor)}"
        f" FROM {quote(games.table)}{joins} WHERE {game_id} = %s{for_update_of(games.table)}"
    )


def _cells_current(vendor: str) -> str:
    """SQL for whether the moves the locking statement read are the locked
    game's. On PostgreSQL a statement that waited for the lock gets the row
    as the transaction it waited for left it, but reads every other table (the
    moves) as they were when the statement began: the row version it locked
    (its xmin, the transaction that wrote it) is then not the one the
    statement's snapshot sees. SQLite's IMMEDIATE transaction has the write
    lock before it reads anything. Elsewhere: not known, read again."""
    if vendor == "postgresql":
        games, quote = _games(), connection.ops.quote_name
        seen = quote("seen")
        return (
            f"({quote(games.table)}.xmin = (SELECT {seen}.xmin FROM {quote(games.table)} {seen}"
            f" WHERE {games.column('pk', alias='seen')} = {games.column('pk')}))"
        )
    return "1 = 1" if vendor == "sqlite" else "1 = 0"


def _cells(pairs: str | None) -> list[int]:
    """ "ply:cell,..." (in any order, as the aggregate left them) as the cells in ply order."""
    if not pairs:
        return []
    played = sorted(tuple(map(int, pair.split(":"))) for pair in pairs.split(","))
    return [cell for _ply, cell in played]


def game_locked(game_id: int) -> Game:
    """The game with its players and its cells (``game.cells``), its row
    locked until the transaction ends (PostgreSQL; SQLite's IMMEDIATE
    transactions let one writer in at a time), in one statement unless it
    waited for another transaction's move. Raises Game.DoesNotExist."""
    games, users = _games(), _users()
    row = fetch_one(_game_locked_sql(connection.vendor), [game_id]) if games.holds_pk(game_id) else None
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    game = games.read(row)
    for side, start in (("x_player", games.width), ("o_player", games.width + users.width)):
        player = users.read(row, start)
        if player is not None:
            setattr(game, side, player)  # the relation's cache: no query to read it
    pairs, current = row[-2:]
    # Read again, by a statement of its own, if the moves read were older than the row.
    game.cells = _cells(pairs) if current else game_cells(game_id)
    return game


@cache
def _game_sql(vendor: str) -> str:
    games = _games()
    return f"SELECT {games.columns()} FROM {connection.ops.quote_name(games.table)} WHERE {games.column('pk')} = %s"


def game_row(game_id: int) -> Game | None:
    """The game (its own row: no players, no lock), or None. Every socket
    opened on a game reads it (games/play/consumers.py)."""
    games = _games()
    row = fetch_one(_game_sql(connection.vendor), [game_id]) if games.holds_pk(game_id) else None
    return games.read(row) if row is not None else None


@cache
def _cells_sql(vendor: str) -> str:
    moves = _moves()
    table = connection.ops.quote_name(moves.table)
    return (
        f"SELECT {moves.column('cell')} FROM {table} WHERE {moves.column('game')} = %s ORDER BY {moves.column('ply')}"
    )


def game_cells(game_id: int) -> list[int]:
    """The cells played in a game, in the order they were played."""
    return fetch_column(_cells_sql(connection.vendor), [game_id])


def moves_insert(moves: list[Move], writes: Writes | None = None) -> None:
    """Store new moves in one statement (a unique ply and cell per game, as
    ever), or add it to ``writes``."""
    _moves().insert(moves, writes)


def game_update(game: Game, fields: list[str], writes: Writes | None = None) -> None:
    """``game.save(update_fields=fields)``: ``updated_at`` is stamped if named;
    added to ``writes`` when given."""
    _games().update(game, fields, writes)
