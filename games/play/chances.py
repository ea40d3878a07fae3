"""Practical chances in words: the traps a move leaves the opponent.

The engine's outcomes are exact, and often equal: every first move on 3x3
draws. Among moves with the same outcome, the engine counts each one's
traps (``engine.analyse(board, traps=True)``): the opponent's replies that
would give up part of its outcome. This module says them the way the hint,
the AI's view, the analysis board and the review do. Pure words: the
counting is the engine's, searched in its workers.
"""

from __future__ import annotations

from collections.abc import Callable

from games import engine


def ways_to_go_wrong(count: int, outcome: str) -> str:
    """The traps a move with ``outcome`` (for its player) leaves, in words:
    after a draw a trap loses ("7 ways to lose"); after a loss it lets the
    win slip ("1 way to let the win slip")."""
    ways = "no way" if count == 0 else "1 way" if count == 1 else f"{count} ways"
    return f"{ways} to lose" if outcome == "draw" else f"{ways} to let the win slip"


def short_traps(count: int) -> str:
    """What fits inside a cell: "7 traps", "1 trap"."""
    return "1 trap" if count == 1 else f"{count} traps"


def traps_shown(analysis: engine.Analysis) -> bool:
    """Whether a board of cells shows traps: every cell has the same outcome
    (so the outcomes alone tell the cells apart no more than they tell them
    from each other), the traps were counted, and some move leaves one."""
    if not analysis or not analysis.exact or analysis.traps is None:
        return False
    return (
        len({e.outcome for e in analysis.values()}) == 1
        and set(analysis.traps) == set(analysis)
        and any(analysis.traps.values())
    )


def traps_legend(board: engine.Board, analysis: engine.Analysis) -> str:
    """What the traps on a board of cells count, when it shows them
    (:func:`traps_shown`); "" otherwise."""
    if not traps_shown(analysis):
        return ""
    opponent = engine.other_side(board.to_move)
    outcome = next(iter(analysis.values())).outcome
    going_wrong = "lose" if outcome == "draw" else "let the win slip"
    return (
        f"Every move has the same result here, so each cell also counts its traps: how many of "
        f"{opponent}'s replies would then {going_wrong}. The more traps, the more ways {opponent} has to go wrong."
    )


def _kind(cell: int, size: int) -> str:
    """On 3x3 the corner, edge or centre a learner knows; "" on larger boards."""
    if size != 3:
        return ""
    return "centre" if cell == 4 else "corner" if cell in (0, 2, 6, 8) else "edge"


def _this(cell: int, size: int) -> str:
    kind = _kind(cell, size)
    return "the centre" if kind == "centre" else f"this {kind}" if kind else "this move"


def _another(cell: int, size: int, beside: int) -> str:
    """``cell`` named beside ``beside``, the cell already named "this ..."."""
    kind = _kind(cell, size)
    if kind == "centre":
        return "the centre"
    if kind and kind == _kind(beside, size):
        return f"another {kind}"
    if kind:
        return f"an {kind}" if kind == "edge" else f"a {kind}"
    return f"row {cell // size + 1}, column {cell % size + 1}"


def hint_reason(board: engine.Board, analysis: engine.Analysis, cell: int) -> str:
    """Why the hint chose ``cell`` among equally good moves, by its traps:
    "Every move draws; this corner leaves O 7 ways to lose, an edge only 4."
    ("" when the traps were not counted or the move leaves none)."""
    traps = analysis.traps
    best = analysis.best_cells
    if traps is None or cell not in best or not traps.get(cell):
        return ""
    outcome = analysis[cell].outcome
    opponent = engine.other_side(board.to_move)
    words = ways_to_go_wrong(traps[cell], outcome)
    fewest = min(best, key=lambda other: (traps[other], other))
    if len(best) == 1 or traps[fewest] == traps[cell]:
        return f"It leaves {opponent} {words}."
    if outcome == "draw":
        lead = "Every move draws" if len(best) == len(analysis) else f"{len(best)} moves draw"
    else:
        lead = "Every move loses" if len(best) == len(analysis) else f"{len(best)} moves hold out longest"
    size = board.size
    fewer = f"only {traps[fewest]}" if traps[fewest] else "none"
    return f"{lead}; {_this(cell, size)} leaves {opponent} {words}, {_another(fewest, size, cell)} {fewer}."


def review_traps_note(move: engine.MoveReview, name: Callable[[int], str]) -> str:
    """What a reviewed move's traps add to its verdict: "It left O 4 ways to
    lose; row 1, col 1 would have left 7." ("" when none were counted or
    none was left, nor could be). ``name(cell)`` names a cell."""
    if move.traps is None or move.most_traps is None or not move.most_traps:
        return ""
    opponent = engine.other_side(move.player)
    left = f"It left {opponent} {ways_to_go_wrong(move.traps, move.played.outcome)}"
    if move.most_traps > move.traps:
        return f"{left}; {name(move.most_traps_cell)} would have left {move.most_traps}."
    return f"{left}, as many as any move could."
