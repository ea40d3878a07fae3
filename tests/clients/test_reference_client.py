"""clients/python/: a student's minimax plugged into the reference client
takes the whole 3x3 exam with its games against the AI, and plays a live game
against another bot over the sockets, on a 1+0 clock, making no request once
the challenge is accepted."""

import asyncio
import json
import os
import re
import subprocess
import sys
import urllib.request

import my_bot
import pytest
import tttbot

from tests.clients.conftest import CLIENT

pytestmark = pytest.mark.django_db(transaction=True)


async def _one_game(site_a, site_b, **choices) -> tuple[list, list]:
    """Both bots listen on their lobby sockets, A challenges B ("bot_b") with
    ``choices``, and both play the game to its end: the games as each saw them end."""
    a_ready, b_ready = asyncio.Event(), asyncio.Event()
    a_plays = asyncio.ensure_future(tttbot.serve(site_a, my_bot.choose_move, games=1, started=a_ready))
    b_plays = asyncio.ensure_future(tttbot.serve(site_b, my_bot.choose_move, games=1, started=b_ready))
    await asyncio.wait_for(asyncio.gather(a_ready.wait(), b_ready.wait()), 10)
    sent = await asyncio.to_thread(tttbot.challenge, site_a, "bot_b", **choices)
    assert sent["rated"] is choices.get("rated", True)
    return await asyncio.wait_for(asyncio.gather(a_plays, b_plays), 60)


def test_two_bots_play_a_clocked_game_with_no_request_after_the_accept(asgi_live_server, bot_account):
    _, token_a = bot_account("bot_a")
    _, token_b = bot_account("bot_b")
    site_a, site_b = tttbot.Site(asgi_live_server.url, token_a), tttbot.Site(asgi_live_server.url, token_b)

    (game_a,), (game_b,) = asyncio.run(_one_game(site_a, site_b, time_control="1+0"))

    # Two perfect players draw, and both saw the same end.
    assert game_a == game_b
    assert game_a["status"] == "finished" and game_a["result"] == "draw" and len(game_a["moves"]) == 9
    assert game_a["clock"]["time_control"] == "1+0"
    # One request each: the challenge, and its acceptance. Every move went over the game's socket.
    assert (site_a.requests, site_b.requests) == (1, 1)


def test_a_bot_declines_with_a_reason_and_the_challenger_hears_it(asgi_live_server, bot_account):
    _, token_a = bot_account("bot_a")
    _, token_b = bot_account("bot_b")
    site_a, site_b = tttbot.Site(asgi_live_server.url, token_a), tttbot.Site(asgi_live_server.url, token_b)

    async def decline() -> dict:
        ready = asyncio.Event()
        serving = asyncio.ensure_future(
            tttbot.serve(site_b, my_bot.choose_move, accept=lambda challenge: "too_fast", games=1, started=ready)
        )
        await asyncio.wait_for(ready.wait(), 10)
        async with site_a.socket("/ws/lobby/") as lobby:
            assert json.loads(await asyncio.wait_for(lobby.recv(), 10))["type"] == "ready"
            await asyncio.to_thread(tttbot.challenge, site_a, "bot_b", time_control="1+0")
            while True:
                event = json.loads(await asyncio.wait_for(lobby.recv(), 10))
                if event["type"] == "challenge_declined":
                    serving.cancel()
                    return event["challenge"]

    declined = asyncio.run(decline())
    assert (declined["status"], declined["decline_reason"], declined["opponent"]) == ("declined", "too_fast", "bot_b")


def test_a_student_takes_the_whole_3x3_exam_and_gets_the_report_link(asgi_live_server, bot_account):
    _, token = bot_account("student")
    result = subprocess.run(
        [sys.executable, "my_bot.py", "exam", "--games", "1"],
        cwd=CLIENT,
        env={**os.environ, "TTT_SITE": asgi_live_server.url, "TTT_TOKEN": token},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    summary, link = result.stdout.splitlines()
    # Every position best; the games against each level, as X and as O, over
    # their sockets: a perfect program never loses, and draws the Perfect AI.
    positions, games = summary.split("; ")
    assert positions == "4,520 positions: 4,520 best, 0 slower wins, 0 losses"
    played = re.fullmatch(r"8 games: (\d) won, (\d) drawn, 0 lost", games)
    assert played and int(played[1]) + int(played[2]) == 8 and int(played[2]) >= 2, games
    report = urllib.request.urlopen(link, timeout=30).read().decode()
    assert summary in report and "Against the AI: 8 games" in report


def test_a_bad_token_is_said_plainly(asgi_live_server):
    result = subprocess.run(
        [sys.executable, "my_bot.py", "--token", "not-a-token", "--site", asgi_live_server.url, "exam"],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.returncode == 1
    assert result.stderr.startswith("the site refused: 401 authentication_failed")


def test_a_casual_game_between_two_bots_leaves_their_ratings_as_they_were(asgi_live_server, bot_account):
    from games.stats.models import PlayerStats, RatingChange

    a_user, token_a = bot_account("bot_a")
    b_user, token_b = bot_account("bot_b")
    for token in (token_a, token_b):  # both accounts become bots before their first game
        tttbot.Site(asgi_live_server.url, token).call("POST", "/api/account/bot/")
    site_a, site_b = tttbot.Site(asgi_live_server.url, token_a), tttbot.Site(asgi_live_server.url, token_b)

    (game,), _ = asyncio.run(_one_game(site_a, site_b, time_control="1+0", rated=False))

    assert game["status"] == "finished"
    assert not RatingChange.objects.exists()
    ratings = {stats.user_id: stats.rated_games for stats in PlayerStats.objects.filter(user__in=[a_user, b_user])}
    assert all(rated == 0 for rated in ratings.values())
