"""What each event tells whom, in words: the services that turn the lobby's
and the games' events into notifications."""

from __future__ import annotations

from games.engine import other_side
from games.notifications import services
from games.notifications.models import Kind


def _name(user) -> str:
    return user.get_username() if user is not None else "your opponent"


def _terms(challenge) -> str:
    """ "3×3, 5+3, rated": what the challenge offers."""
    board = challenge.get_variant_display().split(",")[0]
    clock = challenge.time_control.short_label
    return f"{board}, {clock[0].lower() + clock[1:]}, {'rated' if challenge.rated else 'casual'}"


def challenge_sent(challenge) -> None:
    """A challenge, or a rematch offer, for its opponent."""
    challenger = _name(challenge.challenger)
    if challenge.rematch_of_id:
        kind, text = Kind.REMATCH, f"{challenger} offers a rematch ({_terms(challenge)})"
    else:
        kind, text = Kind.CHALLENGE, f"{challenger} challenges you ({_terms(challenge)})"
    services.notify(
        user=challenge.opponent, kind=kind, text=text, url=challenge.get_absolute_url(), challenge=challenge
    )


def turn_passed(game, to_move: str) -> None:
    """Your turn, in a correspondence game (no other game tells it: nothing is
    read or written for a move in one); the mover's own "your turn" is seen."""
    if game.time_control.kind != "correspondence":
        return
    mover = game.player(other_side(to_move))
    if mover is not None:
        services.notifications_read(user=mover, game=game)
    services.notify_turn(
        user=game.player(to_move),
        game=game,
        text=f"Your turn against {_name(mover)} ({game.get_variant_display().split(',')[0]})",
    )


OFFER_KINDS = {
    ("draw", True): Kind.DRAW_ACCEPTED,
    ("draw", False): Kind.DRAW_DECLINED,
    ("takeback", True): Kind.TAKEBACK_ACCEPTED,
    ("takeback", False): Kind.TAKEBACK_DECLINED,
}


def offer_answered(game, offer: str, accepted: bool, side: str) -> None:
    """The offerer hears the answer: "bob declined your draw offer"."""
    answerer = _name(game.player(side))
    what = "draw offer" if offer == "draw" else "takeback request"
    services.notify(
        user=game.player(other_side(side)),
        kind=OFFER_KINDS[offer, accepted],
        text=f"{answerer} {'accepted' if accepted else 'declined'} your {what}",
        url=game.get_absolute_url(),
        game=game,
    )
