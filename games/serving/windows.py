"""Limits counted from stored rows: at most ``limit`` things in any ``window``.

The chat's messages and the players' reports are counted from what the
database holds, under a row lock, so the limit holds on every server; this
says how long the next one must wait.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta


def seconds_until_room(latest: list[datetime], *, limit: int, window: timedelta, now: datetime) -> int:
    """Seconds until one more fits in the window, 0 when it fits now.
    ``latest``: the times of the latest ``limit`` things within the window, newest first."""
    if len(latest) < limit:
        return 0
    # The oldest of those leaves the window first; then one more fits.
    return max(1, math.ceil((latest[limit - 1] + window - now).total_seconds()))
