"""The search, recorded: minimax and alpha-beta as the classroom draws them.

The engine's own search (``solver.py``) is built to be fast: memory, symmetry,
a table for 3x3. This one is built to be watched. It searches as the textbook
does, one position after another with no memory, and records every position it
visits in the order it visits them: the move that led there, the value it
passes up, the α and β it carried in and out, and the moves alpha-beta never
looked at, with the reason.

Values are X's: X maximises, O minimises, whoever is to move at the root. A
game won ``d`` plies below the root is worth ``WIN_SCORE - d`` to its winner
with depth-aware scoring (a quicker win is worth more, a later loss costs
less), and just 1 with "fatalist" scoring, which cannot tell a win now from a
win later; a draw is 0 either way.

A page must never ask for millions of nodes, so :func:`search_tree` draws the
tree only down to a depth whose nodes fit :data:`TREE_NODES_LIMIT`. Below it
positions are still searched and counted, but not kept: plain minimax's values
and counts there come from a memoised pass over the same tree (minimax's value
and node count do not depend on the path, only on the position), alpha-beta's
from walking it, which is cheap because alpha-beta cuts most of it.

Bigger positions are searched **depth-limited** (:func:`horizon_tree`), the
next step of every course after plain minimax: the search stops a few plies
below the root and scores the positions there with an evaluation function
(:func:`evaluate`, in words :data:`EVALUATION_WORDS`) instead of playing on
to the end. A win it does see is worth ``HORIZON_WIN_SCORE - d``, more than
any evaluation.
"""

from __future__ import annotations

import functools
import random

from games.rules import Board, Geometry
from games.search.nodes import HORIZON_WIN_SCORE, INFINITY, WIN_SCORE, Cut, SearchNode, SearchTree

TREE_ALGORITHMS = ("minimax", "alphabeta")
TREE_SCORINGS = ("depth", "fatalist")
#: Cells ascending (the classroom's loop), the engine's own order (centre,
#: then corners, then edges), or shuffled afresh at each position by a seed.
TREE_ORDERS = ("index", "centre", "random")

#: The tree explorer takes positions with at most this many free cells: every
#: 3x3 position, and the last plies of 4x4 and 5x5.
TREE_MAX_FREE_CELLS = 9
#: At most this many nodes are drawn; deeper ones are searched but not kept.
TREE_NODES_LIMIT = 400

#: The depths a depth-limited search takes, in plies below the root.
HORIZON_DEPTHS = range(1, 5)
#: An open line's worth by its marks: 1, 3 or 9 for one, two or three.
LINE_WORTH = (0, 1, 3, 9)
EVALUATION_WORDS = (
    "A line still open to X (marks of X's in it and none of O's) is worth 1 to X with one mark, "
    "3 with two and 9 with three; a line open to O is worth as much to O. A line with marks of both "
    "is dead: nobody can win it. The position's value is X's open lines' worth minus O's."
)
EVALUATION_FORMULA = "E = Σ 3^(k−1) over X's open lines − Σ 3^(k−1) over O's open lines, k the line's marks"


def check_searchable(board: Board) -> None:
    """Refuse, saying why, a position the explorer does not draw."""
    if board.is_game_over():
        raise ValueError(f'the game is over in "{board}": there is nothing left to search')
    free = len(board.legal_moves)
    if free > TREE_MAX_FREE_CELLS:
        raise ValueError(
            f"this {board.variant} position has {free} free cells; the tree explorer takes at most "
            f"{TREE_MAX_FREE_CELLS}, so play {free - TREE_MAX_FREE_CELLS} more moves first"
        )


def search_tree(
    board: Board,
    algorithm: str = "minimax",
    scoring: str = "depth",
    order: str = "index",
    seed: int = 1,
    depth: int | None = None,
) -> SearchTree:
    """Search ``board`` as ``algorithm`` does and record what it visits.

    The tree is drawn to ``depth`` plies below the root, or as deep as fits
    :data:`TREE_NODES_LIMIT` nodes when ``depth`` is None or more than fits.
    Raises ValueError for a finished game, a position with more than
    :data:`TREE_MAX_FREE_CELLS` free cells, or an unknown algorithm, scoring or order.
    """
    return _search_tree(board, algorithm, scoring, order, seed, depth)


@functools.lru_cache(maxsize=128)
def _search_tree(board: Board, algorithm: str, scoring: str, order: str, seed: int, depth: int | None) -> SearchTree:
    # Trees are immutable, so a page asked again (each step is a request) pays once.
    check_searchable(board)
    return _recorded(_Search(board, algorithm, scoring, order, seed), board, depth)


