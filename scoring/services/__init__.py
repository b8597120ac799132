"""Writes of the scoring app: the scorecard workflow and shoot-outs."""
