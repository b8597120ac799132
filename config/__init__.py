"""Project configuration: settings, URLs, the Celery app and the WSGI/ASGI entry points."""

from config import checks  # noqa: F401 - registers the deployment checks
from config.celery import app as celery_app

__all__ = ["celery_app"]
