"""Measure the engine: ``python -m games.bench`` prints every figure the README quotes.

    python -m games.bench            # speed on every variant, and the level table
    python -m games.bench --games N  # games per cell of the level table (default 1000)
    python -m games.bench --skip-levels

Cold figures (import, first move) come from fresh interpreter processes, since
the first move of a process is what a newly started server pays. Beside the
engine it times a plain minimax written the way the classroom seeds do it (a
list of lists, no pruning, no memory) on the same positions.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time

from games.engine import LEVELS, Board, best_move

# --------------------------------------------------------------------------
# The classroom minimax, for comparison: recursion over a 3x3 list of lists,
# depth-aware scores, every node visited, nothing remembered.

_SEED_LINES = [
    [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)], [(2, 0), (1, 1), (0, 2)],
]  # fmt: skip


def _seed_wins(state, player):
    return any(all(state[r][c] == player for r, c in line) for line in _SEED_LINES)


def _seed_minimax(state, depth, player, me):
    other = "O" if player == "X" else "X"
    if _seed_wins(state, me):
        return [-1, -1, 10 - depth]
    if _seed_wins(state, "O" if me == "X" else "X"):
        return [-1, -1, depth - 10]
    empty = [(r, c) for r in range(3) for c in range(3) if state[r][c] == "."]
    if not empty:
        return [-1, -1, 0]
    best = [-1, -1, -100 if player == me else 100]
    for r, c in empty:
        state[r][c] = player
        score = _seed_minimax(state, depth + 1, other, me)
        state[r][c] = "."
        if (player == me and score[2] > best[2]) or (player != me and score[2] < best[2]):
            best = [r, c, score[2]]
    return best


def seed_move(text: str) -> int:
    """The classroom minimax's move for a 3x3 position string."""
    state = [list(text[i : i + 3]) for i in range(0, 9, 3)]
    me = "X" if text.count("X") == text.count("O") else "O"
    r, c, _ = _seed_minimax(state, 0, me, me)
    return r * 3 + c


# --------------------------------------------------------------------------


def _non_terminal_3x3() -> list[Board]:
    seen = {}
    stack = [Board.empty()]
    while stack:
        board = stack.pop()
        if board.is_game_over() or str(board) in seen:
            continue
        seen[str(board)] = board
        stack.extend(board.play(c) for c in board.legal_moves)
    return list(seen.values())


def _cold(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object."""
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


_COLD_ENGINE = """
import json, time
t0 = time.perf_counter()
from games.engine import Board, best_move
t1 = time.perf_counter()
best_move(Board.empty({size}))
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "first_move": t2 - t1}}))
"""

_COLD_SEED = """
import json, time
t0 = time.perf_counter()
from games.bench import seed_move
t1 = time.perf_counter()
seed_move(".........")
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first_move": t2 - t1}))
"""


def _median_cold(code: str, runs: int) -> dict:
    samples = [_cold(code) for _ in range(runs)]
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def bench_3x3() -> None:
    print("## 3x3, three in a row")
    boards = _non_terminal_3x3()
    assert len(boards) == 4520
    per_move = []
    for board in boards:
        reps = 50
        start = time.perf_counter()
        for _ in range(reps):
            best_move(board)
        per_move.append((time.perf_counter() - start) / reps)
    engine_median = statistics.median(per_move)
    seed_times = []
    for board in boards:
        text = str(board)
        start = time.perf_counter()
        seed_move(text)
        seed_times.append(time.perf_counter() - start)
    seed_median = statistics.median(seed_times)
    cold = _median_cold(_COLD_ENGINE.format(size=3), runs=7)
    seed_cold = _median_cold(_COLD_SEED, runs=3)
    print(f"  positions with a move to make:        {len(boards)}")
    print(f"  engine, median move over them:        {engine_median * 1e6:9.2f} us   (target < 5 us)")
    print(f"  classroom minimax, median move:       {seed_median * 1e6:9.2f} us")
    print(f"  ratio (classroom / engine):           {seed_median / engine_median:9.0f} x")
    print(f"  engine import, fresh process:         {cold['import'] * 1e3:9.2f} ms   (target < 50 ms)")
    print(f"  engine first move, empty board:       {cold['first_move'] * 1e3:9.3f} ms   (target < 2 ms)")
    print(f"  classroom first move, empty board:    {seed_cold['first_move'] * 1e3:9.1f} ms")
    print(f"  ratio (classroom / engine), first:    {seed_cold['first_move'] / cold['first_move']:9.0f} x")


_COLD_4X4 = """
import json, random, resource, time
from games.engine import Board, best_move
t0 = time.perf_counter()
best_move(Board.empty(4))
first = time.perf_counter() - t0
# Then every distinct position of the first three plies and positions from
# 200 games of mixed random and perfect play.
positions, seen, frontier = [], set(), [Board.empty(4)]
for _ in range(3):
    nxt = []
    for board in frontier:
        for cell in board.legal_moves:
            child = board.play(cell)
            if not child.is_game_over() and child not in seen:
                seen.add(child)
                nxt.append(child)
    positions += nxt
    frontier = nxt
