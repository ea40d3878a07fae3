"""Reviews that teach: for a move of a finished game, the better move, the
line of best play that follows it, and the sentence that says what was at stake.

The engine's review (``engine.review``) labels every move; this module adds
what a learner needs to understand a label: where the better move was, how
the game goes on after it and after the move played, and, for the move that
decided the game, why it did. Cells are named the way the move list names
them, "row 2, col 3", everywhere here.

All of it is searched once, by the background worker, a moment after the game
ends (:func:`review_with_lessons`, stored by
``games.play.review_services.game_review_store``); the game page, its replay,
the API and the mistakes trainer read what was stored (:class:`ReviewedGame`)
and never search.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games import engine
from games.play.chances import review_traps_note

#: Seconds the background worker gives the engine for a whole game's review on
#: 4x4 and 5x5 (3x3 is a table look-up). Nobody waits on it, so it is generous:
#: a move still unsolved after it is labelled "unsolved", never guessed.
REVIEW_BUDGET = 120.0
#: Seconds for each line of best play a lesson shows.
LINE_BUDGET = 20.0
#: Seconds for the analysis of the position before each mistake and blunder,
#: against which the mistakes trainer judges a learner's answer.
ANALYSIS_BUDGET = 30.0


# --------------------------------------------------------------------------
# Words.


def cell_name(cell: int, size: int) -> str:
    """A cell as the move list names it: "row 2, col 3"."""
    row, col = divmod(cell, size)
    return f"row {row + 1}, col {col + 1}"


def _moves(count: int) -> str:
    return "1 move" if count == 1 else f"{count} moves"


def would_have(evaluation: engine.Evaluation) -> str:
    """What a better move would have done, counted from that move itself:
    "would have won in 3 moves", "would have drawn", "would have lost more slowly, in 6 moves"."""
    if evaluation.outcome == "win":
        return "would have won at once" if evaluation.plies == 1 else f"would have won in {_moves(evaluation.plies)}"
    if evaluation.outcome == "draw":
        return "would have drawn"
    return f"would have lost more slowly, in {_moves(evaluation.plies)}"


def what_follows(evaluation: engine.Evaluation, mover: str) -> str:
    """How the game goes on after a move, with best play from both sides,
    counted after it: "O wins in 3 more moves", "X wins with the next move",
    "it is a draw with best play"."""
    if evaluation.plies == 1:
        return f"{mover} has won" if evaluation.outcome == "win" else "the game ends in a draw"
    if evaluation.outcome == "draw":
        return "it is a draw with best play"
    winner = mover if evaluation.outcome == "win" else engine.other_side(mover)
    more = evaluation.plies - 1
    return f"{winner} wins with the next move" if more == 1 else f"{winner} wins in {more} more moves"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------
# A line of best play, as a learner reads it.


@dataclass(frozen=True)
class Step:
    """One move of a line: its number in the game (1 for the first move), who plays it and where."""

    number: int
    mark: str
    cell: int
    name: str


@dataclass(frozen=True)
class ShownLine:
    """A line of best play from a position, move by move, and how it ends in words."""

    steps: tuple[Step, ...]
    ending: str  # "X wins", "O wins", "a draw", or what stopped it
    complete: bool


def shown_line(board: engine.Board, cells: tuple[int, ...], complete: bool = True) -> ShownLine:
    """``cells`` played in turn from ``board``, named and numbered as in the game."""
    steps = []
    for cell in cells:
        steps.append(Step(board.ply + 1, board.to_move, cell, cell_name(cell, board.size)))
        board = board.play(cell)
    if not complete:
        ending = "the engine ran out of time here; it does not guess the rest"
    elif board.winner:
        ending = f"{board.winner} wins"
    else:
        ending = "a draw"
    return ShownLine(tuple(steps), ending, complete)


# --------------------------------------------------------------------------
# One move's lesson, for the game page and its replay.


@dataclass(frozen=True)
class Lesson:
    """What one reviewed move teaches: what was played, its label, and for
    anything but *best* the better move and the lines after it and after
    the move played."""

    move: engine.MoveReview
    size: int
    decisive: bool
    better_line: ShownLine | None  # the better move, then best play
    played_line: ShownLine | None  # best play after the move played

    @property
    def number(self) -> int:
        return self.move.ply + 1

    @property
    def played_name(self) -> str:
        return cell_name(self.move.cell, self.size)

    @property
    def better_cells(self) -> tuple[int, ...]:
        """Every cell that would have done better than the move played (none for *best*)."""
        return self.move.best_cells if self.move.label in engine.LABELS[1:] else ()

    @property
    def better_cell(self) -> int | None:
        """The better move whose line is shown: the lowest of the better cells."""
        return self.better_cells[0] if self.better_cells else None

    @property
    def better_name(self) -> str:
        return cell_name(self.better_cell, self.size) if self.better_cells else ""

    @property
    def also_better(self) -> list[str]:
        """The other better cells, named: as good as the one whose line is shown."""
        return [cell_name(cell, self.size) for cell in self.better_cells[1:]]

    @property
    def verdict(self) -> str:
        """The sentence: "Row 3, col 1 would have drawn; after row 1, col 3, O wins in 3 more moves."
        For a move that kept the outcome, what its traps add: "It left O 4 ways to lose; row 1,
        col 1 would have left 7." """
        move = self.move
        if move.label == "unsolved":
            return f"{_capital(self.played_name)}: not solved in time, and the engine does not guess."
        after = what_follows(move.played, move.player)
        traps = review_traps_note(move, lambda cell: cell_name(cell, self.size))
        if move.label == "best":
            verdict = f"{_capital(self.played_name)} was the best move: after it, {after}."
        else:
            verdict = f"{_capital(self.better_name)} {would_have(move.best)}; after {self.played_name}, {after}."
        return f"{verdict} {traps}" if traps else verdict

    @property
    def better_note(self) -> str:
        """What a better cell on the board says to a screen reader."""
        return f"the better move for {self.move.player}, it {would_have(self.move.best)}"

    @property
    def decided(self) -> str:
        """Why the decisive move decided the game ("" for any other move)."""
        return f"This move decided the game: {why_decisive(self.move)}." if self.decisive else ""


