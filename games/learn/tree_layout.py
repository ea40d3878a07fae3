"""A recorded search laid out as a tree drawing: where each node's board, value,
α and β go, the lines between them, and the cut branches with their reason.

Pure Python: it reads the engine's ``SearchTree`` and returns coordinates and
words; the templates (``learn/_tree.svg``) turn them into SVG, on the page and
in the standalone export. The root is on the left, each level a column to
its right (a phone scrolls down, as it is used to, rather than sideways); the
leaves go down in the order the search tried them, each parent level with the
its first child, so the top of the tree is where a page opens. A folded
node is drawn without its subtree, saying how many nodes it hides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from games import engine

#: A node's box: its board at the top, its move, value and window below.
NODE_WIDTH = 104
BOARD_SIZE = 60
NODE_HEIGHT = 124
#: A cut's box, under its siblings.
CUT_HEIGHT = 52
#: Space between two levels (left to right), and between two boxes one above the other.
GAP_X = 40
GAP_Y = 14
#: Room right of the deepest boxes for a folded node's "+".
FOLDED_WIDTH = 36
MARGIN = 12
#: The default drawing keeps about this many boxes on its widest level,
#: folding whole levels below that: a first look fits a screen or two.
DEFAULT_LEAVES = 12


def signed(value: float | None) -> str:
    """+7, −8, 0, +∞ and −∞, as the page writes values and windows."""
    if value is None:
        return ""
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    value = int(value)
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


@dataclass(frozen=True)
class Mark:
    """An X or an O on a drawn board, at its centre ``x``, ``y``."""

    x: float
    y: float
    mark: str
    last: bool


@dataclass
class DrawnNode:
    """A node's box: ``x``, ``y`` its top-left corner."""

    step: int
    x: float
    y: float
    kind: str  # "node", "cut" or "folded" (a node whose subtree is not drawn)
    title: str  # "O plays cell 4", "the position", or the cut's cells
    value: str = ""  # "+7", "≥ 0", "≤ −8"; empty before any move came back
    side: str = "draw"  # "x", "o" or "draw": the value's colour
    window: str = ""  # "α 0 β +∞"
    words: str = ""  # a cut's reason, a game end's result, a folded node's hidden count
    chosen: bool = False
    current: bool = False
    searching: bool = False
    marks: tuple[Mark, ...] = ()
    grid: str = ""  # the board's lines as an SVG path
    mark_size: int = 17  # the marks' font size, smaller on bigger boards
    board_x: float = 0
    board_y: float = 0
    folds: bool = False  # has a subtree that can be folded or opened
    folded: bool = False
    label: str = ""  # the whole node in one sentence, for a screen reader
    path: str = ""  # the moves from the top to here, "X plays 4, O plays 0": names the node uniquely
    given: bool = False  # a worksheet's folded node: its value is printed, the rest is to fill in
    folded_words: str = ""  # "12 nodes folded"
    folded_count: int = 0
    fold_url: str = ""  # the page with this node folded, or opened (set by the page)


@dataclass(frozen=True)
class Edge:
    x1: float
    y1: float
    x2: float
    y2: float
    cut: bool
    chosen: bool


@dataclass
class Drawing:
    width: float
    height: float
    nodes: list[DrawnNode] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)


def default_folds(search: engine.SearchTree, step: int | None = None) -> frozenset[int]:
    """The nodes folded when the address does not say: every node at the
    first level wider than :data:`DEFAULT_LEAVES` boxes, so a first look shows
    the top of the tree (and never the path to the current step folded)."""
    shown = _shown(search, step)
    by_level: dict[int, list[engine.SearchNode]] = {}
    for node in search.nodes:
        if node.step in shown:
            by_level.setdefault(node.depth, []).append(node)
    for level in sorted(by_level):
        below = sum(len([c for c in n.children if c in shown]) + bool(n.cut) for n in by_level[level])
        if below > DEFAULT_LEAVES:
            path = _path(search, step)
            return frozenset(n.step for n in by_level[level] if n.children and n.step not in path)
    return frozenset()


