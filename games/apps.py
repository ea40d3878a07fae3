from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games.accounts import signals  # noqa: F401 - connects the receivers
        from games.exams import signals as exam_signals  # noqa: F401 - counts exams' games as they end
        from games.moderation import signals as moderation_signals  # noqa: F401 - the moderator group
        from games.notifications import signals as notification_signals  # noqa: F401 - tells players
        from games.serving import static  # noqa: F401 - registers the static manifest's check
        from games.stats import signals as stats_signals  # noqa: F401 - counts games as they finish
