"""Measure the engine: ``python -m bench.engine`` prints every figure docs/benchmarks.md and docs/engine.md quote.

    python -m bench.engine            # speed on every variant, and the level table
    python -m bench.engine --games N  # games per cell of the level table (default 1000)
    python -m bench.engine --skip-levels
    python -m bench.engine --only-5x5 --games-5x5 20   # 5x5 alone, 20 games per opponent and side
    python -m bench.engine --only-5x5 --anywhere 200   # and 200 random positions per number of marks, 1 to 8
    python -m bench.engine --traps 50 # only the cost of counting traps, 50 positions per board and mark count

Cold figures (import, first move) come from fresh interpreter processes, since
the first move of a process is what a newly started server pays. Beside the
engine it times a plain minimax written the way the classroom programs do it (a
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

_CLASSROOM_LINES = [
    [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)], [(2, 0), (1, 1), (0, 2)],
]  # fmt: skip


def _classroom_wins(state, player):
    return any(all(state[r][c] == player for r, c in line) for line in _CLASSROOM_LINES)


def _classroom_minimax(state, depth, player, me):
    other = "O" if player == "X" else "X"
    if _classroom_wins(state, me):
        return [-1, -1, 10 - depth]
    if _classroom_wins(state, "O" if me == "X" else "X"):
        return [-1, -1, depth - 10]
    empty = [(r, c) for r in range(3) for c in range(3) if state[r][c] == "."]
    if not empty:
        return [-1, -1, 0]
    best = [-1, -1, -100 if player == me else 100]
    for r, c in empty:
        state[r][c] = player
        score = _classroom_minimax(state, depth + 1, other, me)
        state[r][c] = "."
        if (player == me and score[2] > best[2]) or (player != me and score[2] < best[2]):
            best = [r, c, score[2]]
    return best


def classroom_move(text: str) -> int:
    """The classroom minimax's move for a 3x3 position string."""
    state = [list(text[i : i + 3]) for i in range(0, 9, 3)]
    me = "X" if text.count("X") == text.count("O") else "O"
    r, c, _ = _classroom_minimax(state, 0, me, me)
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

_COLD_CLASSROOM = """
import json, time
t0 = time.perf_counter()
from bench.engine import classroom_move
t1 = time.perf_counter()
classroom_move(".........")
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
    classroom_times = []
    for board in boards:
        text = str(board)
        start = time.perf_counter()
        classroom_move(text)
        classroom_times.append(time.perf_counter() - start)
    classroom_median = statistics.median(classroom_times)
    cold = _median_cold(_COLD_ENGINE.format(size=3), runs=7)
    classroom_cold = _median_cold(_COLD_CLASSROOM, runs=3)
    print(f"  positions with a move to make:        {len(boards)}")
    print(f"  engine, median move over them:        {engine_median * 1e6:9.2f} us   (target < 5 us)")
    print(f"  classroom minimax, median move:       {classroom_median * 1e6:9.2f} us")
    print(f"  ratio (classroom / engine):           {classroom_median / engine_median:9.0f} x")
    print(f"  engine import, fresh process:         {cold['import'] * 1e3:9.2f} ms   (target < 50 ms)")
    print(f"  engine first move, empty board:       {cold['first_move'] * 1e3:9.3f} ms   (target < 2 ms)")
    print(f"  classroom first move, empty board:    {classroom_cold['first_move'] * 1e3:9.1f} ms")
    print(f"  ratio (classroom / engine), first:    {classroom_cold['first_move'] / cold['first_move']:9.0f} x")


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


_COLD_5X5 = """
import json, random, resource, sys, time
t0 = time.perf_counter()
from games import engine
from games.engine import Board, analyse, best_move
from games.search.analysis import forget
from games.search.registry import solver_for
engine.best_move(Board.empty(5))
first = time.perf_counter() - t0
rng = random.Random(5)
per_side = {games}
ai_times, analysis_times, unsolved, losses, results = [], [], 0, {{}}, {{}}


def adversary(board):
    # Exact: a best cell by the engine's own exact analysis, at random among equals.
    return rng.choice(analyse(board).best_cells)


