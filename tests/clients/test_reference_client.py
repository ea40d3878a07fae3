"""clients/python/: a student's minimax plugged into the reference client
plays a live game against another bot over the sockets, on a 1+0 clock, and
makes no request once the challenge is accepted."""

import asyncio
import json

import my_bot
import pytest
import tttbot

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_bots_play_a_clocked_game_with_no_request_after_the_accept(asgi_live_server, bot_account):
    _, token_a = bot_account("bot_a")
    _, token_b = bot_account("bot_b")
    site_a, site_b = tttbot.Site(asgi_live_server.url, token_a), tttbot.Site(asgi_live_server.url, token_b)

    async def play() -> tuple[list, list]:
        a_ready, b_ready = asyncio.Event(), asyncio.Event()
        a_plays = asyncio.ensure_future(tttbot.serve(site_a, my_bot.choose_move, games=1, started=a_ready))
        b_plays = asyncio.ensure_future(tttbot.serve(site_b, my_bot.choose_move, games=1, started=b_ready))
        await asyncio.wait_for(asyncio.gather(a_ready.wait(), b_ready.wait()), 10)
        await asyncio.to_thread(tttbot.challenge, site_a, "bot_b", time_control="1+0")
        return await asyncio.wait_for(asyncio.gather(a_plays, b_plays), 60)

    (game_a,), (game_b,) = asyncio.run(play())

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
