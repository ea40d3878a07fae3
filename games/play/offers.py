"""Offers between the players of a game: draws and takebacks, one transaction each.

Like every write to a game (:mod:`games.play.services`), each function locks
the game's row, checks the action against the game as it then stands, stores
it and publishes what happened once the transaction has committed. A refused
action raises a :class:`games.errors.GameError` and changes nothing stored;
two answers racing each other, or an answer racing a move, are taken one at a
time, and the second is refused against the game the first left.

- **Draws**, between people only (the AI plays on): either player offers a
  draw on either side's turn; the opponent accepts (the game is drawn by
  agreement and counts as a draw) or declines. An offer lapses when the side
  that made it moves. Offering while the opponent's offer stands accepts it.
- **Takebacks**: a player asks to take back their own last move while the
  opponent has not answered it. Between people only when both agreed to
  takebacks before the game (``Game.takebacks_allowed``); the opponent accepts
  (the move is gone and it is the asker's turn again) or declines; the
  request lapses when the opponent moves. Against the AI the person takes
  back at once: the AI always agrees.

A game whose player to move has run out of time ends on time first, as a
move arriving too late does, and the offer or answer is refused.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.db import transaction
from django.utils import timezone

from games import engine
from games.errors import GameError, InvalidInput, MoveRefused
from games.play import clocks, live
from games.play.models import Game, Move, TakenBack, Termination
from games.play.players import Player
from games.play.selectors import game_detail
from games.play.services import _end_on_time, _finish, _locked_for_player, _refreshed
from games.play.signals import offer_answered

# -- draws --------------------------------------------------------------------------------


def game_offer_draw(*, game_id: int, player: Player) -> Game:
    """``player`` offers a draw. Offering again changes nothing; offering
    while the opponent's offer stands accepts it (the game is drawn)."""
    with _acting(game_id, player) as (game, side):
        if game.ai_side:
            raise MoveRefused("the AI does not agree to draws: play on, or resign", code="no_draws_with_ai", game=game)
        if game.draw_offer == engine.other_side(side):
            _agree_draw(game, side)
        elif game.draw_offer != side:  # offered already: one offer stands, nobody is told twice
            game.draw_offer = side
            game.save(update_fields=["draw_offer", "updated_at"])
            live.publish_game(game, "draw_offered", side=side)
    return game_detail(game_id)


def game_answer_draw(*, game_id: int, player: Player, accept: bool) -> Game:
    """``player`` accepts (the game is drawn by agreement) or declines the
    opponent's draw offer; refused when no offer of theirs stands (it lapsed
    when they moved, or was answered already)."""
    with _acting(game_id, player) as (game, side):
        if not game.draw_offer:
            raise MoveRefused(
                "there is no draw offer to answer: it was answered already, or lapsed when its player moved",
                code="no_draw_offer",
                game=game,
            )
        if game.draw_offer == side:
            raise MoveRefused("you cannot answer your own draw offer", code="own_offer", game=game)
        if accept:
            _agree_draw(game, side)
        else:
            game.draw_offer = ""
            game.save(update_fields=["draw_offer", "updated_at"])
            live.publish_game(game, "draw_declined", side=side)
            offer_answered.send(sender=Game, game=game, offer="draw", accepted=False, side=side)
    return game_detail(game_id)


def _agree_draw(game: Game, side: str) -> None:
    """``side`` agrees to the other side's offer in a locked game: drawn, and
    counted as a draw (aborted if both sides have not yet moved)."""
    if _finish(game, None, Termination.AGREED):
        live.publish_game(game, "draw_agreed", side=side)
        offer_answered.send(sender=Game, game=game, offer="draw", accepted=True, side=side)


# -- takebacks ----------------------------------------------------------------------------


