"""Playing a game: every write to a game and its moves, one transaction each.

Views, the API, the WebSocket consumer, the admin and the terminal parse their
input, call one of these functions and show the answer. A refused action raises
a :class:`games.errors.GameError` and changes nothing stored.

A move against the AI is one action from start to finish: the person's move
and the AI's reply are both made by :func:`game_play_move`, so no caller can
forget the reply or make it differently. A game where the AI moves first gets
its first move when it is created. Reading a game never writes to it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine
from games.errors import GameError, InvalidInput, MoveRefused, NotAPlayer, require_choice
from games.play import clocks, live
from games.play.clocks import TimeControl
from games.play.models import Game, Level, Move, Result, Side, StartMode, Status, Termination, Variant
from games.play.players import Player
from games.play.selectors import game_cells, game_detail
from games.play.signals import game_aborted, game_finished, turn_passed


@dataclass(frozen=True)
class MoveResult:
    game: Game
    applied: bool  # False when the same move at the same ply was already stored (a double click)


def _record_moves(game: Game, played: list[int], board: engine.Board, cells: list[int]) -> engine.Board:
    """Store ``cells`` as the next moves of a locked ``game`` whose stored moves
    are ``played`` (at ``board``): the moves inserted and the game updated (and
    counted, through game_finished, if they end it). It is finished if it ended, and ``game.cells`` is
    what it now holds, so nothing needs reading again. An illegal cell raises
    before anything is written."""
    after, moves = board, []
    for cell in cells:
        after = after.play(cell)
        moves.append(Move(game=game, ply=game.move_count + len(moves), cell=cell))
    now = timezone.now()
    Move.objects.bulk_create(moves)
    for move in moves:
        _charge_clock(game, move.mark, move.ply, now)
    movers = {move.mark for move in moves}
    if game.draw_offer in movers:
        game.draw_offer = ""  # an offer lapses when the side that made it moves
    game.takeback_offer = ""  # a takeback asked for is answered by any move
    game.move_count += len(moves)
    game.turn_started_at = now
    fields = ["move_count", "turn_started_at", "x_clock_ms", "o_clock_ms", "deadline", "draw_offer", "takeback_offer"]
    if after.is_game_over():
        game.status = Status.FINISHED
        game.result = after.result()
        game.termination = after.termination()
        game.finished_at = now
        game.stats_counted = True  # counted by game_finished's receiver, in this transaction
        fields += ["status", "result", "termination", "finished_at", "stats_counted"]
    game.deadline = clocks.deadline(game, after.to_move) if not after.is_game_over() else None
    game.save(update_fields=[*fields, "updated_at"])
    game.cells = [*played, *cells]
    if after.is_game_over():
        game_finished.send(sender=Game, game=game)
    elif not game.ai_side:
        turn_passed.send(sender=Game, game=game, to_move=after.to_move)
    # One message for the transaction (a move and the AI's reply travel together):
    # the last cell, the game's ply and status as they now stand, and every move made.
    live.publish_game(game, "move", cell=moves[-1].cell, moves=[{"ply": m.ply, "cell": m.cell} for m in moves])
    if after.is_game_over() and not game.ai_side:
        live.publish_lobby("game_ended", game=game.pk)
    return after


def _charge_clock(game: Game, side: str, ply: int, now) -> None:
    """``side`` moved at ``now``: its clock loses the time it took (after the
    lag allowance) and gains the increment. A side's first move and the AI's
    moves cost nothing."""
    if not game.has_clock or side == game.ai_side or not clocks.has_moved(ply, side):
        return
    field = "x_clock_ms" if side == "X" else "o_clock_ms"
    left = getattr(game, field) - clocks.charged_ms(game.turn_started_at, now)
    setattr(game, field, max(0, left) + game.clock_increment * 1000)


def _locked(game_id: int) -> Game:
    """The game row with its players and its cells, the row locked until the
    transaction ends (PostgreSQL; SQLite's IMMEDIATE transactions let one
    writer in at a time). The cells are read once the lock is held, so a move
    that waited for another sees the moves that one stored."""
    game = Game.objects.select_for_update(of=("self",)).with_players().get(pk=game_id)
    game.cells = game_cells(game_id)
    return game


def _locked_for_player(game_id: int, player: Player) -> tuple[Game, str]:
    """Lock a game in progress that ``player`` plays in; (game, their side)."""
    game = _locked(game_id)
    side = game.side_of(player.user, player.guest_key)
    if side is None:
        raise NotAPlayer("you are not playing in this game", game=game)
    if game.status != Status.IN_PROGRESS:
        raise MoveRefused(f"the game is {game.get_status_display().lower()}", code="game_over", game=game)
    return game, side


def _finish(game: Game, winner: str | None, termination: str, now=None) -> bool:
    """End a locked game that no line or full board ended: a resignation, a
    timeout or an agreed draw (``winner`` None). True if it finished; False
    if it was aborted instead, since nothing was played: a game that ends
    before both sides have moved has no result, and rates or counts nobody."""
    if not both_have_moved(game.move_count):
        _abort(game, now)
        return False
    game.status = Status.FINISHED
    game.result = {"X": Result.X_WON, "O": Result.O_WON, None: Result.DRAW}[winner]
    game.termination = termination
    game.finished_at = now or timezone.now()
    game.deadline = None
    game.draw_offer = game.takeback_offer = ""
    game.stats_counted = True  # counted by game_finished's receiver, in this transaction
    game.save(
        update_fields=[
            "stats_counted",
            "status",
            "result",
            "termination",
            "finished_at",
            "deadline",
            "draw_offer",
            "takeback_offer",
            "x_clock_ms",
            "o_clock_ms",
            "updated_at",
        ]
    )
    game_finished.send(sender=Game, game=game)
    if not game.ai_side:
        live.publish_lobby("game_ended", game=game.pk)
    return True


def both_have_moved(move_count: int) -> bool:
    """Whether both sides have made a move once ``move_count`` moves are made."""
    return clocks.has_moved(move_count, "O")


def _abort(game: Game, now=None) -> None:
    """Call off a locked game in progress: no result, nobody's record changes."""
    game.status = Status.ABORTED
    game.finished_at = now or timezone.now()
    game.deadline = None
    game.draw_offer = game.takeback_offer = ""
    game.save(update_fields=["status", "finished_at", "deadline", "draw_offer", "takeback_offer", "updated_at"])
    game_aborted.send(sender=Game, game=game)
    live.publish_game(game, "aborted")
    if not game.ai_side:
        live.publish_lobby("game_ended", game=game.pk)


