"""The learning pages' addresses, in the ``games`` namespace like every page."""

from django.urls import path

from games.learn import analysis, bots, depth_limited, hub, mistakes, puzzles, tree

urlpatterns: list = [
    # Where learning starts: one card per way in.
    path("learn/", hub.learn, name="learn"),
    # The analysis board (games/learn/analysis.py).
    path("analysis/", analysis.analysis, name="analysis"),
    # Learn from your mistakes: a finished game's mistakes and blunders, tried again.
    path("games/<int:pk>/learn/", mistakes.mistakes_page, name="mistakes"),
    # Puzzles (games/learn/puzzles.py).
    path("puzzles/", puzzles.puzzles, name="puzzles"),
    path("puzzles/<int:pk>/", puzzles.puzzle, name="puzzle"),
    path("puzzles/<str:variant>/", puzzles.puzzle_board, name="puzzle_board"),
    # The search, step by step: the tree explorer, and fatalist against depth-aware scores.
    path("learn/tree/", tree.tree, name="tree"),
    path("learn/tree/scoring/", tree.tree_scoring, name="tree_scoring"),
    # Depth-limited, with an evaluation function, beside the exact answer (4x4 and 5x5).
    path("learn/tree/depth/", depth_limited.depth_limited, name="tree_depth"),
    path("learn/tree/download/<str:kind>/", tree.tree_download, name="tree_download"),
    # Check your own minimax: docs/bots.md, and the reference client's files.
    path("learn/bots/", bots.bots, name="bots"),
    path("learn/bots/<str:name>", bots.client_file, name="bot_client_file"),
    path("learn/notation/", bots.notation, name="notation_help"),
    # The tree to print: empty value boxes, and the answer key on a second page.
    path("learn/tree/worksheet/", tree.tree_worksheet, name="tree_worksheet"),
]
