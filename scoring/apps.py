from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """Results, standings and the scorecard workflow."""

    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"
