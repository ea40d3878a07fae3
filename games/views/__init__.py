"""Views of the games app: thin functions that parse input, call a service and render.

Accounts live here too (sign up, profile) because signing up is where a guest's
games are adopted.
"""

from games.views.account import account, account_delete, account_games_csv, account_games_json
from games.views.accounts import on_signed_up, profile, signup
from games.views.history import history
from games.views.lobby import (
    challenge_accept,
    challenge_cancel,
    challenge_decline,
    challenge_new,
    challenge_page,
    lobby,
)
from games.views.pages import home
from games.views.stats import leaderboard, stats
from games.views.play import (
    abort,
    claim_timeout,
    game_page,
    new_game,
    play_move,
    rematch,
    rematch_accept,
    rematch_cancel,
    rematch_decline,
    rematch_offer,
    resign,
)

__all__ = [
    "game_page",
    "history",
    "home",
    "new_game",
    "on_signed_up",
    "play_move",
    "profile",
    "rematch",
    "resign",
    "signup",
]
# Games between people.
__all__ += [
    "abort",
    "challenge_accept",
    "challenge_cancel",
    "challenge_decline",
    "challenge_new",
    "challenge_page",
    "claim_timeout",
    "lobby",
    "rematch_accept",
    "rematch_cancel",
    "rematch_decline",
    "rematch_offer",
]
# Statistics.
__all__ += ["leaderboard", "stats"]
# Your account.
__all__ += ["account", "account_delete", "account_games_csv", "account_games_json"]
