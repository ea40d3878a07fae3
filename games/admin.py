"""The admin, for Django to find: each domain registers its own models. The
admin says the site's name, not Django's."""

from django.contrib import admin

from games.accounts import admin as accounts_admin
from games.exams import admin as exams_admin
from games.learn import admin as learn_admin
from games.lobby import admin as lobby_admin
from games.moderation import admin as moderation_admin
from games.notifications import admin as notifications_admin
from games.play import admin as play_admin
from games.play import chat_admin, review_admin

admin.site.site_header = "tttsite administration"
admin.site.site_title = "tttsite admin"

__all__ = [
    "accounts_admin",
    "chat_admin",
    "exams_admin",
    "learn_admin",
    "lobby_admin",
    "moderation_admin",
    "notifications_admin",
    "play_admin",
    "review_admin",
]
