"""Checking a learner's answer to a puzzle, move by move, with the engine.

Plain Python over the engine; its searches go through the engine's queue
(games/engine_work/), charged to the visitor who asked: a position not
answered at once raises EngineWorking (ask again in a moment), and one asked
past the visitor's budget EngineRateLimited. What the learner played arrives from
a page's address or an API body, so nothing in it is trusted: the moves are
replayed from the puzzle's position, each one judged by the engine's exact
analysis, and the opponent's replies are the engine's own (never read from
the input). In a win puzzle a move is right when it still wins within the
moves the puzzle promised; then the opponent's toughest reply (of the slowest
losses, the one that leaves the learner the fewest winning moves: a block
where there is one) is played and the learner goes on, until the win or the
first move that misses it. In a puzzle whose answer keeps the draw (block,
save a draw) one move settles it: a move that does not lose solves it, and
the opponent's toughest reply is played to show what it held off.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
from games.engine_work import asking
from games.engine_work import jobs as engine_jobs

#: Seconds the opponent's reply may take to find (the puzzles are forced wins: far less is needed).
REPLY_BUDGET = 3.0

#: Where an attempt stands: still going, won within the promise, or missed.
SOLVING, SOLVED, FAILED = "solving", "solved", "failed"

#: What a learner's move did: kept the win on course ("wins"), completed it
#: ("solved"), kept the draw where that was asked ("holds": solved too), won
#: only slower than promised ("slower"), let the opponent draw ("draws"), lost
#: ("loses"), or could not be checked in time ("unsolved").
VERDICTS = ("wins", "solved", "holds", "slower", "draws", "loses", "unsolved")

_IN_A_ROW = {3: "three", 4: "four"}


class InvalidAttempt(ValueError):
    """Moves that cannot be an answer to this puzzle: a cell off the board or
    taken, or a move after the puzzle was over. The message says which."""


@dataclass(frozen=True)
class Step:
    """One move of the learner's and what came of it."""

    cell: int
    side: str
    verdict: str
    evaluation: engine.Evaluation
    reply: int | None  # the opponent's best reply, played when the puzzle goes on
    winning_cells: tuple[int, ...]  # the right cells from the position before this move: won in time, or held the draw
    message: str


@dataclass(frozen=True)
class Attempt:
    """A learner's moves on a puzzle, judged: each step, the position now, and the status."""

    start: engine.Board
    steps: tuple[Step, ...]
    board: engine.Board

    @property
    def status(self) -> str:
        if not self.steps:
            return SOLVING
        verdict = self.steps[-1].verdict
        if verdict in ("solved", "holds"):
            return SOLVED
        return SOLVING if verdict in ("wins", "unsolved") else FAILED

    @property
    def is_over(self) -> bool:
        return self.status != SOLVING

    @property
    def played(self) -> list[int]:
        """The learner's own moves that were judged (not the replies)."""
        return [step.cell for step in self.steps if step.verdict != "unsolved"]

    @property
    def moves(self) -> list[tuple[int, str, bool]]:
        """Every move on the board since the puzzle's position, in order:
        (cell, side, True for the learner's own, False for a reply)."""
        out = []
        for step in self.steps:
            if step.verdict == "unsolved":
                continue
            out.append((step.cell, step.side, True))
            if step.reply is not None:
                out.append((step.reply, engine.other_side(step.side), False))
        return out

    @property
    def message(self) -> str:
        return self.steps[-1].message if self.steps else ""


def cells_in_words(cells) -> str:
    """ "cell 3", "cells 3 and 6", "cells 1, 3 and 6"."""
    cells = [str(cell) for cell in cells]
    if len(cells) == 1:
        return f"cell {cells[0]}"
    return f"cells {', '.join(cells[:-1])} and {cells[-1]}"


def attempt(position: str, win_in: int | None, played, *, request=None) -> Attempt:
    """Judge ``played`` (the learner's cells, in order) on the puzzle at
    ``position`` that wins in ``win_in`` moves (None: whose answer keeps the
    draw), for ``request``'s visitor. Raises InvalidAttempt for a cell off the
    board or taken, or one played after the puzzle was over."""
    start = engine.Board.from_string(position)
    board = start
    steps: list[Step] = []
    for number, cell in enumerate(played, start=1):
        if steps and steps[-1].verdict == "unsolved":
            break  # not judged: what follows it was not played on a judged board
        if steps and steps[-1].verdict != "wins":
            raise InvalidAttempt(f"the puzzle was over after move {number - 1}; cell {cell} cannot follow")
        if not isinstance(cell, int) or not 0 <= cell < board.size**2:
            raise InvalidAttempt(f"{cell!r} is not a cell of the {board.variant} board (0 to {board.size**2 - 1})")
        if cell not in board.legal_moves:
            raise InvalidAttempt(f'cell {cell} is taken in "{board}"')
        if win_in is None:
            step = _judge_hold(request, board, cell)
        else:
            step = _judge(request, board, cell, win_in - (board.ply - start.ply))
        steps.append(step)
        if step.verdict in ("wins", "solved", "holds"):
            board = board.play(cell)
            if step.reply is not None:
                board = board.play(step.reply)
    return Attempt(start, tuple(steps), board)


