"""The threads a socket server process gives its sockets' database work
(games/play/consumers.py): a forked server's child gets threads of its own."""

import os

from games.play.consumers import _threads


def test_a_server_process_forked_after_serving_sockets_still_runs_their_database_work():
    assert _threads.submit(lambda: "parent").result(timeout=5) == "parent"  # the parent's threads exist
    child = os.fork()
    if child == 0:  # a server's worker, forked from a process that served sockets
        try:
            ran = _threads.submit(lambda: "child").result(timeout=5) == "child"
        except BaseException:
            ran = False
        os._exit(0 if ran else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the child's work never ran: its pool held the parent's dead threads"
