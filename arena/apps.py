from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Bluff Arena"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the signals that keep a schedule's beat task in step with admin edits,
        # and the system check that static files were collected for production.
        from arena import checks  # noqa: F401
        from arena.services import schedules  # noqa: F401
