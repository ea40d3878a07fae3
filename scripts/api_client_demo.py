"""Play a whole game against the AI with the Python client generated from the API
schema (openapi-python-client), the first move sent over the game's WebSocket.

    openapi-python-client generate --url http://localhost:8000/api/schema/?format=json \
        --output-path /tmp/client/tttsite_client --meta none
    python scripts/api_client_demo.py --client /tmp/client --base-url http://localhost:8000 \
        --username alice --password secret

The socket step signs in as API clients do: ``Authorization: Token <key>`` on the
handshake to ws://host/ws/games/<id>/, then ``{"action": "move", "cell": 4, "ply": 0}``.
Prints one line per move and the result; exits non-zero on anything unexpected.
tests/api/test_generated_client.py runs it against a live server.
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client", required=True, help="the folder holding the generated tttsite_client package")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--no-socket", action="store_true", help="send the first move through the API too")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.client)
    return play(args.base_url.rstrip("/"), args.username, args.password, socket=not args.no_socket)


def play(base_url: str, username: str, password: str, *, socket: bool = True) -> int:
    from tttsite_client import AuthenticatedClient, Client
    from tttsite_client.api.auth import auth_token_create
    from tttsite_client.api.games import games_create, games_moves_create, games_retrieve
    from tttsite_client.models import (
        Game,
        GameCreateInputRequest,
        GameStatusEnum,
        LevelEnum,
        MoveInputRequest,
        SideOrRandomEnum,
        Token,
        TokenInputRequest,
        VariantEnum,
    )

    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    token = auth_token_create.sync(client=anonymous, body=TokenInputRequest(username=username, password=password))
    if not isinstance(token, Token):
        return _fail(f"no token: {token}")
    client = AuthenticatedClient(base_url=base_url, token=token.token, prefix="Token", raise_on_unexpected_status=True)

    game = games_create.sync(
        client=client,
        body=GameCreateInputRequest(variant=VariantEnum.BOARD_3X3, level=LevelEnum.PERFECT, side=SideOrRandomEnum.X),
    )
    if not isinstance(game, Game):
        return _fail(f"no game: {game}")
    print(f"game {game.id}: you play {game.your_side}, the AI plays {game.ai_side} at {game.ai_level}")

    if socket:  # the first move over the socket, as a live client would send it
        cell = game.board.index(".")
        answer = _move_over_the_socket(base_url, token.token, game.id, cell, game.ply)
        if answer.get("type") != "move":
            return _fail(f"the socket refused the move: {answer}")
        print(f"socket: played {cell} at ply {game.ply}; the server answered {answer['type']} at ply {answer['ply']}")
        game = games_retrieve.sync(game.id, client=client)
    while game.status == GameStatusEnum.IN_PROGRESS:
        cell = game.board.index(".")
        answer = games_moves_create.sync(game.id, client=client, body=MoveInputRequest(cell=cell, ply=game.ply))
        if not isinstance(answer, Game):
            return _fail(f"move {cell} refused: {answer}")
        print(f"api: played {cell}; board {answer.board}")
        game = answer
    print(f"over: {game.status.value}, result {game.result.value if game.result else None}, {game.termination}")
    return 0


def _move_over_the_socket(base_url: str, token: str, game_id: int, cell: int, ply: int) -> dict:
    """Connect with the API token, send one move, and return the server's answer to it
    (the published ``move`` event, or a ``refused`` message)."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    url = base_url.replace("http", "ws", 1) + f"/ws/games/{game_id}/"
    try:
        with connect(url, additional_headers={"Authorization": f"Token {token}"}, open_timeout=10) as socket:
            state = json.loads(socket.recv(timeout=10))
            if state.get("type") != "state" or state.get("side") is None:
                return {"type": "refused", "message": f"the socket did not take the token as a player: {state}"}
            socket.send(json.dumps({"action": "move", "cell": cell, "ply": ply}))
            while True:
                message = json.loads(socket.recv(timeout=10))
                if message.get("type") in ("move", "refused"):
                    return message
    except InvalidStatus as error:
        return {"type": "refused", "message": f"handshake refused: HTTP {error.response.status_code}"}
    except ConnectionClosed as error:
        return {"type": "refused", "message": f"the socket was closed: {error.rcvd}"}


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