def game_request_takeback(*, game_id: int, player: Player) -> Game:
    """``player`` asks to take back their last move, which the opponent has
    not answered yet. Between people the opponent is asked (once: asking again
    changes nothing), and only if both agreed to takebacks before the game.
    Against the AI the move is taken back at once (:func:`game_take_back_against_ai`)."""
    with _acting(game_id, player) as (game, side):
        if game.ai_side:
            _take_back_against_ai(game, side)
        else:
            if not game.takebacks_allowed:
                raise MoveRefused(
                    "takebacks were not agreed for this game: both players agree to them when it is arranged",
                    code="takebacks_not_allowed",
                    game=game,
                )
            _require_last_move_of(game, side)
            if game.takeback_offer != side:  # asked already: one request stands
                game.takeback_offer = side
                game.save(update_fields=["takeback_offer", "updated_at"])
                live.publish_game(game, "takeback_requested", side=side)
    return game_detail(game_id)


def game_answer_takeback(*, game_id: int, player: Player, accept: bool, ply: object = None) -> Game:
    """``player`` accepts (the opponent's last move is taken back and it is
    their turn again) or declines the opponent's takeback request. ``ply``, if
    given, is how many moves the answering player saw when the request was
    made: a request answered after the game moved on is refused as stale."""
    with _acting(game_id, player) as (game, side):
        if ply not in (None, "") and _whole_number(ply, game) != game.move_count:
            raise MoveRefused(
                "the game has moved on since that request: the move was already answered",
                code="takeback_stale",
                game=game,
            )
        if not game.takeback_offer:
            raise MoveRefused(
                "there is no takeback request to answer: the move was already answered, or the request declined",
                code="no_takeback_request",
                game=game,
            )
        if game.takeback_offer == side:
            raise MoveRefused("you cannot answer your own takeback request", code="own_offer", game=game)
        if accept:
            _take_back(game, 1, game.takeback_offer)
        else:
            game.takeback_offer = ""
            game.save(update_fields=["takeback_offer", "updated_at"])
            live.publish_game(game, "takeback_declined", side=side)
        offer_answered.send(sender=Game, game=game, offer="takeback", accepted=accept, side=side)
    return game_detail(game_id)


def game_take_back_against_ai(*, game_id: int, player: Player) -> Game:
    """The person playing the AI takes back their last move, without asking:
    with the AI's reply to it, so that it is their turn again, or alone if the
    AI still owes its reply. Only while the game is in progress. The game
    still counts as usual in the statistics once it ends: takebacks change
    the moves, not what the result means."""
    with _acting(game_id, player) as (game, side):
        if not game.ai_side:
            raise MoveRefused(
                "in a game between people, ask your opponent to agree to a takeback", code="not_against_ai", game=game
            )
        _take_back_against_ai(game, side)
    return game_detail(game_id)


def _take_back_against_ai(game: Game, side: str) -> None:
    count = _moves_to_take_back_against_ai(game, side)
    if not count:
        raise MoveRefused("you have made no move to take back", code="nothing_to_take_back", game=game)
    _take_back(game, count, side)


def _moves_to_take_back_against_ai(game: Game, side: str) -> int:
    """How many moves taking back ``side``'s last move against the AI removes:
    2 (it and the AI's reply), 1 (the AI's reply is owed), or 0 (none made)."""
    count = 2 if engine.side_to_move(game.move_count) == side else 1
    return count if game.move_count >= count else 0


def _made_the_last_move(game: Game, side: str) -> bool:
    return game.move_count > 0 and engine.side_to_move(game.move_count - 1) == side


def _require_last_move_of(game: Game, side: str) -> None:
    """Refused unless ``side`` made the last move of a locked game."""
    if not _made_the_last_move(game, side):
        if not clocks.has_moved(game.move_count, side):
            raise MoveRefused("you have made no move to take back", code="nothing_to_take_back", game=game)
        raise MoveRefused(
            "your opponent has answered your last move: only a move not answered yet can be taken back",
            code="move_answered",
            game=game,
        )


