"""Celery tasks of the simulation's planning (thin: they call its services)."""
