"""Views of the games app: thin functions that parse input, call a service and render.

Accounts live here too (sign up, profile) because signing up is where a guest's
games are adopted.
"""
from games.views.accounts import on_signed_up, profile, signup
from games.views.history import history
from games.views.pages import home
from games.views.play import game_page, new_game, play_move, rematch, resign

__all__ = ["game_page", "history", "home", "new_game", "on_signed_up", "play_move", "profile", "rematch", "resign", "signup"]
