from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """People, categories, stages, matches, boards and the schedule."""

    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"