def layout(
    search: engine.SearchTree,
    *,
    step: int | None = None,
    folded: frozenset[int] = frozenset(),
    blank: bool = False,
) -> Drawing:
    """The tree as drawn at ``step`` (None: the whole search), with the nodes in
    ``folded`` drawn without their subtrees. ``blank`` leaves every value, α and
    β out, for a worksheet to fill in, except a folded node's: a class cannot
    work that out from the sheet, so it is given."""
    states = {s.step: s for s in search.at_step(len(search.nodes) - 1 if step is None else step)}
    drawing = Drawing(0, 0)
    next_y = [MARGIN]
    deepest = [0]

    def place(node: engine.SearchNode, level: int) -> DrawnNode:
        state = states[node.step]
        children = [search.nodes[c] for c in node.children if c in states]
        cut = node.cut if node.cut and state.status == "done" else None
        folded_here = node.step in folded and bool(children or cut)
        x = MARGIN + level * (NODE_WIDTH + GAP_X)
        deepest[0] = max(deepest[0], level)
        drawn_children: list[DrawnNode] = []
        if not folded_here:
            drawn_children = [place(child, level + 1) for child in children]
            if cut:
                drawn_children.append(_cut_box(search, node, cut, x + NODE_WIDTH + GAP_X, next_y[0], blank))
                next_y[0] += CUT_HEIGHT + GAP_Y
        if drawn_children:
            y = drawn_children[0].y
            next_y[0] = max(next_y[0], y + NODE_HEIGHT + GAP_Y)
        else:
            y = next_y[0]
            next_y[0] += NODE_HEIGHT + GAP_Y
        box = _node_box(search, node, state, states, x, y, step, blank and not folded_here)
        box.folds, box.folded, box.given = bool(children or cut), folded_here, blank and folded_here
        if box.given:
            box.words, box.chosen = box.words or "given", False
        if folded_here:
            hidden = _count_below(search, node, states)
            box.folded_words = f"{hidden} node{'s' if hidden != 1 else ''} folded"
            box.folded_count = hidden
        drawing.nodes.append(box)
        for child in drawn_children:
            drawing.edges.append(
                Edge(
                    x + NODE_WIDTH,
                    y + NODE_HEIGHT / 2,
                    child.x,
                    child.y + _height(child) / 2,
                    cut=child.kind == "cut",
                    chosen=child.chosen,
                )
            )
            if child.kind == "cut":
                drawing.nodes.append(child)
        return box

    place(search.root, 0)
    drawing.nodes.sort(key=lambda n: (n.x, n.y))
    drawing.width = MARGIN * 2 + (deepest[0] + 1) * NODE_WIDTH + deepest[0] * GAP_X + FOLDED_WIDTH
    drawing.height = max(next_y[0] - GAP_Y + MARGIN, NODE_HEIGHT + 2 * MARGIN)
    return drawing


def rows(drawing: Drawing) -> int:
    """How many boxes the drawing has one above the other, at its tallest."""
    columns: dict[float, int] = {}
    for node in drawing.nodes:
        columns[node.x] = columns.get(node.x, 0) + 1
    return max(columns.values())


def _height(box: DrawnNode) -> int:
    return CUT_HEIGHT if box.kind == "cut" else NODE_HEIGHT


