"""The engine's searches, beside the rules (``games.rules``), one part a module.

    solver.py     the exact search: alpha-beta with memory for 4x4 and 5x5, the
                  3x3 table made at import, the scores
    core.py       the solver's search compiled (core.c), loaded with ctypes
                  when it is built; the Python search otherwise
    tablebase.py  the 5x5 tablebase: every position up to six marks, solved
                  once by ``scripts/build_table`` and probed here
    registry.py   one solver per size, made on first use; the 5x5 one loads
                  the book
    counts.py     what a textbook alpha-beta and a plain minimax would visit
    analysis.py   analyse: every legal cell's exact outcome and what it cost,
                  complete analyses remembered; count_traps: the opponent's
                  replies that would give up its outcome
    moves.py      best_move at each level (perfect, and weaker on purpose) and
                  opening_move by the start modes
    review.py     review: every move of a finished game labelled, and the one
                  that decided it
    nodes.py      what a recorded search is made of: nodes, cuts, steps
    tree.py       search_tree: minimax and alpha-beta as the classroom draws
                  them, every node recorded in visit order, for the learning pages
    fatalist.py   fatalist_examples: positions where scoring wins and losses
                  ±1 plays worse than depth-aware scores, found by search

A module imports only the rules and the modules listed above it. The site imports none of
them: ``games.engine`` is its one door.
"""
