"""``python -m bench.move_cpu``, briefly: the API move and the
game page's move are each played through the whole of Django without an
error (a move refused would stop it). Timing is never judged."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "options, what",
    [([], "POST /api/games/<id>/moves/"), (["--form"], "POST /games/<id>/move/ (X-Partial)")],
)
def test_it_plays_each_move_and_prints_its_cpu(options, what):
    command = [sys.executable, "-m", "bench.move_cpu", "--games", "5", "--warmup", "2", *options]
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        command, cwd=ROOT, env={**env, "DEBUG": "1"}, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"{what}, first move against the perfect AI on 3x3, 5 requests"), result.stdout
    row = re.search(r"CPU per request: median ([\d.]+) ms", result.stdout)
    assert row and float(row.group(1)) > 0, result.stdout
