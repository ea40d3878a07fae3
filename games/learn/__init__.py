"""Learning minimax: the analysis board, the search tree explorer, reviews
that show the better move, and puzzles made from exact solutions.

Every figure shown comes from the engine (``games.engine``), so what a learner
sees is what the AI that plays them would do.
"""