def _judge(request, board: engine.Board, cell: int, moves_left: int) -> Step:
    """The learner plays ``cell`` with ``moves_left`` moves of the promise to go."""
    me, them = board.to_move, engine.other_side(board.to_move)
    analysis = asking.analysis(request, board, engine.DEFAULT_BUDGET)
    evaluation = analysis[cell]
    in_time = tuple(
        sorted(c for c, e in analysis.items() if e.outcome == "win" and e.plies is not None and e.plies <= moves_left)
    )
    if evaluation.outcome == "unsolved":
        return Step(cell, me, "unsolved", evaluation, None, in_time, _unsolved(cell))
    if evaluation.outcome == "win" and evaluation.plies <= moves_left:
        after = board.play(cell)
        if after.is_game_over():
            k = _IN_A_ROW.get(engine.VARIANTS[board.variant][1], "")
            return Step(cell, me, "solved", evaluation, None, in_time, f"That wins: {k} in a row. Solved!")
        reply = _best_reply(request, after)
        message = f"That wins: {them}'s best reply is cell {reply}. Your move."
        return Step(cell, me, "wins", evaluation, reply, in_time, message)
    answer = _the_answer(in_time)
    if evaluation.outcome == "win":
        message = (
            f"That still wins, but in {evaluation.plies} moves, not {moves_left}: {them} holds out longer. {answer}"
        )
        return Step(cell, me, "slower", evaluation, None, in_time, message)
    if evaluation.outcome == "draw":
        return Step(
            cell, me, "draws", evaluation, None, in_time, f"That lets {them} draw: {answer[0].lower()}{answer[1:]}"
        )
    theirs = evaluation.plies - 1  # their moves to the win, counted as the engine counts
    when = "next move" if theirs == 1 else f"in {theirs} moves"
    message = f"That loses: {them} wins {when}. {answer}"
    return Step(cell, me, "loses", evaluation, None, in_time, message)


def _judge_hold(request, board: engine.Board, cell: int) -> Step:
    """The learner plays ``cell`` where the puzzle asks for the move that does not lose."""
    me, them = board.to_move, engine.other_side(board.to_move)
    analysis = asking.analysis(request, board, engine.DEFAULT_BUDGET)
    evaluation = analysis[cell]
    holding = tuple(sorted(c for c, e in analysis.items() if e.outcome in ("win", "draw")))
    if evaluation.outcome == "unsolved":
        return Step(cell, me, "unsolved", evaluation, None, holding, _unsolved(cell))
    if evaluation.outcome in ("win", "draw"):
        after = board.play(cell)
        if after.is_game_over():
            return Step(cell, me, "holds", evaluation, None, holding, "That keeps the draw. Solved!")
        reply = _best_reply(request, after)
        message = f"That keeps the draw: the only move that does not lose. {them}'s best reply is cell {reply}. Solved!"
        return Step(cell, me, "holds", evaluation, reply, holding, message)
    theirs = evaluation.plies - 1
    when = "next move" if theirs == 1 else f"in {theirs} moves"
    if len(holding) == 1:
        answer = f"The only move that does not lose was cell {holding[0]}."
    else:
        answer = f"The moves that do not lose were {cells_in_words(holding)}." if holding else ""
    return Step(cell, me, "loses", evaluation, None, holding, f"That loses: {them} wins {when}. {answer}".strip())


def _best_reply(request, board: engine.Board) -> int:
    """The opponent's reply: its longest resistance (of its best moves, the
    one that leaves the learner the fewest winning answers), as the stored
    solution has it."""
    return asking.ask(request, engine_jobs.toughest_reply, str(board), REPLY_BUDGET, budget=REPLY_BUDGET)


def _the_answer(cells: tuple[int, ...]) -> str:
    if not cells:  # only when a puzzle promised more than the position holds
        return "No move wins that fast from here."
    if len(cells) == 1:
        return f"The only winning move was cell {cells[0]}."
    return f"The winning moves were {cells_in_words(cells)}."


def _unsolved(cell: int) -> str:
    return f"The engine could not check cell {cell} in time, so it does not judge it: try it again."
