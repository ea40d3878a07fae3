"""Games made through the services, as players make them: the statistics
counters behind the stats pages and the API are then the real ones, not
hand-written rows."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F

from games.lobby import services as lobby_services
from games.play import services
from games.play.models import Game, Move
from games.play.players import Player

X_WINS = [0, 3, 1, 4, 2]  # X completes the top row
DRAW = [4, 0, 8, 2, 1, 7, 6, 3, 5]


def time_passes(game: Game, seconds: float) -> None:
    """As if ``seconds`` had passed since the player to move got the turn: the
    turn began, and so runs out, that much earlier. Nothing else changes."""
    earlier = timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=F("turn_started_at") - earlier, deadline=F("deadline") - earlier
    )


def human_game(x, o, cells=X_WINS, *, resign=None, variant="3x3", time_control=None) -> Game:
    """``x`` against ``o``: they play ``cells`` in turn; ``resign`` (a user) gives up after."""
    challenge = lobby_services.challenge_create(challenger=x, side="X", variant=variant, time_control=time_control)
    game = lobby_services.challenge_accept(user=o, challenge_id=challenge.pk)
    for ply, cell in enumerate(cells):
        services.game_play_move(game_id=game.pk, player=Player(user=(x, o)[ply % 2]), cell=cell, ply=ply)
    if resign is not None:
        game = services.game_resign(game_id=game.pk, player=Player(user=resign))
    return Game.objects.get(pk=game.pk)


def ai_game(user=None, *, level="perfect", first=4, resign=False, variant="3x3", guest_key="") -> Game:
    """``user`` (or a guest) plays X against the AI, opening on ``first``; then
    resigns, or plays the lowest free cell each turn until the game ends."""
    player = Player(user=user, guest_key=guest_key)
    game = services.game_create_against_ai(player=player, side="X", level=level, variant=variant, seed=7)
    game = services.game_play_move(game_id=game.pk, player=player, cell=first, ply=0).game
    if resign:
        return services.game_resign(game_id=game.pk, player=player)
    while game.is_in_progress:
        board = game.board
        game = services.game_play_move(
            game_id=game.pk, player=player, cell=board.legal_moves[0], ply=game.move_count
        ).game
    return game


def stopped_before_the_ai_replied(game: Game, cell: int) -> Game:
    """What a server stopped while the AI thought leaves behind: the person's
    move on ``cell`` stored, the AI's reply owed."""
    Move.objects.create(game=game, ply=game.move_count, cell=cell)
    Game.objects.filter(pk=game.pk).update(move_count=game.move_count + 1)
    return Game.objects.get(pk=game.pk)


def rating_of(user, variant: str = "3x3") -> int:
    """``user``'s rating on ``variant`` (the starting one before a rated game there)."""
    from games.stats.selectors import board_rating

    return board_rating(user, variant).rating


def rate(user, rating: int, variant: str = "3x3") -> None:
    """Give ``user`` a rating on ``variant``, as if their rated games had made it."""
    from games.stats.models import BoardRating

    BoardRating.objects.update_or_create(user=user, variant=variant, defaults={"rating": rating, "rated_games": 1})
