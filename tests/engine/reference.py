"""An independent, deliberately plain referee for the engine's tests.

It shares no code with games.engine: positions are strings, lines are found by
walking the grid, and minimax is the textbook recursion (memoised only so the
exhaustive tests finish). Scores are from the mover's view and depth-aware: a
win at total ply p is worth 100 - p, a loss p - 100, a draw 0.
"""

from functools import lru_cache

K = {3: 3, 4: 4, 5: 4}


@lru_cache(maxsize=None)
def lines(size: int) -> tuple[tuple[int, ...], ...]:
    k = K[size]
    out = []
    for r in range(size):
        for c in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= rr < size and 0 <= cc < size for rr, cc in cells):
                    out.append(tuple(rr * size + cc for rr, cc in cells))
    return tuple(out)


def size_of(position: str) -> int:
    return {9: 3, 16: 4, 25: 5}[len(position)]


def winner(position: str) -> str | None:
    for line in lines(size_of(position)):
        marks = {position[i] for i in line}
        if len(marks) == 1 and "." not in marks:
            return marks.pop()
    return None


def to_move(position: str) -> str:
    return "X" if position.count("X") == position.count("O") else "O"


def is_over(position: str) -> bool:
    return winner(position) is not None or "." not in position


def play(position: str, cell: int) -> str:
    assert position[cell] == "."
    return position[:cell] + to_move(position) + position[cell + 1 :]


@lru_cache(maxsize=None)
def value(position: str) -> int:
    """Minimax value for the player to move (the position must not be over)."""
    best = -1000
    ply = len(position) - position.count(".")
    for cell, mark in enumerate(position):
        if mark != ".":
            continue
        child = play(position, cell)
        if winner(child):
            score = 100 - (ply + 1)
        elif "." not in child:
            score = 0
        else:
            score = -value(child)
        best = max(best, score)
    return best


def move_values(position: str) -> dict[int, int]:
    """The mover's score for every legal cell."""
    ply = len(position) - position.count(".")
    out = {}
    for cell, mark in enumerate(position):
        if mark != ".":
            continue
        child = play(position, cell)
        if winner(child):
            out[cell] = 100 - (ply + 1)
        elif "." not in child:
            out[cell] = 0
        else:
            out[cell] = -value(child)
    return out


def describe(score: int, position: str) -> tuple[str, int]:
    """(outcome, plies to the end including the move) for a move score."""
    ply_after = len(position) - position.count(".") + 1
    if score > 0:
        return "win", 100 - score - ply_after + 1
    if score < 0:
        return "loss", 100 + score - ply_after + 1
    return "draw", len(position) - ply_after + 1


def reachable(size: int = 3) -> list[str]:
    """Every position reachable from the empty board, the empty board included."""
    start = "." * size * size
    seen = {start}
    stack = [start]
    while stack:
        position = stack.pop()
        if is_over(position):
            continue
        for cell, mark in enumerate(position):
            if mark == ".":
                child = play(position, cell)
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return sorted(seen)


def label(position: str, cell: int) -> str:
    """The chess sites' label for playing ``cell`` in ``position``: best;
    inaccuracy (same outcome, a slower win or a sooner loss); mistake (a win
    thrown to a draw); blunder (a win or a draw thrown to a loss)."""
    values = move_values(position)
    top = max(values.values())
    if values[cell] == top:
        return "best"
    best, played = describe(top, position)[0], describe(values[cell], position)[0]
    if played == best:
        return "inaccuracy"
    return "blunder" if played == "loss" else "mistake"
