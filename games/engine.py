"""Tic-tac-toe rules, perfect play, weaker play on purpose, and explanations.

Pure Python: nothing here imports Django, touches a database or keeps mutable
state that a caller can see. This module is the one the rest of the site
imports (``from games import engine``); it holds no code of its own, only the
public names of the parts that live beside it:

    games/rules.py             the rules of the three variants (3x3, three in a
                               row; 4x4 and 5x5, four in a row) and the
                               immutable Board
    games/search/solver.py     the exact search and its depth-aware scores
    games/search/core.py       the search compiled (core.c), when it is built
    games/search/tablebase.py  the 5x5 tablebase (``scripts/build_table``)
    games/search/registry.py   one solver per size, made on first use
    games/search/counts.py     what a textbook alpha-beta and a plain minimax
                               would visit, beside the engine's own count
    games/search/analysis.py   analyse: every legal cell's exact outcome, and
                               the traps each move leaves the opponent;
                               move_outcomes: the same outcomes, without the
                               counts beside them, for work in bulk
    games/search/moves.py      best_move at each level, opening_move, and
                               principal_variation: the line of best play,
                               toughest_reply: a defender's longest resistance
    games/search/review.py     review: every move of a finished game labelled
    games/search/tree.py       search_tree: minimax and alpha-beta as the
                               classroom draws them, every node recorded;
                               horizon_tree: the same stopped a few moves
                               deep, with an evaluation function
    games/search/nodes.py      what a recorded search is made of
    games/search/fatalist.py   fatalist_examples: where ±1 scoring plays worse

Every board is solved exactly: 3x3 by a table made at import, 4x4 and 5x5 by
alpha-beta with a transposition table (compiled when the core is built), and
on 5x5 a tablebase of every position up to six marks
(``games.search.tablebase``, built by ``scripts/build_table``).
"""

from games.rules import (
    VARIANTS,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    other_side,
    side_to_move,
)
from games.rules import whole_number as whole_number

# Public too, though not in __all__: the score of a win, and the budgets and
# limits that callers and tests refer to ("X as X" marks a re-export).
from games.search.analysis import DEFAULT_BUDGET as DEFAULT_BUDGET
from games.search.analysis import OUTCOMES, UNSOLVED, Analysis, Evaluation, SearchStats, analyse, move_outcomes
from games.search.counts import TEXTBOOK_COUNT_LIMIT as TEXTBOOK_COUNT_LIMIT
from games.search.fatalist import FatalistExample, fatalist_examples
from games.search.moves import (
    LEVELS,
    START_MODES,
    UNBEATABLE_LEVEL,
    Line,
    best_move,
    opening_move,
    principal_variation,
    toughest_reply,
)
from games.search.moves import WEAKER_LEVEL_BUDGET as WEAKER_LEVEL_BUDGET
from games.search.nodes import HORIZON_WIN_SCORE as HORIZON_WIN_SCORE
from games.search.nodes import Cut, NodeState, SearchNode, SearchTree, horizon_outcome_of, outcome_of
from games.search.review import LABELS, MoveReview, Review, review
from games.search.review import REVIEW_BUDGET as REVIEW_BUDGET
from games.search.solver import WIN as WIN
from games.search.tree import (
    EVALUATION_FORMULA,
    EVALUATION_WORDS,
    HORIZON_DEPTHS,
    TREE_ALGORITHMS,
    TREE_MAX_FREE_CELLS,
    TREE_NODES_LIMIT,
    TREE_ORDERS,
    TREE_SCORINGS,
    check_searchable,
    evaluate,
    horizon_tree,
    move_values,
    nodes_visited,
    search_tree,
)

__all__ = [
    "Board",
    "Evaluation",
    "UNSOLVED",
    "Analysis",
    "SearchStats",
    "MoveReview",
    "Review",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "LABELS",
    "LEVELS",
    "OUTCOMES",
    "UNBEATABLE_LEVEL",
    "START_MODES",
    "VARIANTS",
    "best_move",
    "analyse",
    "move_outcomes",
    "review",
    "opening_move",
    "principal_variation",
    "toughest_reply",
    "Line",
    "other_side",
    "side_to_move",
    # The search, step by step (games/search/tree.py, nodes.py, fatalist.py).
    "search_tree",
    "nodes_visited",
    "move_values",
    "outcome_of",
    "check_searchable",
    "SearchTree",
    "SearchNode",
    "NodeState",
    "Cut",
    "TREE_ALGORITHMS",
    "TREE_SCORINGS",
    "TREE_ORDERS",
    "TREE_MAX_FREE_CELLS",
    "TREE_NODES_LIMIT",
    # Depth-limited, with an evaluation function (games/search/tree.py).
    "horizon_tree",
    "evaluate",
    "horizon_outcome_of",
    "EVALUATION_WORDS",
    "EVALUATION_FORMULA",
    "HORIZON_DEPTHS",
    "fatalist_examples",
    "FatalistExample",
]
