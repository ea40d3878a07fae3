"""A WSGI application for tests/web/test_even_shares.py: each answer is the
id of the worker process that gave it, through games.serving.shares."""

import os

from games.serving.shares import EvenShares


def answer_with_the_worker(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [str(os.getpid()).encode()]


application = EvenShares(answer_with_the_worker)
