"""A game's buttons, for the pages of every domain that shows them (play's,
the lobby's rematch offers): a service called for the person asking, its
refusal shown as a message on the page it redirects to."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404

from games.errors import GameError
from games.play.models import Game
from games.play.players import current_player


def game_action(request, pk: int, action, refused: str):
    """Call a service ``action`` on game ``pk`` for the person asking; its result,
    or None with the refusal as a message."""
    try:
        return action(game_id=pk, player=current_player(request))
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    except GameError as error:
        messages.error(request, f"{refused}: {error.message}.")
        return None
