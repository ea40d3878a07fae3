"""What a recorded search is made of: the nodes it visited, the cuts it made,
and each node's state at a step (``games.search.tree`` records them).

Values are X's (X maximises, O minimises); a depth-aware win ``d`` plies below
the root is worth ``WIN_SCORE - d``, a fatalist one 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games.rules import other_side

#: A win ``d`` plies below the root scores ``WIN_SCORE - d`` (depth-aware).
WIN_SCORE = 10
#: In a depth-limited search a win ``d`` plies below the root scores
#: ``HORIZON_WIN_SCORE - d``: far above any evaluation (28 lines of 9 at most).
HORIZON_WIN_SCORE = 1000
INFINITY = math.inf


@dataclass(frozen=True)
class Cut:
    """The moves alpha-beta did not search below a node, and why.

    At X's node the cut comes once α (what X is sure of) reaches β (what O is
    sure of elsewhere): O would never let the game come here. At O's node, the
    mirror image."""

    moves: tuple[int, ...]
    alpha: float
    beta: float
    to_move: str

    @property
    def reason(self) -> str:
        return f"β ≤ α: {other_side(self.to_move)} already has a better move elsewhere"


@dataclass(frozen=True)
class SearchNode:
    """One position the search visited.

    ``step`` is its place among the nodes drawn (the root is 0), ``visit`` its
    place in the search's own order (the root is 1; undrawn positions count
    too). ``value`` is what it passes up, from X's side; with alpha-beta it may
    only be a bound (``bound`` "at least" or "at most") when the window cut the
    search below it. ``visited`` counts the positions in its subtree, itself
    included; ``last`` is the step of its last drawn descendant, when its value
    is final. ``alpha_in``/``beta_in`` and ``alpha_out``/``beta_out`` are None
    for plain minimax.
    """

    step: int
    visit: int
    parent: int | None
    move: int | None
    depth: int
    position: str
    to_move: str | None
    result: str | None
    value: int
    bound: str
    best_move: int | None
    alpha_in: float | None
    beta_in: float | None
    alpha_out: float | None
    beta_out: float | None
    children: tuple[int, ...]
    cut: Cut | None
    visited: int
    last: int

    @property
    def mover(self) -> str | None:
        """Who played ``move`` to reach this position."""
        if self.move is None:
            return None
        return self.position[self.move]

    @property
    def hidden(self) -> int:
        """Positions visited below this node that are not drawn."""
        return self.visited - 1 if not self.children and self.result is None else 0


@dataclass(frozen=True)
class NodeState:
    """A node as it stands at one step of the search: "done" once its value is
    final, "searching" while its moves are still being tried. ``value`` is its
    best so far (None before any move came back)."""

    step: int
    status: str
    value: int | None
    alpha: float | None
    beta: float | None


@dataclass(frozen=True)
class SearchTree:
    """A recorded search from one position (see :func:`search_tree`)."""

    position: str
    algorithm: str
    scoring: str
    order: str
    seed: int
    nodes: tuple[SearchNode, ...]
    visited: int
    depth: int
    height: int
    layers: tuple[int, ...]
    #: For a depth-limited search, the plies below the root where positions
    #: are scored by the evaluation function; None for a search to the end.
    horizon: int | None = None

    @property
    def root(self) -> SearchNode:
        return self.nodes[0]

    @property
    def value(self) -> int:
        return self.root.value

    @property
    def best_move(self) -> int:
        """The root's choice: the first move, in the search's order, with the best value."""
        return self.root.best_move

    @property
    def capped(self) -> bool:
        """Whether positions deeper than the drawn ones were left out."""
        return self.depth < self.height

    def at_step(self, step: int) -> tuple[NodeState, ...]:
        """Every drawn node visited by ``step``, as it stands then: watch the
        values come up the tree one step after another."""
        step = max(0, min(step, len(self.nodes) - 1))
        states: list[NodeState] = []
        for node in self.nodes[: step + 1]:
            if node.last <= step:
                states.append(NodeState(node.step, "done", node.value, node.alpha_out, node.beta_out))
                continue
            done = [self.nodes[c].value for c in node.children if self.nodes[c].last <= step]
            value = (max(done) if node.to_move == "X" else min(done)) if done else None
            alpha, beta = node.alpha_in, node.beta_in
            if value is not None and alpha is not None:
                if node.to_move == "X":
                    alpha = max(alpha, value)
                else:
                    beta = min(beta, value)
            states.append(NodeState(node.step, "searching", value, alpha, beta))
        return tuple(states)

    def finished_at(self, step: int) -> list[SearchNode]:
        """The nodes whose value became final at ``step``, deepest first."""
        return sorted((n for n in self.nodes if n.last == step), key=lambda n: -n.depth)


def outcome_of(value: int, scoring: str) -> tuple[str, int | None]:
    """(result, plies below the root) a value stands for: ("x_won", 3) for a
    depth-aware 7; the fatalist's ±1 cannot say how far, so its plies are None."""
    if value == 0:
        return "draw", None
    result = "x_won" if value > 0 else "o_won"
    return result, None if scoring == "fatalist" else WIN_SCORE - abs(value)


def horizon_outcome_of(value: int) -> tuple[str | None, int | None]:
    """(result, plies below the root) a depth-limited search's value stands
    for: a win it saw, or (None, None) for an evaluation."""
    if abs(value) <= HORIZON_WIN_SCORE - 100:
        return None, None
    return ("x_won" if value > 0 else "o_won"), HORIZON_WIN_SCORE - abs(value)