def _end_on_time(game: Game, now) -> None:
    """The side to move in a locked game ran out of time at its deadline: it
    loses, or the game is drawn if the other side could no longer make a line
    however the game went on. Before its first move (before both sides have
    moved) :func:`_finish` aborts the game instead."""
    side = engine.side_to_move(game.move_count)
    if game.has_clock:
        setattr(game, "x_clock_ms" if side == "X" else "o_clock_ms", 0)
    winner = engine.other_side(side)
    board = engine.Board.from_moves(game.cells, size=game.size)
    if _finish(game, winner if board.can_still_win(winner) else None, Termination.TIMEOUT, now):
        live.publish_game(game, "timeout", side=winner, flagged=side)


def game_end_on_time(*, game_id: int, now=None) -> bool:
    """End a game whose player to move has run out of time, if it still is in
    progress and out of time once locked: True if this call ended it. However
    many workers and requests try at once, a flag ends a game exactly once."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked(game_id)
        if not game.is_out_of_time(now):
            return False
        _end_on_time(game, now)
    return True


def _refreshed(error: GameError) -> GameError:
    """The refusal with the game as it is now, read after the transaction ended."""
    if error.game is not None:
        error.game = game_detail(error.game.pk)
    return error


def game_create_against_ai(
    *,
    player: Player,
    variant: str = Variant.THREE,
    side: str = "X",
    level: str = Level.PERFECT,
    start_mode: str = StartMode.MINIMAX,
    seed: int | None = None,
    rematch_of: Game | None = None,
    time_control: TimeControl | str | None = None,
) -> Game:
    """Start a game against the AI; if the AI moves first, its move is made at
    once. A time control is optional: the person's clock runs on their turns
    only, so the AI's thinking is never charged to them."""
    if not player.is_known:
        raise NotAPlayer("sign in or play as a guest to start a game", code="not_signed_in")
    require_choice(variant, Variant, "variant")
    require_choice(level, Level, "level")
    require_choice(start_mode, StartMode, "start mode")
    if side == "random":
        side = random.choice("XO")
    require_choice(side, Side, "side")
    control = parse_time_control(time_control)
    user = player.user if player.user is not None and player.user.is_authenticated else None
    game = Game.objects.create(
        variant=variant,
        x_player=user if side == "X" else None,
        o_player=user if side == "O" else None,
        ai_side=engine.other_side(side),
        ai_level=level,
        start_mode=start_mode,
        rated=False,
        guest_key="" if user else player.guest_key,
        seed=random.randrange(2**31) if seed is None else seed,
        rematch_of=rematch_of,
        **clocks.starting_fields(control, timezone.now(), ai_side=engine.other_side(side)),
    )
    if game.ai_side == "X":
        game_play_ai_move(game_id=game.pk)
    return game_detail(game.pk)