opponents = {{
    "random": lambda board: rng.choice(board.legal_moves),
    "easy": lambda board: best_move(board, "easy", seed=rng.randrange(1 << 30)),
    "medium": lambda board: best_move(board, "medium", seed=rng.randrange(1 << 30)),
    "hard": lambda board: best_move(board, "hard", seed=rng.randrange(1 << 30)),
    "exact adversary": adversary,
}}
for name, opponent in opponents.items():
    for ai_side in "XO":
        tally = results.setdefault(name, {{"won": 0, "drawn": 0, "lost": 0}})
        for _ in range(per_side):
            board = Board.empty(5)
            while not board.is_game_over():
                if board.to_move == ai_side:
                    t = time.perf_counter()
                    cell = best_move(board, seed=rng.randrange(1 << 30))
                    ai_times.append(time.perf_counter() - t)
                else:
                    # The opponent's turn, as the game page's overlay and hint show it
                    # (the analyses remembered so far forgotten).
                    forget()
                    t = time.perf_counter()
                    analysis = analyse(board)
                    analysis_times.append(time.perf_counter() - t)
                    unsolved += sum(1 for e in analysis.values() if not e.exact)
                    cell = opponent(board)
                board = board.play(cell)
            if board.winner is None:
                tally["drawn"] += 1
            elif board.winner == ai_side:
                tally["won"] += 1
            else:
                tally["lost"] += 1
ai_times.sort()
analysis_times.sort()


def at(values, share):
    return values[min(len(values) - 1, int(len(values) * share))]


