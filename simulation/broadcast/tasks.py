"""Celery tasks of the simulation's broadcast (thin: they call its services)."""
