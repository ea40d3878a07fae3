"""A recorded search written out for other tools: JSON (every node, as the
engine recorded it) and Graphviz DOT (the same tree, for ``dot -Tpdf``).

Pure Python, like the layout: the page view asks the engine and hands the
search over; the SVG export is the page's own drawing (``learn/_tree.svg``).
"""

from __future__ import annotations

import json
import math

from games import engine
from games.learn.tree_layout import signed


def tree_json(search: engine.SearchTree) -> str:
    """The search as JSON: its choices, its value and every drawn node. An
    infinite α or β is written as the string "+inf" or "-inf" (JSON has no infinity)."""
    nodes = []
    for node in search.nodes:
        nodes.append(
            {
                "step": node.step,
                "parent": node.parent,
                "move": node.move,
                "mover": node.mover,
                "depth": node.depth,
                "position": node.position,
                "to_move": node.to_move,
                "result": node.result,
                "value": node.value,
                "bound": node.bound,
                "best_move": node.best_move,
                "alpha_in": _number(node.alpha_in),
                "beta_in": _number(node.beta_in),
                "alpha_out": _number(node.alpha_out),
                "beta_out": _number(node.beta_out),
                "children": list(node.children),
                "cut": None
                if node.cut is None
                else {
                    "moves": list(node.cut.moves),
                    "alpha": _number(node.cut.alpha),
                    "beta": _number(node.cut.beta),
                    "reason": node.cut.reason,
                },
                "visited": node.visited,
            }
        )
    return json.dumps(
        {
            "position": search.position,
            "algorithm": search.algorithm,
            "scoring": search.scoring,
            "order": search.order,
            "seed": search.seed,
            "value": search.value,
            "best_move": search.best_move,
            "visited": search.visited,
            "drawn_depth": search.depth,
            "height": search.height,
            "capped": search.capped,
            "nodes": nodes,
        },
        ensure_ascii=False,
        indent=1,
    )


def tree_dot(search: engine.SearchTree) -> str:
    """The search as a Graphviz digraph: a box per node (board, value, α and β),
    an edge per move, the move chosen in bold, a cut as a dashed box with its reason."""
    lines = [
        "digraph search {",
        "  rankdir=LR;",
        '  node [shape=box, fontname="monospace"];',
        f'  label="{_escape(_title(search))}";',
    ]
    for node in search.nodes:
        rows = [node.position[i : i + _size(node)] for i in range(0, len(node.position), _size(node))]
        parts = ["the position" if node.parent is None else f"{node.mover} plays {node.move}", *rows]
        value = signed(node.value)
        parts.append(value if node.bound == "exact" else f"{node.bound} {value}")
        if node.alpha_out is not None and node.result is None:
            parts.append(f"α {signed(node.alpha_out)} β {signed(node.beta_out)}")
        if node.result:
            parts.append({"x_won": "X wins", "o_won": "O wins", "draw": "draw"}[node.result])
        lines.append(f'  n{node.step} [label="{_escape(chr(10).join(parts))}"];')
        if node.parent is not None:
            parent = search.nodes[node.parent]
            bold = ", style=bold" if parent.best_move == node.move else ""
            lines.append(f'  n{node.parent} -> n{node.step} [label="{node.move}"{bold}];')
        if node.cut:
            cells = ", ".join(str(c) for c in node.cut.moves)
            reason = f"cut: {cells}\nβ {signed(node.cut.beta)} ≤ α {signed(node.cut.alpha)}"
            lines.append(f'  cut{node.step} [label="{_escape(reason)}", style=dashed];')
            lines.append(f"  n{node.step} -> cut{node.step} [style=dashed];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _title(search: engine.SearchTree) -> str:
    return f"{search.algorithm} from {search.position}, {search.scoring} scores, {search.order} order"


def _size(node: engine.SearchNode) -> int:
    return math.isqrt(len(node.position))


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _number(value: float | None) -> float | int | str | None:
    if value is None:
        return None
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return int(value)
