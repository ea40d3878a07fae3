"""Views of the games app: thin functions that parse input, call a service and render.

Accounts live here too (sign up, profile) because signing up is where a guest's
games will be adopted.
"""
from games.views.accounts import on_signed_up, profile, signup
from games.views.pages import home

__all__ = ["home", "on_signed_up", "profile", "signup"]
