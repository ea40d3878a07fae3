"""What simpler searches would visit: the figures beside the engine's own.

Beside the positions its own search visited, an analysis reports what a
textbook alpha-beta (:func:`textbook_nodes`) and a plain minimax
(:func:`minimax_nodes`) would visit for the same answer. A count that would
run too long stops early and is then a lower bound, never more than the true
count.
"""

from __future__ import annotations

from games.rules import Board, Geometry
from games.search.solver import INF, TREE_3, WIN

#: A textbook alpha-beta is counted up to this many nodes, then "more than".
TEXTBOOK_COUNT_LIMIT = 50_000
_TREE_COUNT_LIMIT = 10  # count game trees exactly up to this many free cells


class _CountLimit(Exception):
    pass


def textbook_nodes(geo: Geometry, me: int, opp: int, limit: int = TEXTBOOK_COUNT_LIMIT) -> tuple[int, bool]:
    """Nodes a textbook alpha-beta visits to score every legal cell: no memory,
    cells in index order, a full window for each cell, depth-aware scores.

    Returns (count, exact); past ``limit`` it stops and the count is a lower bound.
    """
    full, through, cells = geo.full, geo.lines_through, geo.cells
    count = 0

    def visit(me: int, opp: int, alpha: int, beta: int) -> int:
        nonlocal count
        occupied = me | opp
        ply = occupied.bit_count()
        best = -INF
        for cell in range(cells):
            bit = 1 << cell
            if occupied & bit:
                continue
            count += 1
            if count > limit:
                raise _CountLimit
            mine = me | bit
            if any(mine & line == line for line in through[cell]):
                score = WIN - ply - 1
            elif mine | opp == full:
                score = 0
            else:
                score = -visit(opp, mine, -beta, -alpha)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    count = 1  # the position itself
    occupied = me | opp
    try:
        for cell in range(cells):
            bit = 1 << cell
            if occupied & bit:
                continue
            count += 1
            mine = me | bit
            if not any(mine & line == line for line in through[cell]) and mine | opp != full:
                visit(opp, mine, -INF, INF)
    except _CountLimit:
        return limit, False
    return count, True


def _full_width_nodes(empties: int, depth: int) -> int:
    """Nodes of a full-width tree ``depth`` plies deep over ``empties`` free cells."""
    total, layer = 1, 1
    for i in range(min(depth, empties)):
        layer *= empties - i
        total += layer
    return total


def _game_tree_size(geo: Geometry, me: int, opp: int, memo: dict[int, int]) -> int:
    """Nodes a plain minimax visits from this position (the position included)."""
    key = me | opp << geo.cells
    size = memo.get(key)
    if size is not None:
        return size
    size = 1
    occupied = me | opp
    for cell in range(geo.cells):
        bit = 1 << cell
        if occupied & bit:
            continue
        mine = me | bit
        if any(mine & line == line for line in geo.lines_through[cell]) or (mine | opp) == geo.full:
            size += 1
        else:
            size += _game_tree_size(geo, opp, mine, memo)
    memo[key] = size
    return size


def minimax_nodes(board: Board) -> tuple[int, bool]:
    """Nodes a plain minimax visits from ``board``: (count, exact).

    Counted exactly when the tree is small enough; otherwise a lower bound:
    until either side could first complete a line, no position in the tree
    ends the game, so the tree holds at least that full-width top.
    """
    geo = board._geo
    if geo.size == 3:
        return TREE_3[board._x | board._o << 9], True
    me, opp = board._mover_masks()
    empties = geo.cells - board.ply
    if empties <= _TREE_COUNT_LIMIT:
        return _game_tree_size(geo, me, opp, {}), True
    need_me = min((geo.k - (me & line).bit_count() for line in geo.lines if not opp & line), default=geo.cells)
    need_opp = min((geo.k - (opp & line).bit_count() for line in geo.lines if not me & line), default=geo.cells)
    first_win = min(2 * need_me - 1, 2 * need_opp)  # plies until the earliest possible win
    return _full_width_nodes(empties, first_win), False
