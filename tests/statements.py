"""The statements a request sent, summed up for the tests that count them."""

import re

from django.db import connection


def statements(captured) -> list[str]:
    """Each statement as its verb and first table, transaction control left
    out; the writes sent together in one (PostgreSQL's WITH) as "INSERT a + UPDATE b"."""
    summary = []
    for query in captured:
        sql = query["sql"]
        verb, *rest = sql.split()
        if verb in ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"):
            continue
        if verb == "WITH":
            writes = re.findall(r'AS \((INSERT|UPDATE) (?:INTO )?"(\w+)"', sql)
            summary.append(" + ".join(f"{verb} {table}" for verb, table in writes))
            continue
        table = next(word for word in rest if word.startswith('"games_')).split(".")[0].strip('"')
        summary.append(f"{verb} {table}")
    return summary


def sent(reads: list[str], writes: list[str]) -> list[str]:
    """The statements of a move: its reads, then its writes, all in one
    statement on PostgreSQL (games/rows.py, Writes), one by one elsewhere."""
    return reads + ([" + ".join(writes)] if connection.vendor == "postgresql" else writes)