def horizon_tree(board: Board, depth: int, algorithm: str = "alphabeta", order: str = "centre") -> SearchTree:
    """Search ``board``, a 4x4 or 5x5 position, ``depth`` plies deep (one of
    :data:`HORIZON_DEPTHS`) and score the positions there with :func:`evaluate`;
    the tree is drawn as deep as fits :data:`TREE_NODES_LIMIT` nodes. Raises
    ValueError for a 3x3 board (search it to the end instead), a finished
    game, a depth out of range, or an unknown algorithm or order."""
    return _horizon_tree(board, depth, algorithm, order)


@functools.lru_cache(maxsize=64)
def _horizon_tree(board: Board, depth: int, algorithm: str, order: str) -> SearchTree:
    if board.size == 3:
        raise ValueError("a 3x3 position is searched to the end of the game: the depth limit is for 4x4 and 5x5")
    if board.is_game_over():
        raise ValueError(f'the game is over in "{board}": there is nothing left to search')
    if depth not in HORIZON_DEPTHS:
        raise ValueError(f"the depth is {HORIZON_DEPTHS.start} to {HORIZON_DEPTHS.stop - 1} moves, not {depth}")
    return _recorded(_HorizonSearch(board, algorithm, order, depth), board, None, horizon=depth)


def evaluate(board: Board) -> int:
    """The evaluation function of a depth-limited search, from X's side
    (:data:`EVALUATION_WORDS`): 0 on the empty board, 9 for X's three in an
    open line of four."""
    return _HorizonSearch.worth(board._geo, board._x, board._o)


def _recorded(search: _Search, board: Board, depth: int | None, horizon: int | None = None) -> SearchTree:
    layers = search.layers()
    fits = 0
    while fits < len(layers) - 1 and sum(layers[: fits + 2]) <= TREE_NODES_LIMIT:
        fits += 1
    drawn = fits if depth is None else max(1, min(depth, fits))
    nodes = search.record(drawn)
    return SearchTree(
        position=str(board),
        algorithm=search.algorithm,
        scoring=search.scoring,
        order=search.order,
        seed=search.seed,
        nodes=nodes,
        visited=nodes[0].visited,
        depth=min(drawn, len(layers) - 1),
        height=len(layers) - 1,
        layers=layers,
        horizon=horizon,
    )


def nodes_visited(board: Board, algorithm: str, scoring: str = "depth", order: str = "index", seed: int = 1) -> int:
    """How many positions ``algorithm`` visits from ``board`` (the root included),
    counted without recording any: 549,946 for plain minimax on the empty 3x3."""
    return _nodes_visited(board, algorithm, scoring, order, seed)


@functools.lru_cache(maxsize=512)
def _nodes_visited(board: Board, algorithm: str, scoring: str, order: str, seed: int) -> int:
    check_searchable(board)
    return sum(_Search(board, algorithm, scoring, order, seed).layers())


def move_values(board: Board, scoring: str = "depth") -> dict[int, int]:
    """What plain minimax makes of each legal move, from X's side: the values
    the root chooses among."""
    check_searchable(board)
    search = _Search(board, "minimax", scoring, "index", 1)
    values = {}
    for cell in search.moves(search.x, search.o):
        x, o, result, worth = search.play(search.x, search.o, cell)
        values[cell] = worth if result is not None else search.minimax(x, o)[0]
    return values


