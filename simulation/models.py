"""Stored dry runs and previews live here."""
