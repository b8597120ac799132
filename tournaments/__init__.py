"""Tournaments: who plays, in which category and stage, against whom, on which board."""
