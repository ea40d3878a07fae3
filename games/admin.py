"""The admin, for Django to find: each domain registers its own models."""

from games.accounts import admin as accounts_admin
from games.exams import admin as exams_admin
from games.learn import admin as learn_admin
from games.lobby import admin as lobby_admin
from games.play import admin as play_admin
from games.play import chat_admin, review_admin

__all__ = ["accounts_admin", "chat_admin", "exams_admin", "learn_admin", "lobby_admin", "play_admin", "review_admin"]
