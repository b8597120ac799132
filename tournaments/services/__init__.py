"""Writes: every change to a tournament goes through a service function here."""
