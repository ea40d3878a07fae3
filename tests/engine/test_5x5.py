"""5x5, four in a row, solved: perfect play, exact analysis and reviews,
checked against the independent referee late in the game and against the
engine's exact search (without its book and memory) earlier."""

import random

import pytest

from games import engine
from games.engine import Board, analyse, best_move, review
from games.search.registry import solver_for
from games.search.solver import ExactSolver

from . import reference


def _fresh_score(board: Board, cell: int) -> int:
    """The mover's exact score for ``cell`` from a new solver with no book and no memory of earlier calls."""
    solver = ExactSolver(board._geo)
    me, opp = board._mover_masks()
    return solver.score_move(me, opp, cell)


def _positions(marks: int, count: int, seed: int) -> list[Board]:
    """Random unfinished 5x5 positions with ``marks`` marks."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = Board.empty(5)
        while board.ply < marks and not board.is_game_over():
            board = board.play(rng.choice(board.legal_moves))
        if not board.is_game_over():
            out.append(board)
    return out


def test_late_5x5_analysis_matches_the_referee_outcome_and_distance():
    for board in _positions(marks=15, count=12, seed=1):
        text = str(board)
        expected = {cell: reference.describe(score, text) for cell, score in reference.move_values(text).items()}
        analysis = analyse(board)
        assert analysis.exact
        assert {cell: (e.outcome, e.plies) for cell, e in analysis.items()} == expected, text


def test_5x5_analysis_matches_a_fresh_exact_search_earlier_in_the_game():
    for board in _positions(marks=9, count=3, seed=2):
        analysis = analyse(board)
        assert analysis.exact
        for cell, evaluation in analysis.items():
            assert evaluation.score == _fresh_score(board, cell), (str(board), cell)


@pytest.mark.parametrize("marks", [8, 11, 14])
def test_the_perfect_5x5_move_always_keeps_the_best_score(marks):
    # Never turns a win into a draw or loss, nor a draw into a loss; wins fastest, loses slowest.
    for board in _positions(marks=marks, count=4, seed=marks):
        best = _value(board)
        for seed in range(2):
            cell = best_move(board, seed=seed)
            assert _fresh_score(board, cell) == best, (str(board), cell)


@pytest.mark.parametrize("engine_side", ["X", "O"])
def test_perfect_never_loses_a_5x5_game_against_the_exact_adversary(engine_side):
    # From a few moves into the game, the adversary always plays a move that is
    # best for it by the engine's own exact analysis, picking at random among those.
    rng = random.Random(engine_side)
    for start in _positions(marks=6, count=2, seed=ord(engine_side)):
        board = start
        value = _value(board)
        engine_to_move = board.to_move == engine_side
        engine_value = value if engine_to_move else -value
        while not board.is_game_over():
            if board.to_move == engine_side:
                cell = best_move(board, seed=rng.randrange(1000))
            else:
                cell = rng.choice(analyse(board).best_cells)
            board = board.play(cell)
        if engine_value >= 0:  # not lost at the start: never lost at the end
            assert board.winner in (None, engine_side), (str(start), str(board))
        else:  # lost from the start: the engine still loses as late as it can
            assert board.winner != engine_side


def test_a_5x5_review_finds_the_move_that_really_turned_a_draw_into_a_loss():
    # Both sides play perfectly (a draw) until O plays a losing cell; X then wins.
    rng = random.Random(5)
    moves = _perfect_opening(plies=7, seed=5)
    board = Board.from_moves(moves, size=5)
    blunder_ply = None
    while not board.is_game_over():
        analysis = analyse(board)
        losing = [cell for cell, e in analysis.items() if e.outcome == "loss"]
        if (
            blunder_ply is None
            and board.to_move == "O"
            and losing
            and analysis[analysis.best_cells[0]].outcome == "draw"
        ):
            cell = rng.choice(losing)
            blunder_ply = board.ply
        else:
            cell = rng.choice(analysis.best_cells)
        moves.append(cell)
        board = board.play(cell)
    assert blunder_ply is not None and board.winner == "X"
    result = review(moves, size=5)
    labels = {m.ply: m.label for m in result.moves}
    assert labels[blunder_ply] == "blunder"
    assert result.decisive_ply == blunder_ply
    assert result.exact
    played = result.moves[blunder_ply]
    assert (played.best.outcome, played.played.outcome) == ("draw", "loss")
    assert played.cell not in played.best_cells


def _perfect_opening(plies: int, seed: int, size: int = 5) -> list[int]:
    """The first ``plies`` moves of a game of the perfect AI against itself: on
    5x5 the opening book's line, so the engine reviews it quickly."""
    board, moves = Board.empty(size), []
    while len(moves) < plies:
        moves.append(best_move(board, seed=seed + len(moves)))
        board = board.play(moves[-1])
    return moves


def _value(board: Board) -> int:
    me, opp = board._mover_masks()
    return ExactSolver(board._geo).exact(me, opp)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_labels_follow_the_chess_sites_rules_on_every_board(size):
    # blunder: a win or draw thrown to a loss; mistake: a win thrown to a draw;
    # inaccuracy: the same outcome, a slower win or a sooner loss.
    rng = random.Random(size)
    seen = set()
    for _ in range(6 if size == 3 else 2):
        moves = [] if size == 3 else _perfect_opening(size * size - 11, seed=rng.randrange(99), size=size)
        board = Board.from_moves(moves, size=size)
        start = len(moves)
        while not board.is_game_over():
            cell = rng.choice(board.legal_moves)
            moves.append(cell)
            board = board.play(cell)
        result = review(moves, size=size)
        for move in result.moves[start:]:
            position = reference_position(moves[: move.ply], size)
            values = reference.move_values(position)
            top = max(values.values())
            best = reference.describe(top, position)[0]
            played = reference.describe(values[move.cell], position)[0]
            if values[move.cell] == top:
                expected = "best"
            elif played == best:
                expected = "inaccuracy"
            elif played == "loss":
                expected = "blunder"
            else:
                expected = "mistake"
            assert move.label == expected, (position, move.cell)
            seen.add(move.label)
    assert {"best", "blunder"} <= seen


def reference_position(moves: list[int], size: int) -> str:
    position = "." * size * size
    for cell in moves:
        position = reference.play(position, cell)
    return position


def test_a_hint_after_an_analysis_of_the_same_position_costs_no_search():
    board = Board.from_string("XOX.OOXO..X....O.X......X")
    analysis = analyse(board)
    solver = solver_for(5)
    before = solver.nodes
    assert best_move(board, seed=4) in analysis.best_cells
    assert analyse(board) is analysis
    assert solver.nodes == before


def test_a_remembered_analysis_cannot_be_changed_by_one_caller_for_the_next():
    import pickle

    board = Board.from_string("XOX.OOXO..X....O.X......X")
    analysis = analyse(board)
    with pytest.raises(TypeError, match="cannot be changed"):
        analysis[3] = engine.UNSOLVED
    with pytest.raises(TypeError, match="cannot be changed"):
        analysis.pop(3)
    assert analyse(board) == analysis and all(e.exact for e in analyse(board).values())
    copy = pickle.loads(pickle.dumps(analysis))
    assert copy == analysis and copy.stats == analysis.stats and copy.exact
