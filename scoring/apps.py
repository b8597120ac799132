from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    """Results, standings and the scorecard workflow."""

    name = "scoring"
    verbose_name = _("Scoring")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring import permissions  # noqa: F401  (registers the permissions)
        from scoring.models import CardRow, ScoreCard, ShootOut, StageAdvance
        from tournaments import live

        # The public pages follow the cards, shoot-outs and advances too (tournaments.live).
        live.add_route("card", ScoreCard, "stage__category__tournament_id")
        live.watch(CardRow, "card", "card_id")
        live.watch(ShootOut, "stage", "stage_id")
        live.watch(StageAdvance, "stage", "stage_id")
        # Ratings follow each official result once it commits (scoring.ratings.hooks).
        from scoring.ratings import hooks

        hooks.watch()