def parse_time_control(value: TimeControl | str | None) -> TimeControl:
    """A time control from its key ("3+2", "3d", "none"), refused with the reason."""
    if isinstance(value, TimeControl):
        return value
    try:
        return TimeControl.parse(value)
    except ValueError as error:
        raise InvalidInput(str(error), code="invalid_time_control") from None


def _check_cell(cell: object, size: int) -> int:
    number = engine.whole_number(cell)  # ASCII digits only: not "٣" or "1_0"
    if number is None:
        raise InvalidInput(f"cell {cell!r} is not a whole number", code="invalid_cell")
    cell = number
    if not 0 <= cell < size * size:
        raise InvalidInput(
            f"cell {cell} is off the {size}x{size} board (cells are 0 to {size * size - 1})", code="invalid_cell"
        )
    return cell


#: Boards on which the AI's reply takes microseconds (3x3 is solved at import):
#: it is stored in the same transaction as the move it answers, so a game never
#: waits for it. On 4x4 and 5x5 the AI may search for milliseconds to a second,
#: which no lock should be held for: it thinks once the move is stored.
AI_REPLIES_IN_THE_SAME_TRANSACTION = {Variant.THREE}


def game_play_move(*, game_id: int, player: Player, cell: object, ply: object) -> MoveResult:
    """Play ``cell`` for ``player``, who believes ``ply`` moves have been made.

    Exactly one move is stored per ply: a move racing another for the same ply
    or sent with a stale ply is refused with the current game. The same move
    sent twice (a double click) is applied once and the repeat is not an error.

    Against the AI its reply is part of the move: the returned game holds it
    (or the end of the game). On 3x3 it is stored in the same transaction; on
    4x4 and 5x5 the AI thinks once the person's move is stored, holding no
    lock, and its reply is stored before this returns. A repeated move also
    makes a reply still owed (its first request stopped while the AI thought).
    """
    number = engine.whole_number(ply)
    if number is None:
        raise InvalidInput(f"ply {ply!r} is not a whole number", code="invalid_ply")
    ply = number
    try:
        with transaction.atomic():
            game = _locked(game_id)
            side = game.side_of(player.user, player.guest_key)
            if side is None:
                raise NotAPlayer("you are not playing in this game", game=game)
            # Checked in the order of their HTTP statuses: not a player (403),
            # malformed (400), then refusals by the game (409).
            cell = _check_cell(cell, Variant(game.variant).size)
            if game.status != Status.IN_PROGRESS:
                raise MoveRefused(f"the game is {game.get_status_display().lower()}", code="game_over", game=game)
            now = timezone.now()
            flagged = game.is_out_of_time(now)
            if flagged:
                # The move came too late: the game ends on time, as the clock
                # worker would have ended it, and the move is refused below.
                _end_on_time(game, now)
            else:
                applied = not _is_repeat(game, side, cell, ply)
                if applied:
                    _store_move(game, side, cell)
    except IntegrityError:
        # Another request stored a move for this ply first (databases without
        # row locks can let two transactions get this far).
        game = game_detail(game_id)
        raise MoveRefused("another move was played first", code="stale_ply", game=game) from None
    except GameError as error:
        raise _refreshed(error) from None
    if flagged:
        raise MoveRefused("your time ran out before this move arrived", code="out_of_time", game=game_detail(game_id))
    if not applied or game.awaits_ai:
        game = game_play_ai_move(game_id=game_id)
    return MoveResult(game, applied=applied)


