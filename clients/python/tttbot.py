"""tttsite's reference bot client: the Python standard library and one
WebSocket package (`websockets`). Plug in a function that chooses a move:

    def choose_move(board: str, to_move: str) -> int:
        ...  # board: "X.O......", row by row; return a free cell, 0 is the top left

and run it:

    python my_bot.py exam                  # the 3x3 exam: every position, graded
    python my_bot.py exam --variant 4x4 --positions 200
    python my_bot.py exam --games 2        # and 2 games against each AI level, as X and as O
    python my_bot.py play                  # accept challenges and play them
    python my_bot.py challenge other_bot   # challenge another account, and play it

The site and the token come from --site and --token, or TTT_SITE and
TTT_TOKEN (a token: POST /api/auth/token/ or the account page). docs/bots.md
walks through it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit

import websockets

ChooseMove = Callable[[str, str], int]

#: The most answers one request to an exam takes.
BATCH = 1000
#: How many of an exam's games are played at once, each over its own socket.
GAMES_AT_ONCE = 4


class ApiError(Exception):
    """The site refused a request: its HTTP status, error code and message."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class Site:
    """One account on one site: its REST API and its sockets."""

    def __init__(self, url: str, token: str):
        self.url = url.rstrip("/")
        self.token = token
        self.requests = 0  # REST requests made, for a program that wants to count them

    def call(self, method: str, path: str, body: dict | None = None) -> dict | None:
        """One API request; the JSON answer, or ApiError with the site's reason."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Token {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        while True:
            self.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    raw, status, again = response.read(), response.status, response.headers.get("Retry-After")
            except urllib.error.HTTPError as error:
                try:
                    problem = json.loads(error.read())
                except ValueError:
                    problem = {}
                message = problem.get("message", error.reason)
                raise ApiError(error.code, problem.get("code", "error"), message) from None
            if status == 202 and again:  # the engine is working on it: the same request again, later
                time.sleep(float(again))
                continue
            return json.loads(raw) if raw else None

    def socket(self, path: str):
        """A WebSocket to ``path`` on the site, signed in with the token."""
        scheme, host, *_ = urlsplit(self.url)
        url = urlunsplit(("wss" if scheme == "https" else "ws", host, path, "", ""))
        return websockets.connect(url, additional_headers={"Authorization": f"Token {self.token}"})


# -- the exam -------------------------------------------------------------------


def take_exam(
    site: Site, choose_move: ChooseMove, variant: str = "3x3", positions: str | int = "all", games: int = 0
) -> dict:
    """Ask for an exam, answer every position with ``choose_move`` (in batches
    of up to 1,000), play its ``games`` games against each level of the AI on
    each side over their sockets, and return the graded report."""
    exam = site.call("POST", "/api/exams/", {"variant": variant, "positions": positions, "games": games})
    answers = [
        {"position": position["index"], "cell": choose_move(position["board"], position["to_move"])}
        for position in exam["positions"]
    ]
    for start in range(0, len(answers), BATCH):
        site.call("POST", f"/api/exams/{exam['id']}/answers/", {"answers": answers[start : start + BATCH]})
    if exam["games"]:
        asyncio.run(_play_all(site, [game["id"] for game in exam["games"]], choose_move))
    return site.call("GET", f"/api/exams/{exam['id']}/")


async def _play_all(site: Site, game_ids: list[int], choose_move: ChooseMove) -> list[dict]:
    """Play every game, GAMES_AT_ONCE at a time; the games as they ended."""
    turns = asyncio.Semaphore(GAMES_AT_ONCE)

    async def one(game_id: int) -> dict:
        async with turns:
            return await play_game(site, game_id, choose_move)

    return await asyncio.gather(*(one(game_id) for game_id in game_ids))


# -- live games -----------------------------------------------------------------


async def play_game(site: Site, game_id: int, choose_move: ChooseMove) -> dict:
    """Play one game over its socket until it ends; the game as it ended.
    Every message that changes the game says how it stands, so no request is
    needed: the bot moves whenever it is its turn."""
    async with site.socket(f"/ws/games/{game_id}/") as socket:
        side = None
        async for raw in socket:
            message = json.loads(raw)
            if message["type"] == "state":
                side, game = message["side"], message
            elif "state" in message:
                game = message["state"]
            else:
                continue  # watchers, chat, a refused move (the next state says where the game is)
            if game["status"] != "in_progress":
                return game
            if side is not None and game["to_move"] == side:
                cell = choose_move(game["board"], side)
                await socket.send(json.dumps({"action": "move", "cell": cell, "ply": game["ply"]}))
    raise ConnectionError(f"the socket of game {game_id} closed before the game ended")


async def serve(
    site: Site,
    choose_move: ChooseMove,
    *,
    accept: Callable[[dict], str | None] = lambda challenge: None,
    games: int | None = None,
    started: asyncio.Event | None = None,
) -> list[dict]:
    """Accept the challenges sent to this account and play them, each game in
    its own task, until ``games`` games have ended (None: forever). ``accept``
    sees each challenge and returns None to accept it, or a reason to decline
    it ("later", "variant", "time_control", ...). Returns the games as they ended."""
    results: list[dict] = []
    tasks: set[asyncio.Task] = set()
    done = asyncio.Event()

    def finished(task: asyncio.Task) -> None:
        tasks.discard(task)
        results.append(task.result())
        if games is not None and len(results) >= games:
            done.set()

    def start(game_id: int) -> None:
        task = asyncio.ensure_future(play_game(site, game_id, choose_move))
        tasks.add(task)
        task.add_done_callback(finished)

    async with site.socket("/ws/lobby/") as lobby:
        ready = json.loads(await lobby.recv())  # subscribed: every challenge from now on is heard
        if ready.get("type") != "ready":
            raise ConnectionError(f"the lobby's socket said {ready!r} first, not ready")
        listening = asyncio.ensure_future(_listen(site, lobby, accept, start))
        if started is not None:
            started.set()
        waiting = asyncio.ensure_future(done.wait())
        await asyncio.wait({listening, waiting}, return_when=asyncio.FIRST_COMPLETED)
        listening.cancel()
    return results


async def _listen(site: Site, lobby, accept, start) -> None:
    async for raw in lobby:
        message = json.loads(raw)
        if message["type"] == "challenge_received":
            challenge = message["challenge"]
            reason = accept(challenge)
            if reason is None:
                game = await asyncio.to_thread(site.call, "POST", f"/api/challenges/{challenge['id']}/accept/")
                start(game["id"])
            else:
                body = {"reason": reason}
                await asyncio.to_thread(site.call, "POST", f"/api/challenges/{challenge['id']}/decline/", body)
        elif message["type"] == "challenge_accepted":
            start(message["game"])  # our own challenge, accepted


def challenge(site: Site, opponent: str, **choices) -> dict:
    """Challenge ``opponent`` (a direct challenge); ``choices`` as POST /api/challenges/ takes them."""
    return site.call("POST", "/api/challenges/", {"kind": "direct", "opponent": opponent, **choices})


# -- the command line -----------------------------------------------------------


def main(choose_move: ChooseMove, argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run a tic-tac-toe bot on tttsite.")
    parser.add_argument("--site", default=os.environ.get("TTT_SITE", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("TTT_TOKEN"), help="or TTT_TOKEN")
    commands = parser.add_subparsers(dest="command", required=True)
    exam = commands.add_parser("exam", help="take an exam and print its report's link")
    exam.add_argument("--variant", default="3x3", choices=["3x3", "4x4", "5x5"])
    exam.add_argument("--positions", default="all", help='"all" (3x3), how many (4x4, 5x5), or 0 for none')
    exam.add_argument("--games", type=int, default=0, help="games against each AI level on each side, 0 to 10")
    play = commands.add_parser("play", help="accept challenges and play them")
    play.add_argument("--games", type=int, default=None, help="stop after this many games")
    versus = commands.add_parser("challenge", help="challenge an account and play the game")
    versus.add_argument("opponent")
    versus.add_argument("--time-control", default="1+0")
    versus.add_argument("--casual", action="store_true", help="a game that changes no rating")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("a token is needed: --token or TTT_TOKEN (POST /api/auth/token/ gives one)")
    site = Site(args.site, args.token)
    try:
        if args.command == "exam":
            positions = args.positions if args.positions == "all" else int(args.positions)
            report = take_exam(site, choose_move, args.variant, positions, args.games)
            print(report["summary"])
            print(report["report"])
        elif args.command == "play":
            for game in asyncio.run(serve(site, choose_move, games=args.games)):
                print(game["board"], game["result"])
        else:
            sent = challenge(site, args.opponent, time_control=args.time_control, rated=not args.casual)
            print(f"challenge {sent['id']} sent to {args.opponent}; waiting for the answer")
            for game in asyncio.run(serve(site, choose_move, games=1)):
                print(game["board"], game["result"])
    except ApiError as error:
        print(f"the site refused: {error}", file=sys.stderr)
        return 1
    return 0