def _take_back(game: Game, count: int, side: str) -> None:
    """Remove the last ``count`` moves of a locked game, giving the turn back
    to ``side``.

    On a clock, the side whose clock was running is charged the time it used
    (as a move would charge it: the time is theirs whatever they did with
    it), and each removed move's increment is taken back off its side's
    clock; the time spent on a removed move is not given back. The turn then
    starts afresh, with its deadline."""
    now = timezone.now()
    first_removed = game.move_count - count
    if game.has_clock:
        running = game.clock_running_for
        if running:
            field = _clock_field(running)
            setattr(game, field, max(0, getattr(game, field) - clocks.charged_ms(game.turn_started_at, now)))
        for ply in range(first_removed, game.move_count):
            mover = engine.side_to_move(ply)
            if mover != game.ai_side and clocks.has_moved(ply, mover):
                field = _clock_field(mover)
                setattr(game, field, max(0, getattr(game, field) - game.clock_increment * 1000))
    played = game.cells
    Move.objects.filter(game=game, ply__gte=first_removed).delete()
    TakenBack.objects.create(
        game=game,
        ply=first_removed,
        cells=played[first_removed:],
        side=side,
        agreed_by="" if game.ai_side else engine.other_side(side),
    )
    game.cells = played[:first_removed]
    game.move_count = first_removed
    game.turn_started_at = now
    game.deadline = clocks.deadline(game, engine.side_to_move(first_removed))
    game.draw_offer = game.takeback_offer = ""
    game.save(
        update_fields=[
            "move_count",
            "turn_started_at",
            "deadline",
            "x_clock_ms",
            "o_clock_ms",
            "draw_offer",
            "takeback_offer",
            "updated_at",
        ]
    )
    live.publish_game(game, "taken_back", side=side, moves=count)


def _whole_number(ply: object, game: Game) -> int:
    number = engine.whole_number(ply)
    if number is None:
        raise InvalidInput(f"ply {ply!r} is not a whole number", code="invalid_ply", game=game)
    return number


def _clock_field(side: str) -> str:
    return "x_clock_ms" if side == "X" else "o_clock_ms"


# -- what a player may do now, for the pages ----------------------------------------------


def offers_for(game: Game, side: str | None) -> dict:
    """What ``side`` may do about offers in ``game`` as it stands (for the game
    page: the same rules as the services above); empty for a spectator or a
    game over. ``takeback_asks``: a takeback is asked for (between people),
    not made at once (against the AI)."""
    if side is None or not game.is_in_progress:
        return {}
    other = engine.other_side(side)
    if game.ai_side:
        may_take_back = bool(_moves_to_take_back_against_ai(game, side))
    else:
        may_take_back = game.takebacks_allowed and _made_the_last_move(game, side) and not game.takeback_offer
    return {
        "can_offer_draw": not game.ai_side and not game.draw_offer,
        "draw_offer_by_you": game.draw_offer == side,
        "draw_offer_to_you": game.draw_offer == other,
        "can_take_back": may_take_back,
        "takeback_asks": not game.ai_side,
        "takeback_by_you": game.takeback_offer == side,
        "takeback_to_you": game.takeback_offer == other,
    }


# -- what every action shares ------------------------------------------------------------


@contextmanager
def _acting(game_id: int, player: Player):
    """``with _acting(game_id, player) as (game, side)``: one transaction on
    the locked game, which ``player`` plays and which is in progress. A
    refusal comes out with the game as it then stands. If the player to move
    has run out of time, the game ends on time and the action is refused."""
    try:
        with transaction.atomic():
            game, side = _locked_for_player(game_id, player)
            now = timezone.now()
            flagged = game.is_out_of_time(now)
            if flagged:
                _end_on_time(game, now)
            else:
                yield game, side
    except GameError as error:
        raise _refreshed(error) from None
    if flagged:
        raise MoveRefused(
            "the player to move had run out of time: the game ended on time",
            code="out_of_time",
            game=game_detail(game_id),
        )
