"""Every write to games and moves happens here, one transaction each.

Views, the API, the admin and the terminal parse their input, call one of these
functions and show the answer. A refused action raises a :class:`GameError`
whose ``code`` says why in a word a program can test and whose message says it
in a sentence a person can read; nothing stored changes.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine
from games.models import Game, Level, Move, Result, Side, StartMode, Status, Termination, Variant


class GameError(Exception):
    """An action on a game that was refused. ``status`` is the HTTP status it maps to."""

    code = "refused"
    status = 409

    def __init__(self, message: str, *, code: str | None = None, game: Game | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.game = game


class InvalidInput(GameError):
    """Input that is not well formed: a cell that is not a cell, an unknown level."""

    code = "invalid"
    status = 400


class NotAPlayer(GameError):
    """Someone acting on a game they do not play in."""

    code = "not_a_player"
    status = 403


class MoveRefused(GameError):
    """A well-formed move the game refuses: occupied, out of turn, stale, or over."""

    code = "illegal_move"
    status = 409


@dataclass(frozen=True)
class Player:
    """Who is acting: a signed-in user, or a guest known by the key in their session."""

    user: object = None
    guest_key: str = ""

    @property
    def is_known(self) -> bool:
        return bool(self.user is not None and self.user.is_authenticated) or bool(self.guest_key)


@dataclass(frozen=True)
class MoveResult:
    game: Game
    applied: bool  # False when the same move at the same ply was already stored (a double click)


def new_guest_key() -> str:
    return secrets.token_hex(16)


def _fresh(game_id: int) -> Game:
    return Game.objects.with_players_and_moves().get(pk=game_id)


def _choice(value: str, choices, what: str) -> str:
    if value not in choices.values:
        allowed = ", ".join(choices.values)
        raise InvalidInput(f"{what} {value!r} is not one of {allowed}", code=f"invalid_{what.replace(' ', '_')}")
    return value


def _record_move(game: Game, board: engine.Board, cell: int) -> engine.Board:
    """Store ``cell`` as the next move of a locked ``game`` and finish it if it ended."""
    after = board.play(cell)
    Move.objects.create(game=game, ply=game.move_count, cell=cell)
    game.move_count += 1
    fields = ["move_count", "updated_at"]
    if after.is_game_over():
        game.status = Status.FINISHED
        game.result = after.result()
        game.termination = after.termination()
        game.finished_at = timezone.now()
        fields += ["status", "result", "termination", "finished_at"]
    game.save(update_fields=fields)
    return after


def _locked(game_id: int) -> Game:
    """The game row, locked until the transaction ends (PostgreSQL); SQLite's
    IMMEDIATE transactions already let one writer in at a time."""
    return Game.objects.select_for_update().get(pk=game_id)


def _replay(game: Game) -> engine.Board:
    cells = list(game.moves.order_by("ply").values_list("cell", flat=True))
    return engine.Board.from_moves(cells, size=Variant(game.variant).size)


def game_create_against_ai(
    *,
    player: Player,
    variant: str = Variant.THREE,
    side: str = "X",
    level: str = Level.PERFECT,
    start_mode: str = StartMode.MINIMAX,
    seed: int | None = None,
    rematch_of: Game | None = None,
) -> Game:
    """Start a game against the AI; if the AI moves first, its move is made at once."""
    if not player.is_known:
        raise NotAPlayer("sign in or play as a guest to start a game", code="not_signed_in")
    _choice(variant, Variant, "variant")
    _choice(level, Level, "level")
    _choice(start_mode, StartMode, "start mode")
    if side == "random":
        side = random.choice("XO")
    _choice(side, Side, "side")
    user = player.user if player.user is not None and player.user.is_authenticated else None
    game = Game.objects.create(
        variant=variant,
        x_player=user if side == "X" else None,
        o_player=user if side == "O" else None,
        ai_side="O" if side == "X" else "X",
        ai_level=level,
        start_mode=start_mode,
        guest_key="" if user else player.guest_key,
        seed=random.randrange(2**31) if seed is None else seed,
        rematch_of=rematch_of,
    )
    if game.ai_side == "X":
        game_play_ai_move(game_id=game.pk)
    return _fresh(game.pk)


def _check_cell(cell: object, size: int) -> int:
    if isinstance(cell, str) and cell.strip().lstrip("-").isdigit():
        cell = int(cell)
    if isinstance(cell, bool) or not isinstance(cell, int):
        raise InvalidInput(f"cell {cell!r} is not a whole number", code="invalid_cell")
    if not 0 <= cell < size * size:
        raise InvalidInput(
            f"cell {cell} is off the {size}x{size} board (cells are 0 to {size * size - 1})", code="invalid_cell"
        )
    return cell


def game_play_move(*, game_id: int, player: Player, cell: object, ply: object) -> MoveResult:
    """Play ``cell`` for ``player``, who believes ``ply`` moves have been made.

    Exactly one move is stored per ply: a move racing another for the same ply
    or sent with a stale ply is refused with the current game. The same move
    sent twice (a double click) is applied once and the repeat is not an error.
    After a person's move against the AI, call :func:`game_play_ai_move`.
    """
    try:
        ply = int(ply)
    except (TypeError, ValueError):
        raise InvalidInput(f"ply {ply!r} is not a whole number", code="invalid_ply") from None
    try:
        with transaction.atomic():
            game = _locked(game_id)
            side = game.side_of(player.user, player.guest_key)
            if side is None:
                raise NotAPlayer("you are not playing in this game", game=game)
            size = Variant(game.variant).size
            cell = _check_cell(cell, size)
            if game.status != Status.IN_PROGRESS:
                raise MoveRefused(f"the game is {game.get_status_display().lower()}", code="game_over", game=game)
            if ply != game.move_count:
                if 0 <= ply < game.move_count:
                    stored = game.moves.filter(ply=ply).first()
                    if stored and stored.cell == cell and stored.mark == side:
                        return MoveResult(_fresh(game.pk), applied=False)
                raise MoveRefused(
                    f"the game has moved on: {game.move_count} moves have been made, not {ply}",
                    code="stale_ply",
                    game=game,
                )
            board = _replay(game)
            if board.to_move != side:
                raise MoveRefused(f"it is {board.to_move}'s turn, not yours", code="not_your_turn", game=game)
            try:
                _record_move(game, board, cell)
            except engine.IllegalMoveError as error:
                raise MoveRefused(str(error), code="occupied", game=game) from None
    except IntegrityError:
        # Another request stored a move for this ply first (databases without
        # row locks can let two transactions get this far).
        game = _fresh(game_id)
        raise MoveRefused("another move was played first", code="stale_ply", game=game) from None
    except GameError as error:
        if error.game is not None:
            error.game = _fresh(error.game.pk)
        raise
    return MoveResult(_fresh(game_id), applied=True)


def game_play_ai_move(*, game_id: int) -> Game:
    """Let the AI move if it is its turn. The engine thinks outside the
    transaction, so a slow 5x5 search holds no lock; the move is stored only if
    the game has not moved on meanwhile."""
    game = Game.objects.get(pk=game_id)
    if not game.ai_side or game.status != Status.IN_PROGRESS:
        return _fresh(game_id)
    board = _replay(game)
    if board.to_move != game.ai_side:
        return _fresh(game_id)
    ply = game.move_count
    seed = game.seed + ply
    if ply == 0:
        cell = engine.opening_move(board, game.start_mode or StartMode.MINIMAX, game.ai_level, seed=seed)
    else:
        cell = engine.best_move(board, game.ai_level, seed=seed)
    try:
        with transaction.atomic():
            locked = _locked(game_id)
            if locked.move_count == ply and locked.status == Status.IN_PROGRESS:
                _record_move(locked, board, cell)
    except IntegrityError:
        pass  # a concurrent request already stored the AI's move for this ply
    return _fresh(game_id)


def game_resign(*, game_id: int, player: Player) -> Game:
    """The player gives up; the other side wins."""
    with transaction.atomic():
        game = _locked(game_id)
        side = game.side_of(player.user, player.guest_key)
        if side is None:
            raise NotAPlayer("you are not playing in this game", game=_fresh(game_id))
        if game.status != Status.IN_PROGRESS:
            raise MoveRefused(
                f"the game is {game.get_status_display().lower()}", code="game_over", game=_fresh(game_id)
            )
        game.status = Status.FINISHED
        game.result = Result.O_WON if side == "X" else Result.X_WON
        game.termination = Termination.RESIGNED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "result", "termination", "finished_at", "updated_at"])
    return _fresh(game_id)


def game_abort(*, game_id: int) -> bool:
    """Abort an unfinished game (staff clean-up); False if it had already ended."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Status.IN_PROGRESS:
            return False
        game.status = Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at", "updated_at"])
    return True


def game_rematch(*, game_id: int, player: Player) -> Game:
    """A new game against the AI with the same settings and the sides swapped."""
    game = Game.objects.get(pk=game_id)
    side = game.side_of(player.user, player.guest_key)
    if side is None:
        raise NotAPlayer("only a player can ask for a rematch", game=_fresh(game_id))
    if not game.ai_side:
        raise MoveRefused("rematches of games between people come with challenges", code="not_supported")
    return game_create_against_ai(
        player=player,
        variant=game.variant,
        side="O" if side == "X" else "X",
        level=game.ai_level,
        start_mode=game.start_mode or StartMode.MINIMAX,
        rematch_of=game,
    )


def games_adopt_guest(*, user, guest_key: str) -> int:
    """Hand the games a guest played to their new account; how many moved over."""
    if not guest_key:
        return 0
    adopted = 0
    with transaction.atomic():
        for game in Game.objects.select_for_update().filter(guest_key=guest_key):
            if game.human_side == "X":
                game.x_player = user
            else:
                game.o_player = user
            game.guest_key = ""
            game.save(update_fields=["x_player", "o_player", "guest_key", "updated_at"])
            adopted += 1
    return adopted