def _node_box(search, node, state, states, x, y, step, blank) -> DrawnNode:
    parent = None if node.parent is None else search.nodes[node.parent]
    chosen = parent is not None and states[parent.step].status == "done" and parent.best_move == node.move
    bound = node.bound if state.status == "done" else "exact"
    value = signed(state.value)
    if value and bound == "at least":
        value = f"≥ {value}"
    elif value and bound == "at most":
        value = f"≤ {value}"
    window = ""
    if state.alpha is not None and not node.result:
        window = f"α {signed(state.alpha)}  β {signed(state.beta)}"
    title = "the position" if parent is None else f"{node.mover} plays {node.move}"
    path = _path_words(search, node)
    words = {"x_won": "X wins", "o_won": "O wins", "draw": "draw"}.get(node.result or "", "")
    if node.hidden:
        words = f"{node.hidden:,} below"
    elif search.horizon is not None and node.depth == search.horizon and not node.result:
        words = "evaluated"
    side = "draw" if state.value is None or state.value == 0 else "x" if state.value > 0 else "o"
    board_x, board_y = x + (NODE_WIDTH - BOARD_SIZE) / 2, y + 6
    label = "The position" if parent is None else f"After {path}"
    if blank:
        value, window = "", ""
        label += ": value to fill in"
    else:
        label += f", value {value}" if value else ", no value yet"
        if window:
            label += f", {window.replace('  ', ', ')}"
    if words:
        label += f", {words}"
    return DrawnNode(
        step=node.step,
        x=x,
        y=y,
        kind="node",
        title=title,
        value=value,
        side=side,
        window=window,
        words=words,
        chosen=chosen and not blank,
        current=node.step == step,
        searching=state.status == "searching",
        marks=_marks(node.position, node.move, board_x, board_y),
        grid=_grid(len(node.position), board_x, board_y),
        mark_size={9: 17, 16: 13, 25: 10}[len(node.position)],
        board_x=board_x,
        board_y=board_y,
        label=label,
        path=path,
    )


def _path_words(search: engine.SearchTree, node: engine.SearchNode) -> str:
    """The moves from the top to ``node``: "X plays 4, O plays 0" ("the position" at the top)."""
    moves = []
    while node.parent is not None:
        moves.append(f"{node.mover} plays {node.move}")
        node = search.nodes[node.parent]
    return ", ".join(reversed(moves)) or "the position"


def _cut_box(search, node, cut, x, y, blank) -> DrawnNode:
    cells = ", ".join(str(c) for c in cut.moves)
    plural = "s" if len(cut.moves) > 1 else ""
    reason = "" if blank else f"β {signed(cut.beta)} ≤ α {signed(cut.alpha)}"
    return DrawnNode(
        step=node.step,
        x=x,
        y=y,
        kind="cut",
        title=f"cut: cell{plural} {cells}",
        words=reason,
        label=f"Cut below {_path_words(search, node)}: "
        f"cell{plural} {cells} not searched" + ("" if blank else f", {cut.reason}"),
    )


def _marks(position: str, last: int | None, left: float, top: float) -> tuple[Mark, ...]:
    n = math.isqrt(len(position))
    size = BOARD_SIZE / n
    return tuple(
        Mark(round(left + (i % n + 0.5) * size, 1), round(top + (i // n + 0.5) * size, 1), mark, i == last)
        for i, mark in enumerate(position)
        if mark != "."
    )


def _grid(cells: int, left: float, top: float) -> str:
    n = math.isqrt(cells)
    size = BOARD_SIZE / n
    parts = []
    for i in range(1, n):
        parts.append(f"M{left + i * size:.1f} {top:g}v{BOARD_SIZE}")
        parts.append(f"M{left:g} {top + i * size:.1f}h{BOARD_SIZE}")
    return "".join(parts)


def _count_below(search, node, states) -> int:
    return sum(1 + _count_below(search, search.nodes[c], states) for c in node.children if c in states)


def _path(search: engine.SearchTree, step: int | None) -> set[int]:
    path: set[int] = set()
    node = None if step is None else search.nodes[step]
    while node is not None:
        path.add(node.step)
        node = None if node.parent is None else search.nodes[node.parent]
    return path


def _shown(search: engine.SearchTree, step: int | None) -> set[int]:
    return {s.step for s in search.at_step(len(search.nodes) - 1 if step is None else step)}
