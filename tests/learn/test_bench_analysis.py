"""The analysis page's benchmark runs and prints a row per board and mode
(the figures themselves are in docs/benchmarks.md, never asserted here)."""

import random
import re

from bench.analysis import bench_analysis, positions_for
from games import engine


def test_it_prints_p50_and_p95_for_every_board_first_and_again():
    lines = []
    timings = bench_analysis(positions=2, seed=3, log=lines.append)

    rows = [line for line in lines if re.match(r"^\dx\d +(first|again) ", line)]
    assert [row.split()[:3] for row in rows] == [
        [f"{size}x{size}", mode, "2"] for size in (3, 4, 5) for mode in ("first", "again")
    ]
    assert all(timing.statuses == {200} for timing in timings)
    five = engine.DEFAULT_BUDGET * 1000  # 5x5: within the engine's own bound
    assert [timing.target_ms for timing in timings] == [300, 300, 300, 300, five, five]


def test_the_positions_start_from_the_empty_board_and_are_all_still_in_play():
    boards = positions_for(4, 10, random.Random(1))
    assert boards[0] == engine.Board.empty(4)
    assert len(set(boards)) > 1 and not any(board.is_game_over() for board in boards)
