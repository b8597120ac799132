from django.apps import AppConfig
from django.utils.translation import gettext, ngettext, pgettext

from tournaments import translation


class TournamentsConfig(AppConfig):
    """People, categories, stages, matches, boards and the schedule."""

    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments import live, permissions  # noqa: F401  (registers the permissions)

        live.connect()
        translation.install(gettext, ngettext, pgettext)
