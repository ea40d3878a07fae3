"""The engine's searches, beside the rules (``games.rules``), one part a module.

    solver.py     the exact search: alpha-beta with memory for 4x4 and 5x5, the
                  3x3 table made at import, one solver per size, the scores
    book.py       the 5x5 opening book: solved positions near the start, which
                  the solver loads on its first 5x5 question; built by
                  ``scripts/build_book``
    counts.py     what a textbook alpha-beta and a plain minimax would visit
    analysis.py   analyse: every legal cell's exact outcome and what it cost,
                  complete analyses remembered
    moves.py      best_move at each level (perfect, and weaker on purpose) and
                  opening_move by the start modes
    review.py     review: every move of a finished game labelled, and the one
                  that decided it

A module imports only the rules and the modules listed above it (the solver
loads the book lazily, when first asked about 5x5). The site imports none of
them: ``games.engine`` is its one door.
"""
