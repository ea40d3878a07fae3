"""Properties of random play on every variant (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Board, IllegalMoveError


@st.composite
def games(draw):
    size = draw(st.sampled_from([3, 4, 5]))
    picks = draw(st.lists(st.integers(min_value=0, max_value=10**6), max_size=size * size))
    return size, picks


def _boards(size, picks):
    """Every position of a random game: each pick chooses among the legal cells."""
    board = Board.empty(size)
    yield board
    for pick in picks:
        if board.is_game_over():
            return
        board = board.play(board.legal_moves[pick % len(board.legal_moves)])
        yield board


@given(games())
@settings(max_examples=150, deadline=None)
def test_random_play_obeys_the_rules(game):
    size, picks = game
    previous = None
    for board in _boards(size, picks):
        text = str(board)
        xs, os = text.count("X"), text.count("O")
        # Marks alternate, X first.
        assert xs - os in (0, 1)
        if board.to_move is not None:
            assert board.to_move == ("X" if xs == os else "O")
        # At most one winner, and the winner's line is really theirs.
        if board.winner:
            assert all(text[c] == board.winner for c in board.winning_line)
            assert len(board.winning_line) == (3 if size == 3 else 4)
        # The game ends exactly when a line or a full board appears.
        assert board.is_game_over() == (board.winner is not None or "." not in text)
        assert (board.legal_moves == []) == board.is_game_over()
        # The string form round-trips.
        assert Board.from_string(text) == board
        assert str(Board.from_string(text)) == text
        if previous is not None:
            assert previous.winner is None  # nobody moves after a win
            assert sum(a != b for a, b in zip(str(previous), text, strict=True)) == 1
        previous = board


@given(games())
@settings(max_examples=50, deadline=None)
def test_a_finished_game_refuses_every_further_move(game):
    size, picks = game
    *_, last = _boards(size, picks + list(range(size * size)))
    assert last.is_game_over()
    for cell in range(size * size):
        try:
            last.play(cell)
        except IllegalMoveError:
            continue
        raise AssertionError(f"cell {cell} was accepted on a finished board {last}")
