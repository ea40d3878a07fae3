"""Does every stored game replay to what is stored about it?

Moves are the source of truth; the game row repeats some of what they say
(how many there are, how the game ended) so that pages need not replay. This
module checks that the two agree: after a crash, a `kill -9`, a load test or a
restore from backup, `python manage.py verify_games` runs it over every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from games import engine
from games.play.models import Game, Move, Status, Termination, Variant


@dataclass(frozen=True)
class Problem:
    game: int
    message: str

    def __str__(self) -> str:
        return f"game {self.game}: {self.message}"


def game_problems(game: Game, moves: list[tuple[int, int]]) -> list[str]:
    """What is wrong with ``game`` given its stored ``moves`` as (ply, cell) in ply order."""
    plies = [ply for ply, _ in moves]
    if plies != list(range(len(moves))):
        return [f"plies {plies} are not 0 to {len(moves) - 1} without a gap"]
    problems = []
    if game.move_count != len(moves):
        problems.append(f"move_count is {game.move_count} but {len(moves)} moves are stored")
    try:
        board = engine.Board.from_moves([cell for _, cell in moves], size=Variant(game.variant).size)
    except ValueError as error:  # an occupied cell, or a move after the game was won
        return [*problems, f"the moves do not replay: {error}"]
    over_on_board = board.is_game_over()
    if game.status == Status.FINISHED:
        if game.termination in (Termination.LINE, Termination.FULL_BOARD):
            if (game.result, game.termination) != (board.result(), board.termination()):
                problems.append(
                    f"stored as {game.result} by {game.termination}, but the moves give "
                    f"{board.result()} by {board.termination()}"
                )
        elif game.termination == Termination.RESIGNED:
            if over_on_board:
                problems.append("stored as ended by resigned, but the board had already ended")
            if game.result not in ("x_won", "o_won"):
                problems.append(f"ended by resigned with result {game.result!r}")
        elif game.termination == Termination.TIMEOUT:
            problems += _timeout_problems(game, board)
        elif game.termination == Termination.AGREED:
            if over_on_board:
                problems.append("stored as drawn by agreement, but the board had already ended")
            if game.result != "draw":
                problems.append(f"drawn by agreement with result {game.result!r}")
        else:
            problems.append(f"finished without a termination ({game.termination!r})")
        if game.finished_at is None:
            problems.append("finished without a finishing time")
        if len(moves) < 2:
            problems.append(f"finished with {len(moves)} move(s): a game that ends before both sides move is aborted")
    elif over_on_board:
        problems.append(f"stored as {game.status} but the moves give {board.result()} by {board.termination()}")
    elif game.result:
        problems.append(f"stored as {game.status} with a result ({game.result})")
    return problems


def _timeout_problems(game: Game, board: engine.Board) -> list[str]:
    """The side to move ran out of time: the other side won, or the game was
    drawn because the other side could no longer make a line."""
    if board.is_game_over():
        return ["stored as ended by timeout, but the board had already ended"]
    waiting = engine.other_side(board.to_move)
    if game.result == "draw":
        if board.can_still_win(waiting):
            return [f"drawn on time, but {waiting} could still have made a line"]
        return []
    if game.result != ("x_won" if waiting == "X" else "o_won"):
        return [f"ended by timeout with result {game.result!r}, but {board.to_move} was the side to move"]
    return []


def verify_games(games: Iterable[Game] | None = None, chunk: int = 2000) -> Iterator[Problem]:
    """Every problem in ``games`` (all games when None), two queries a chunk."""
    queryset = Game.objects.order_by("pk") if games is None else games
    batch: list[Game] = []
    for game in queryset.only("id", "variant", "move_count", "status", "result", "termination", "finished_at").iterator(
        chunk_size=chunk
    ):
        batch.append(game)
        if len(batch) == chunk:
            yield from _verify_batch(batch)
            batch = []
    if batch:
        yield from _verify_batch(batch)


def _verify_batch(batch: list[Game]) -> Iterator[Problem]:
    moves: dict[int, list[tuple[int, int]]] = {game.pk: [] for game in batch}
    for game_id, ply, cell in (
        Move.objects.filter(game_id__in=moves).order_by("game_id", "ply").values_list("game_id", "ply", "cell")
    ):
        moves[game_id].append((ply, cell))
    for game in batch:
        for message in game_problems(game, moves[game.pk]):
            yield Problem(game.pk, message)
