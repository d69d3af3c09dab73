from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Lie 21 Arena"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Connects the signals that keep a schedule's beat task in step with admin edits.
        from arena.services import schedules  # noqa: F401
