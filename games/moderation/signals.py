"""The "moderator" group: staff who handle reports and sanction players
without being superusers. After every ``migrate`` (and every test database
flush) it holds at least these permissions, the ones the queue needs:
reading users, games and chats, deleting chat messages, handling reports,
giving and lifting sanctions. Never changing a user (so no password) nor
deleting a game. A superuser makes someone a moderator by ticking "staff
status" and adding them to the group.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.db.models.signals import post_migrate
from django.dispatch import receiver

GROUP = "moderator"

#: (app label, codename)
PERMISSIONS = [
    ("auth", "view_user"),
    ("games", "view_game"),
    ("games", "view_move"),
    ("games", "view_chatmessage"),
    ("games", "delete_chatmessage"),
    ("games", "view_report"),
    ("games", "handle_report"),
    ("games", "view_sanction"),
    ("games", "add_sanction"),
    ("games", "change_sanction"),
]


@receiver(post_migrate, dispatch_uid="games.moderation.moderator_group")
def moderator_group(sender, app_config=None, using="default", **kwargs):
    """Once the games app is migrated (Django has made its permissions then)."""
    if app_config is None or app_config.label != "games":
        return
    group, _ = Group.objects.using(using).get_or_create(name=GROUP)
    wanted = [
        permission
        for app_label, codename in PERMISSIONS
        for permission in Permission.objects.using(using).filter(content_type__app_label=app_label, codename=codename)
    ]
    group.permissions.add(*wanted)
