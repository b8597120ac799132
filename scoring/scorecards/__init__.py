"""Scorecards: filling at the board, validation, the scoring table, disputes."""