def _is_repeat(game: Game, side: str, cell: int, ply: int) -> bool:
    """Whether ``side`` already played ``cell`` at ``ply`` (a double click);
    refused as stale if the game is at another ply for any other reason."""
    if ply == game.move_count:
        return False
    if 0 <= ply < game.move_count:
        stored = game.moves.filter(ply=ply).first()
        if stored and stored.cell == cell and stored.mark == side:
            return True
    raise MoveRefused(_stale_ply_message(game.move_count, ply), code="stale_ply", game=game)


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _stale_ply_message(move_count: int, ply: int) -> str:
    """Why a ply other than the game's is refused: the game moved on, or is not there yet."""
    if ply < move_count:
        return f"the game has moved on: {_moves(move_count)} made, and you sent ply {ply}"
    return f"the game is not that far on: {_moves(move_count)} made, and you sent ply {ply}; send ply {move_count}"


def _store_move(game: Game, side: str, cell: int) -> None:
    """Store ``side``'s move on ``cell`` in a locked game at its current ply,
    with the AI's reply on 3x3. The locked row, its players and its moves are
    all known, so ``game`` is left as it now stands without being read again."""
    played = game.cells
    board = engine.Board.from_moves(played, size=game.size)
    if board.to_move != side:
        raise MoveRefused(f"it is {board.to_move}'s turn, not yours", code="not_your_turn", game=game)
    try:
        after = board.play(cell)
    except engine.IllegalMoveError as error:
        raise MoveRefused(str(error), code="occupied", game=game) from None
    cells = [cell]
    if game.ai_side and not after.is_game_over() and game.variant in AI_REPLIES_IN_THE_SAME_TRANSACTION:
        cells.append(_ai_choice(game, after))
    _record_moves(game, played, board, cells)


def game_play_ai_move(*, game_id: int) -> Game:
    """Let the AI make the move it is owed, if it is its turn; the game as it
    then stands. The engine thinks outside the transaction, so a slow 5x5
    search holds no lock; the move is stored only if the game has not moved on
    meanwhile. :func:`game_play_move` and :func:`game_create_against_ai` call
    it; on its own it makes a reply that a stopped server left owed (the game
    page's "Let the AI move" button, ``manage.py play_owed_moves``)."""
    game = Game.objects.get(pk=game_id)
    if not game.ai_side or game.status != Status.IN_PROGRESS:
        return game_detail(game_id)
    played = game_cells(game_id)
    board = engine.Board.from_moves(played, size=Variant(game.variant).size)
    if board.to_move != game.ai_side:
        return game_detail(game_id)
    ply = game.move_count
    cell = _ai_choice(game, board)
    try:
        with transaction.atomic():
            locked = _locked(game_id)
            # The same moves, not only as many: a takeback and another move
            # meanwhile leave the count as it was but the position changed.
            if locked.move_count == ply and locked.status == Status.IN_PROGRESS and locked.cells == played:
                _record_moves(locked, played, board, [cell])
    except IntegrityError:
        pass  # a concurrent request already stored the AI's move for this ply
    return game_detail(game_id)


