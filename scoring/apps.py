from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """Results, standings and the scorecard workflow."""

    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring import permissions  # noqa: F401  (registers the permissions)