class _Search:
    """One search's settings and its walk over bitmasks (``rules.Board``'s own)."""

    #: What a win ``d`` plies below the root is worth, less ``d`` (depth-aware scores).
    win_score = WIN_SCORE

    def __init__(self, board: Board, algorithm: str, scoring: str, order: str, seed: int):
        for name, value, choices in (("algorithm", algorithm, TREE_ALGORITHMS), ("scoring", scoring, TREE_SCORINGS),
                                     ("order", order, TREE_ORDERS)):  # fmt: skip
            if value not in choices:
                raise ValueError(f"{name} {value!r} is not one of {', '.join(choices)}")
        self.geo: Geometry = board._geo
        self.root_ply = board.ply
        self.x, self.o = board._x, board._o
        self.algorithm, self.scoring = algorithm, scoring
        self.alphabeta = algorithm == "alphabeta"
        self.fatalist = scoring == "fatalist"
        self.order, self.seed = order, seed
        self._minimax_memo: dict[int, tuple[int, tuple[int, ...]]] = {}
        self._orders: dict[int, list[int]] = {}

    # -- the rules, on bitmasks ------------------------------------------------

    def moves(self, x: int, o: int) -> list[int]:
        """The free cells in the order this search tries them."""
        key = x | o << self.geo.cells
        known = self._orders.get(key)
        if known is not None:
            return known
        occupied = x | o
        if self.order == "centre":
            free = [cell for cell in self.geo.order if not occupied >> cell & 1]
        else:
            free = [cell for cell in range(self.geo.cells) if not occupied >> cell & 1]
        if self.order == "random":
            # Seeded by the position too, so a position's order is the same however it is reached.
            random.Random(self.seed << 64 | key).shuffle(free)
        self._orders[key] = free
        return free

    def play(self, x: int, o: int, cell: int) -> tuple[int, int, str | None, int]:
        """(x, o, result, end value) after the mover marks ``cell``; result is
        None while the game goes on."""
        x_moves = x.bit_count() == o.bit_count()
        bit = 1 << cell
        x, o = (x | bit, o) if x_moves else (x, o | bit)
        marks = x if x_moves else o
        if any(marks & line == line for line in self.geo.lines_through[cell]):
            depth = (x | o).bit_count() - self.root_ply
            worth = 1 if self.fatalist else self.win_score - depth
            return x, o, ("x_won" if x_moves else "o_won"), worth if x_moves else -worth
        if x | o == self.geo.full:
            return x, o, "draw", 0
        return x, o, None, 0

    def to_move(self, x: int, o: int) -> str:
        return "X" if x.bit_count() == o.bit_count() else "O"

    def position(self, x: int, o: int) -> str:
        return "".join("X" if x >> i & 1 else "O" if o >> i & 1 else "." for i in range(self.geo.cells))

    # -- counting --------------------------------------------------------------

    def layers(self) -> tuple[int, ...]:
        """Positions visited at each depth below the root, the root's layer first."""
        if not self.alphabeta:
            return self.minimax(self.x, self.o)[1]
        counts: list[int] = []
        self.search_alphabeta(self.x, self.o, 0, -INFINITY, INFINITY, counts)
        return tuple(counts)

    def minimax(self, x: int, o: int) -> tuple[int, tuple[int, ...]]:
        """Plain minimax's value and layers below a position, memoised: both
        depend only on the position (its depth below the root is its marks')."""
        key = x | o << self.geo.cells
        known = self._minimax_memo.get(key)
        if known is not None:
            return known
        maximising = self.to_move(x, o) == "X"
        best = -INFINITY if maximising else INFINITY
        layers = [1]
        for cell in self.moves(x, o):
            cx, co, result, worth = self.play(x, o, cell)
            below: tuple[int, ...] = (1,)
            if result is None:
                worth, below = self.minimax(cx, co)
            best = max(best, worth) if maximising else min(best, worth)
            for i, count in enumerate(below, start=1):
                if i == len(layers):
                    layers.append(0)
                layers[i] += count
        known = self._minimax_memo[key] = (int(best), tuple(layers))
        return known

    def search_alphabeta(self, x: int, o: int, depth: int, alpha: float, beta: float, counts: list[int]) -> int:
        """Alpha-beta's value, counting the positions it visits at each depth."""
        if depth == len(counts):
            counts.append(0)
        counts[depth] += 1
        maximising = self.to_move(x, o) == "X"
        best = -INFINITY if maximising else INFINITY
        for cell in self.moves(x, o):
            cx, co, result, worth = self.play(x, o, cell)
            if result is None:
                worth = self.search_alphabeta(cx, co, depth + 1, alpha, beta, counts)
            else:
                if depth + 1 == len(counts):
                    counts.append(0)
                counts[depth + 1] += 1
            if maximising:
                best = max(best, worth)
                alpha = max(alpha, best)
            else:
                best = min(best, worth)
                beta = min(beta, best)
            if beta <= alpha:
                break
        return int(best)

    # -- recording -------------------------------------------------------------

    def record(self, drawn: int) -> tuple[SearchNode, ...]:
        """Walk the search again, keeping the nodes down to ``drawn`` plies."""
        self.drawn, self.nodes, self.visits = drawn, [], 0
        self._record(self.x, self.o, None, None, 0, (-INFINITY, INFINITY), None, 0)
        return tuple(self.nodes)

    def _record(self, x, o, parent, move, depth, window, result, worth) -> SearchNode:
        self.visits += 1
        step, visit = len(self.nodes), self.visits
        self.nodes.append(None)  # the parent's place comes before its children's
        to_move = None if result else self.to_move(x, o)
        value, best_move, children, cut, visited, window_out = worth, None, (), None, 1, window
        if result is None and depth == self.drawn:  # the frontier: searched and counted, not drawn
            counts: list[int] = []
            if self.alphabeta:
                value = self.search_alphabeta(x, o, 0, *window, counts)
            else:
                value, layers = self.minimax(x, o)
                counts = list(layers)
            visited = sum(counts)
            self.visits += visited - 1
            window_out = self._window_after(to_move, window, value)
        elif result is None:
            value, best_move, children, cut, window_out = self._choose(x, o, step, depth, window)
            visited = 1 + sum(self.nodes[c].visited for c in children)
        bound = "exact"
        if self.alphabeta and result is None and not children:
            # Fail-soft: a value that came back outside the window is only a bound.
            bound = "at most" if value <= window[0] else "at least" if value >= window[1] else "exact"
        elif self.alphabeta and result is None:
            bound = self._bound(to_move, value, children, cut)
        shown_in, shown_out = (window, window_out) if self.alphabeta else ((None, None), (None, None))
        node = SearchNode(
            step=step,
            visit=visit,
            parent=parent,
            move=move,
            depth=depth,
            position=self.position(x, o),
            to_move=to_move,
            result=result,
            value=value,
            bound=bound,
            best_move=best_move,
            alpha_in=shown_in[0],
            beta_in=shown_in[1],
            alpha_out=shown_out[0],
            beta_out=shown_out[1],
            children=children,
            cut=cut,
            visited=visited,
            last=max((self.nodes[c].last for c in children), default=step),
        )
        self.nodes[step] = node
        return node

    def _choose(self, x, o, step, depth, window):
        """Try the moves below a drawn node in turn: (value, best move, children, cut, window on the way out)."""
        to_move = self.to_move(x, o)
        maximising = to_move == "X"
        best, best_move, children, cut = (-INFINITY if maximising else INFINITY), None, [], None
        moves = self.moves(x, o)
        for i, cell in enumerate(moves):
            cx, co, result, worth = self.play(x, o, cell)
            child = self._record(cx, co, step, cell, depth + 1, window, result, worth)
            children.append(child.step)
            if (child.value > best) if maximising else (child.value < best):
                best, best_move = child.value, cell
            if self.alphabeta:
                window = self._window_after(to_move, window, best)
                if window[1] <= window[0] and i + 1 < len(moves):
                    cut = Cut(tuple(moves[i + 1 :]), *window, to_move)
                    break
        return int(best), best_move, tuple(children), cut, window

    def _bound(self, to_move: str, value: int, children: tuple[int, ...], cut: Cut | None) -> str:
        """What alpha-beta knows of a drawn node's value, from its moves: a
        cut, or a move that is itself only a bound in the mover's favour,
        leaves it a bound that way; a move with that exact value makes it
        exact; else every move was at most (for X; at least, for O) its value."""
        better, worse = ("at least", "at most") if to_move == "X" else ("at most", "at least")
        tried = [self.nodes[c] for c in children]
        if cut or any(child.bound == better for child in tried):
            return better
        if any(child.bound == "exact" and child.value == value for child in tried):
            return "exact"
        return worse

    def _window_after(self, to_move: str, window: tuple[float, float], value: int) -> tuple[float, float]:
        """α and β once a move came back with ``value``: X raises α, O lowers β."""
        alpha, beta = window
        return (max(alpha, value), beta) if to_move == "X" else (alpha, min(beta, value))


