from django.apps import AppConfig


class SimulationConfig(AppConfig):
    """Dry runs, previews and replays built on the pure physics and rules cores."""

    name = "simulation"
    default_auto_field = "django.db.models.BigAutoField"
