"""Writes of the simulation app: auto-play through the scorecard workflow, previews, dry runs.

``playing`` and ``records`` are pure (no Django): the parallel Celery tasks run them.
"""
