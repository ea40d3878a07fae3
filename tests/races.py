"""Requests racing each other, as the race tests make them."""

from __future__ import annotations

import threading

from django.db import connection


def at_once(*calls) -> list:
    """Run each call in a thread (and database connection) of its own,
    released together; their results, or the exceptions they raised, in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - what went wrong is the test's business
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def refusal_codes(results: list) -> list:
    """Each result as "ok", a refusal's code, or what else was raised."""
    return ["ok" if not isinstance(r, Exception) else getattr(r, "code", None) or repr(r) for r in results]
