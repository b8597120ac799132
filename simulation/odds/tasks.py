"""Celery tasks of the simulation's odds (thin: they call its services)."""