print(json.dumps({{
    "first": first,
    "moves": len(ai_times), "move_p50": at(ai_times, 0.5), "move_p99": at(ai_times, 0.99), "move_max": ai_times[-1],
    "analyses": len(analysis_times), "analysis_p50": at(analysis_times, 0.5),
    "analysis_p95": at(analysis_times, 0.95), "analysis_max": analysis_times[-1],
    "unsolved": unsolved, "results": results,
    "table": len(solver_for(5).tablebase or ()),
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}}))
"""


def bench_5x5(games: int) -> bool:
    """Print the 5x5 figures; False when the perfect AI lost a game or a cell went unsolved."""
    print("## 5x5, four in a row")
    r = _cold(_COLD_5X5.format(games=games))
    print(f"  tablebase:                            {r['table']:9d} positions")
    print(
        f"  perfect move, empty board, cold:      {r['first'] * 1e3:9.1f} ms   (target < 3000 ms, table load included)"
    )
    print(f"  perfect moves in {games} games per opponent and side, {r['moves']} moves:")
    print(f"    median:                             {r['move_p50'] * 1e3:9.1f} ms   (target < 100 ms)")
    print(
        f"    p99 / slowest:                      {r['move_p99'] * 1e3:9.1f} / {r['move_max'] * 1e3:.1f} ms   (target < 1000 ms)"
    )
    print(f"  full analysis of the opponent's turn in those games, {r['analyses']} positions:")
    print(f"    median:                             {r['analysis_p50'] * 1e3:9.1f} ms")
    print(
        f"    p95 / slowest:                      {r['analysis_p95'] * 1e3:9.1f} / {r['analysis_max'] * 1e3:.1f} ms   (target p95 < 2000 ms)"
    )
    print(f"  cells not solved in time:             {r['unsolved']:9d}   (must be 0)")
    print(f"  peak memory of that process:          {r['peak_mb']:9.1f} MB   (target < 300 MB)")
    print("  self-check, the perfect AI's games (won / drawn / lost, both sides):")
    lost = 0
    for name, tally in r["results"].items():
        lost += tally["lost"]
        print(f"    against {name + ':':<20} {tally['won']:4d} / {tally['drawn']:4d} / {tally['lost']:4d}")
    print(f"  games the perfect AI lost:            {lost:9d}   (must be 0)")
    return lost == 0 and r["unsolved"] == 0


_OFF_TABLE = """
import json, random, resource, time
t0 = time.perf_counter()
from games.engine import Board, analyse, principal_variation
from games.search import tablebase
from games.search.analysis import forget
from games.search.registry import solver_for
from bench.positions import random_position
start = time.perf_counter()
solver = solver_for(5)
loaded = time.perf_counter() - start
cold = Board.from_string("X.....O.....X.....O....X.")
analyse(cold)
principal_variation(cold)
first = time.perf_counter() - t0
rng = random.Random({seed})
rows = []
for marks in range(1, 9):
    times, unsolved, cells = [], 0, 0
    for n in range({count}):
        board = random_position(rng, marks, clustered=n % 2 == 1)
        forget()  # no analysis remembered: each one searched (the solver keeps its memory, as a server does)
        t = time.perf_counter()
        found = analyse(board)
        line = principal_variation(board)
        times.append(time.perf_counter() - t)
        unsolved += sum(1 for e in found.values() if not e.exact) + (not line.complete)
        cells += len(found)
    times.sort()
    rows.append({{"marks": marks, "p50": times[len(times) // 2], "p99": times[min(len(times) - 1, int(len(times) * 0.99))],
                 "max": times[-1], "unsolved": unsolved, "cells": cells}})
table = solver.tablebase
print(json.dumps({{
    "core": solver.core is not None, "loaded": loaded, "first": first, "rows": rows,
    "table_positions": len(table) if table else 0,
    "table_bytes": tablebase.TABLE_PATH.stat().st_size if table else 0,
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}}))
"""


def bench_5x5_off_table(count: int = 200, seed: int = 36) -> bool:
    """Print the analysis (every cell and the line of best play) of ``count``
    random 5x5 positions per number of marks, 1 to 8, half of them with
    their marks side by side: what games between people reach. False when a
    cell or a line was not solved in time."""
    print(f"## 5x5 anywhere: every cell and the line of best play, {count} random positions per number of marks")
    r = _cold(_OFF_TABLE.format(count=count, seed=seed))
    search = "the compiled core (games/search/core.c)" if r["core"] else "Python (no compiled core)"
    print(f"  search:                               {search}")
    print(
        f"  tablebase:                            {r['table_positions']} positions up to 6 marks,"
        f" {r['table_bytes'] / 2**20:.1f} MiB, mapped and checked in {r['loaded'] * 1e3:.0f} ms"
    )
    print(f"  cold start, first analysis and line:  {r['first'] * 1e3:9.0f} ms   (target < 3000 ms)")
    print("  marks     p50 ms     p99 ms  slowest ms   cells not solved in time")
    unsolved = 0
    for row in r["rows"]:
        unsolved += row["unsolved"]
        print(
            f"  {row['marks']:5d} {row['p50'] * 1e3:10.1f} {row['p99'] * 1e3:10.1f} {row['max'] * 1e3:11.1f}"
            f"   {row['unsolved']} of {row['cells']}"
        )
    worst_p99 = max(row["p99"] for row in r["rows"])
    slowest = max(row["max"] for row in r["rows"])
    print(
        f"  p99 / slowest over every mark count:  {worst_p99 * 1e3:9.1f} / {slowest * 1e3:.1f} ms   (target 1000 / 2000 ms)"
    )
    print(f"  cells not solved in time:             {unsolved:9d}   (must be 0)")
    print(f"  peak memory of that process:          {r['peak_mb']:9.1f} MB   (target < 300 MB)")
    return unsolved == 0


def bench_traps(count: int, seed: int = 5) -> None:
    """Print what counting traps adds to an analysis on 4x4 and 5x5: ``count``
    random positions (clustered, as people play) per board and number of
    marks, each analysed first, then asked again with its traps, so the
    second time is the traps alone; and how many came back without traps
    within the analysis's default budget."""
    from bench.positions import random_position
    from games.engine import DEFAULT_BUDGET, analyse
    from games.search.analysis import forget

    print(f"## Traps: what counting them adds to an analysis, {count} random positions per board and mark count")
    print("  board marks     p50 ms     p99 ms  slowest ms   left out")
    rng = random.Random(seed)
    for size, marks_counts in ((4, range(0, 11, 2)), (5, range(0, 15, 2))):
        for marks in marks_counts:
            took, left_out = [], 0
            for _ in range(count):
                board = random_position(rng, marks, clustered=True, size=size)
                forget()
                analyse(board)
                start = time.perf_counter()
                found = analyse(board, budget=DEFAULT_BUDGET, traps=True)
                took.append(time.perf_counter() - start)
                left_out += found.traps is None
            took.sort()
            p50, p99 = (took[min(count - 1, int(count * share))] for share in (0.5, 0.99))
            print(
                f"  {size}x{size} {marks:5d} {p50 * 1e3:10.1f} {p99 * 1e3:10.1f}"
                f" {max(took) * 1e3:11.1f}   {left_out} of {count}"
            )


def _play(x_player: str, o_player: str, size: int, rng: random.Random) -> str:
    board = Board.empty(size)
    while not board.is_game_over():
        player = x_player if board.to_move == "X" else o_player
        if player == "random":
            cell = rng.choice(board.legal_moves)
        else:
            cell = best_move(board, player, seed=rng.randrange(1 << 30))
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
    parser.add_argument("--games-5x5", type=int, default=10, help="5x5 games per opponent and side (default 10)")
    parser.add_argument("--only-5x5", action="store_true", help="only the 5x5 figures")
    parser.add_argument(
        "--anywhere",
        type=int,
        metavar="N",
        default=0,
        help="also analyse N random 5x5 positions per number of marks, 1 to 8",
    )
    parser.add_argument(
        "--traps", type=int, metavar="N", default=0, help="only the cost of counting traps, N positions each"
    )
    args = parser.parse_args()
    if args.traps:
        bench_traps(args.traps)
        return
    if not args.only_5x5:
        bench_3x3()
        bench_4x4()
    perfect = bench_5x5(args.games_5x5)
    if args.anywhere and not bench_5x5_off_table(args.anywhere):
        perfect = False
    if not args.skip_levels and not args.only_5x5:
        level_table(args.games, 3)
        level_table(args.games, 4)
    if not perfect:
        sys.exit("FAILED: the perfect AI lost a 5x5 game, or a cell or a line was not solved in time")


if __name__ == "__main__":
    main()
