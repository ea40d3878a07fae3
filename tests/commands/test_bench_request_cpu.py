"""``python -m bench.request_cpu``, briefly: it measures the
anchor and the site's plain pages without an error. Timing is never judged."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_it_prints_the_cpu_of_the_anchor_and_of_each_page():
    command = [sys.executable, "-m", "bench.request_cpu", "--anchor", "--requests", "20"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    for label in ("anchor: empty view, no middleware", "site /healthz/", "site /"):
        row = re.search(rf"^{re.escape(label)}\s+([\d.]+) µs CPU a request$", result.stdout, re.MULTILINE)
        assert row and float(row.group(1)) > 0, result.stdout
