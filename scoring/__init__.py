"""Scoring: results, standings with the WCC tiebreaks, scorecards and their workflow."""
