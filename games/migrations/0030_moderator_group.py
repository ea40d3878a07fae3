"""The "moderator" group: staff who handle reports and sanction players
without being superusers. They read users, games and chats, delete chat
messages, handle reports and give or lift sanctions; they cannot change a
user (so no password) nor delete a game. A superuser makes someone a
moderator by ticking "staff status" and adding them to the group.

The permissions are made here if Django has not made them yet (on a new
database it makes them after every migration has run), with the names it
gives them, so that it finds them made.
"""

from django.db import migrations

GROUP = "moderator"

#: (app label, model, codename, name)
PERMISSIONS = [
    ("auth", "user", "view_user", "Can view user"),
    ("games", "game", "view_game", "Can view game"),
    ("games", "move", "view_move", "Can view move"),
    ("games", "chatmessage", "view_chatmessage", "Can view chat message"),
    ("games", "chatmessage", "delete_chatmessage", "Can delete chat message"),
    ("games", "report", "view_report", "Can view report"),
    ("games", "report", "handle_report", "Can handle reports: dismiss them or sanction the player"),
    ("games", "sanction", "view_sanction", "Can view sanction"),
    ("games", "sanction", "add_sanction", "Can add sanction"),
    ("games", "sanction", "change_sanction", "Can change sanction"),
]


def make_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for app_label, model, codename, name in PERMISSIONS:
        content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
        permission, _ = Permission.objects.get_or_create(
            content_type=content_type, codename=codename, defaults={"name": name}
        )
        group.permissions.add(permission)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0029_moderation"),
    ]

    operations = [migrations.RunPython(make_group, remove_group)]