class _HorizonSearch(_Search):
    """A depth-limited search: positions ``limit`` plies below the root are
    not searched further but scored by the evaluation function."""

    win_score = HORIZON_WIN_SCORE

    def __init__(self, board: Board, algorithm: str, order: str, limit: int):
        super().__init__(board, algorithm, "depth", order, 1)
        self.limit = limit

    @staticmethod
    def worth(geo: Geometry, x: int, o: int) -> int:
        value = 0
        for line in geo.lines:
            in_x, in_o = (x & line).bit_count(), (o & line).bit_count()
            if not in_o:
                value += LINE_WORTH[in_x]
            elif not in_x:
                value -= LINE_WORTH[in_o]
        return value

    def _at_horizon(self, x: int, o: int) -> bool:
        return (x | o).bit_count() - self.root_ply >= self.limit

    def minimax(self, x: int, o: int) -> tuple[int, tuple[int, ...]]:
        if self._at_horizon(x, o):
            return self.worth(self.geo, x, o), (1,)
        return super().minimax(x, o)

    def search_alphabeta(self, x: int, o: int, depth: int, alpha: float, beta: float, counts: list[int]) -> int:
        if not self._at_horizon(x, o):
            return super().search_alphabeta(x, o, depth, alpha, beta, counts)
        if depth == len(counts):
            counts.append(0)
        counts[depth] += 1
        return self.worth(self.geo, x, o)
