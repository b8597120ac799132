from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Results, standings and the scorecard workflow."""

    name = "scoring"
    verbose_name = _("Scoring")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring import permissions  # noqa: F401  (registers the permissions)
