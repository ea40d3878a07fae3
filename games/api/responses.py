"""What every API view answers with: the player asking, a game, a challenge."""

from __future__ import annotations

from rest_framework import status
from rest_framework.response import Response

from games.api import serializers as s
from games.play.players import Player


def player_of(request) -> Player:
    """The API's player: the signed-in account (the API has no guests)."""
    return Player(user=request.user)


def game_response(game, request, code=status.HTTP_200_OK) -> Response:
    return Response(s.GameSerializer(game, context={"request": request}).data, status=code)


def challenge_response(challenge, request, code=status.HTTP_200_OK) -> Response:
    return Response(s.ChallengeSerializer(challenge, context={"request": request}).data, status=code)