def game_play_owed_ai_move(*, game_id: int, player: Player) -> Game:
    """A player of a game against the AI asks it for the move it owes (a
    stopped server left it unmade); refused when the AI owes nothing."""
    game = game_detail(game_id)
    if game.side_of(player.user, player.guest_key) is None:
        raise NotAPlayer("you are not playing in this game", game=game)
    if not game.awaits_ai:
        raise MoveRefused("the AI owes no move in this game", code="no_move_owed", game=game)
    return game_play_ai_move(game_id=game_id)


def _ai_choice(game: Game, board: engine.Board) -> int:
    """The AI's move in ``game`` at ``board``: its opening by the game's start
    mode, then its level's choice. Seeded by the game and the ply, so the same
    position in the same game always gets the same answer."""
    seed = game.seed + board.ply
    if board.ply == 0:
        return engine.opening_move(board, game.start_mode or StartMode.MINIMAX, game.ai_level, seed=seed)
    return engine.best_move(board, game.ai_level, seed=seed)


def game_resign(*, game_id: int, player: Player) -> Game:
    """The player gives up; the other side wins. Before both sides have moved
    the game is aborted instead: nobody wins a game nobody played."""
    try:
        with transaction.atomic():
            game, side = _locked_for_player(game_id, player)
            if _finish(game, engine.other_side(side), Termination.RESIGNED):
                live.publish_game(game, "resigned", side=side)
    except GameError as error:
        raise _refreshed(error) from None
    return game_detail(game_id)


def game_abort(*, game_id: int) -> bool:
    """Abort an unfinished game (staff clean-up); False if it had already ended."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Status.IN_PROGRESS:
            return False
        _abort(game)
    return True


def game_rematch(*, game_id: int, player: Player) -> Game:
    """A new game against the AI with the same settings and the sides swapped."""
    game = Game.objects.get(pk=game_id)
    side = game.side_of(player.user, player.guest_key)
    if side is None:
        raise NotAPlayer("only a player can ask for a rematch", game=game_detail(game_id))
    if not game.ai_side:
        raise MoveRefused(
            "a rematch between people is offered to the opponent first", code="offer_rematch", game=game_detail(game_id)
        )
    if game.status == Status.IN_PROGRESS:
        raise MoveRefused("finish this game first", code="game_in_progress", game=game_detail(game_id))
    return game_create_against_ai(
        player=player,
        variant=game.variant,
        side=engine.other_side(side),
        level=game.ai_level,
        start_mode=game.start_mode or StartMode.MINIMAX,
        rematch_of=game,
        time_control=game.time_control,
    )


def game_claim_timeout(*, game_id: int, player: Player) -> Game:
    """The waiting player ends the game once the player to move has run out of
    time (the clock worker does it by itself; this is the button for when it
    has not yet): a win, a draw if they could no longer win, or an abort if
    the opponent never made a first move."""
    try:
        with transaction.atomic():
            game, side = _locked_for_player(game_id, player)
            to_move = engine.side_to_move(game.move_count)
            if to_move == side:
                raise MoveRefused("it is your own turn: there is nothing to claim", code="not_claimable", game=game)
            now = timezone.now()
            if not game.is_out_of_time(now):
                raise MoveRefused("your opponent still has time to move", code="not_claimable", game=game)
            _end_on_time(game, now)
    except GameError as error:
        raise _refreshed(error) from None
    return game_detail(game_id)


def game_abort_by_player(*, game_id: int, player: Player) -> Game:
    """A player calls a game off before its second move: no result, nobody's record changes."""
    try:
        with transaction.atomic():
            game, _ = _locked_for_player(game_id, player)
            if both_have_moved(game.move_count):
                raise MoveRefused(
                    "a game can only be aborted before its second move; resign instead",
                    code="too_late_to_abort",
                    game=game,
                )
            _abort(game)
    except GameError as error:
        raise _refreshed(error) from None
    return game_detail(game_id)