def why_decisive(move: engine.MoveReview) -> str:
    """Why a move labelled mistake or blunder changed the outcome:
    "until it, X could still draw; from here O wins with best play, whatever X does"."""
    mover = move.player
    before = f"{mover} could still {'win' if move.best.outcome == 'win' else 'draw'}"
    if move.played.outcome == "loss":
        after = f"{engine.other_side(mover)} wins with best play, whatever {mover} does"
    else:
        after = f"the best {mover} can get is a draw"
    return f"until it, {before}; from here {after}"


def decisive_summary(review: engine.Review | None, size: int) -> str:
    """The decisive move in words, after "The result was decided by move N":
    "X at row 1, col 3: until it, ..." ("" when no move decided the result)."""
    if review is None or review.decisive_ply is None:
        return ""
    move = review.moves[review.decisive_ply]
    return f"{move.player} at {cell_name(move.cell, size)}: {why_decisive(move)}"


# --------------------------------------------------------------------------
# A finished game's review with everything its lessons show, as stored.


@dataclass(frozen=True)
class ReviewedGame:
    """The engine's review of a finished game, with what its lessons show:
    for every move labelled inaccuracy, mistake or blunder the lines of best
    play after the better move and after the move played, and for every
    mistake and blunder each legal cell's evaluation in the position before
    it (what the mistakes trainer judges an answer by)."""

    review: engine.Review
    lines: dict[int, tuple[engine.Line, engine.Line]]  # ply: (after the better move, after the move played)
    analyses: dict[int, dict[int, engine.Evaluation]]  # ply: {cell: evaluation} before the move

    def to_json(self) -> dict:
        """As plain values, for a JSON column: :meth:`from_json` gives the same ReviewedGame back."""
        return {
            **self.review.to_dict(),
            "lines": [
                {"ply": ply, "better": better.to_dict(), "played": played.to_dict()}
                for ply, (better, played) in sorted(self.lines.items())
            ],
            "analyses": [
                {"ply": ply, "cells": [{"cell": cell, **e.to_dict()} for cell, e in sorted(cells.items())]}
                for ply, cells in sorted(self.analyses.items())
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> ReviewedGame:
        """The ReviewedGame :meth:`to_json` made ``data`` of."""
        review = engine.Review.from_dict({key: data[key] for key in ("moves", "decisive_ply", "exact")})
        lines = {
            line["ply"]: (engine.Line.from_dict(line["better"]), engine.Line.from_dict(line["played"]))
            for line in data["lines"]
        }
        analyses = {
            analysis["ply"]: {cell["cell"]: engine.Evaluation.from_dict(cell) for cell in analysis["cells"]}
            for analysis in data["analyses"]
        }
        return cls(review, lines, analyses)


def review_with_lessons(cells: Sequence[int], size: int) -> ReviewedGame:
    """Review the game ``cells`` played on a ``size`` board and search what its
    lessons show, with the engine itself and the generous budgets above: the
    background worker's work, never a request's."""
    review = engine.review(cells, size=size, budget=REVIEW_BUDGET)
    lines, analyses = {}, {}
    before = engine.Board.empty(size)
    for move in review.moves:
        if move.label in engine.LABELS[1:] and move.best_cells:
            lines[move.ply] = (
                engine.principal_variation(before.play(move.best_cells[0]), budget=LINE_BUDGET),
                engine.principal_variation(before.play(move.cell), budget=LINE_BUDGET),
            )
        if move.label in TO_RETRY:
            analyses[move.ply] = dict(engine.analyse(before, budget=ANALYSIS_BUDGET))
        before = before.play(move.cell)
    return ReviewedGame(review, lines, analyses)


def move_lesson(game, reviewed: ReviewedGame | None, ply: int) -> Lesson | None:
    """The lesson of move ``ply`` (0 for the first) of a reviewed game, or None
    when there is no such move or no review (yet)."""
    if reviewed is None or not 0 <= ply < len(reviewed.review.moves):
        return None
    move = reviewed.review.moves[ply]
    better_line = played_line = None
    if ply in reviewed.lines:
        better, played = reviewed.lines[ply]
        before = game.board_at(move.ply)
        better_line = shown_line(before, (move.best_cells[0], *better.cells), better.complete)
        played_line = shown_line(before.play(move.cell), played.cells, played.complete)
    return Lesson(move, game.size, reviewed.review.decisive_ply == ply, better_line, played_line)


# --------------------------------------------------------------------------
# Every better move of a game, for the API.


@dataclass(frozen=True)
class BetterMove:
    """The better move of one reviewed move (the lowest of its best cells) and
    the line of best play from the position after it."""

    cell: int
    line: engine.Line


def better_moves(reviewed: ReviewedGame) -> dict[int, BetterMove]:
    """``{ply: BetterMove}`` for every move labelled inaccuracy, mistake or blunder."""
    moves = reviewed.review.moves
    return {ply: BetterMove(moves[ply].best_cells[0], better) for ply, (better, _) in reviewed.lines.items()}


# --------------------------------------------------------------------------
# Learning from mistakes: a better move, tried again.

#: The labels the mistakes trainer brings back: the moves that changed the
#: outcome. An inaccuracy kept it (a slower win, a sooner loss), so "find a
#: move that keeps the outcome" would be answered by the very move played.
TO_RETRY = ("mistake", "blunder")

_THROWN = {
    ("win", "draw"): "a win thrown to a draw",
    ("win", "loss"): "a win thrown to a loss",
    ("draw", "loss"): "a draw thrown to a loss",
}


def mistakes_of(review: engine.Review | None, side: str | None = None) -> list[engine.MoveReview]:
    """The moves labelled mistake or blunder, in order; only ``side``'s when given."""
    if review is None:
        return []
    return [move for move in review.moves if move.label in TO_RETRY and side in (None, move.player)]


def to_keep(move: engine.MoveReview) -> str:
    """What a better move keeps: "win" or "draw" (a mistake or a blunder threw one of them away)."""
    return move.best.outcome


def the_task(move: engine.MoveReview, size: int) -> str:
    """What the learner is asked: "In the game, X played row 1, col 3, a blunder: a draw
    thrown to a loss. Find a move that keeps the draw." """
    return (
        f"In the game, {move.player} played {cell_name(move.cell, size)}, a {move.label}: "
        f"{_THROWN[move.best.outcome, move.played.outcome]}. "
        f"Find a move that keeps the {to_keep(move)}."
    )


@dataclass(frozen=True)
class Answer:
    """A learner's move in the position before a mistake, judged against the exact analysis."""

    cell: int
    evaluation: engine.Evaluation
    keeps: bool  # the same outcome as the best move: the mistake is mended
    best: bool  # as good as the best: the fastest win, or a draw
    message: str


def judge_answer(
    board: engine.Board, move: engine.MoveReview, cell: int, analysis: Mapping[int, engine.Evaluation]
) -> Answer:
    """Whether playing ``cell`` in ``board`` (the position before ``move``) keeps the outcome
    the move played threw away, in words. ``analysis`` is ``engine.analyse(board)``, as stored
    with the review (:attr:`ReviewedGame.analyses`)."""
    mover, name = move.player, cell_name(cell, board.size)
    evaluation = analysis[cell]
    if not evaluation.exact:
        message = f"The engine could not solve {name} in time, and it does not guess. Try another cell."
        return Answer(cell, evaluation, False, False, message)
    keeps = evaluation.outcome == move.best.outcome
    best = evaluation.score == move.best.score
    after = what_follows(evaluation, mover)
    if best:
        message = f"Yes: {_capital(name)} keeps the {to_keep(move)}, as well as any move can. After it, {after}."
    elif keeps:
        fastest = cell_name(move.best_cells[0], board.size)
        faster = "wins at once" if move.best.plies == 1 else f"wins faster, in {_moves(move.best.plies)}"
        message = f"Yes: {_capital(name)} keeps the win (after it, {after}), though {fastest} {faster}."
    elif cell == move.cell:
        message = f"{_capital(name)} is the move played in the game: after it, {after}. Try another cell."
    else:
        message = f"No: {_capital(name)} does not keep the {to_keep(move)}: after it, {after}. Try another cell."
    return Answer(cell, evaluation, keeps, best, message)
