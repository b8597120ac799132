from django.apps import AppConfig


class SimulationConfig(AppConfig):
    """Dry runs, previews and replays built on the pure physics and rules cores."""

    name = "simulation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring.results.signals import official_results_changed
        from simulation import permissions  # noqa: F401 (registers the permissions)
        from simulation.odds.hooks import results_changed
        from simulation.services.runs import work_under_way
        from tournaments.services import setup

        # A tournament is not deleted from under the simulation's workers.
        setup.DELETION_CHECKS.append(work_under_way)
        official_results_changed.connect(results_changed, dispatch_uid="simulation.odds")