rng = random.Random(4)
for _ in range(200):
    board = Board.empty(4)
    while not board.is_game_over():
        positions.append(board)
        move = rng.choice(board.legal_moves) if rng.random() < 0.5 else best_move(board, seed=1)
        board = board.play(move)
times = []
for board in positions:
    t = time.perf_counter()
    best_move(board, seed=2)
    times.append(time.perf_counter() - t)
times.sort()
print(json.dumps({
    "first": first, "count": len(times), "median": times[len(times) // 2],
    "p99": times[int(len(times) * 0.99)], "max": times[-1],
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def bench_4x4() -> None:
    print("## 4x4, four in a row")
    r = _cold(_COLD_4X4)
    print(f"  perfect move, empty board, cold:      {r['first'] * 1e3:9.1f} ms   (target < 2000 ms)")
    print(f"  then {r['count']} positions, median:       {r['median'] * 1e3:9.3f} ms")
    print(f"  p99 / slowest:                        {r['p99'] * 1e3:9.1f} / {r['max'] * 1e3:.1f} ms   (target < 50 ms)")
    print(f"  peak memory of that process:          {r['peak_mb']:9.1f} MB   (target < 200 MB)")


def bench_5x5(budget: float = 1.0) -> None:
    print("## 5x5, four in a row")
    rng = random.Random(5)
    times = []
    for game in range(4):
        board = Board.empty(5)
        for _ in range(3 + game * 3):
            board = board.play(rng.choice(board.legal_moves))
        start = time.perf_counter()
        best_move(board, budget=budget)
        times.append(time.perf_counter() - start)
    print(f"  strongest level, budget {budget:.1f} s, slowest of {len(times)}: {max(times) * 1e3:7.1f} ms")


def _play(x_player: str, o_player: str, size: int, rng: random.Random) -> str:
    board = Board.empty(size)
    while not board.is_game_over():
        player = x_player if board.to_move == "X" else o_player
        if player == "random":
            cell = rng.choice(board.legal_moves)
        else:
            cell = best_move(board, player, seed=rng.randrange(1 << 30), budget=0.05)
        board = board.play(cell)
    return board.result()


def level_table(games: int, size: int = 3) -> None:
    print(f"## Levels on {size}x{size}: wins/draws/losses of the level over {games} games each")
    print()
    print("| level | vs random, as X | vs random, as O | vs perfect, as X | vs perfect, as O |")
    print("|---|---|---|---|---|")
    rng = random.Random(2026)
    for level in LEVELS:
        cells = []
        for opponent in ("random", "perfect"):
            for side in "XO":
                tally = {"w": 0, "d": 0, "l": 0}
                for _ in range(games):
                    result = _play(level, opponent, size, rng) if side == "X" else _play(opponent, level, size, rng)
                    if result == "draw":
                        tally["d"] += 1
                    elif (result == "x_won") == (side == "X"):
                        tally["w"] += 1
                    else:
                        tally["l"] += 1
                cells.append(f"{tally['w']} / {tally['d']} / {tally['l']}")
        print(f"| {level} | " + " | ".join(cells) + " |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per cell of the level table")
    parser.add_argument("--skip-levels", action="store_true")
    args = parser.parse_args()
    bench_3x3()
    bench_4x4()
    bench_5x5()
    if not args.skip_levels:
        level_table(args.games, 3)
        level_table(args.games, 4)


if __name__ == "__main__":
    main()
