"""Scoring models: shoot-outs and the scorecards with their workflow."""

from scoring.models.scorecards import CardRow, ScoreCard
from scoring.models.shootouts import ShootOut, ShootOutScore

__all__ = ["CardRow", "ScoreCard", "ShootOut", "ShootOutScore"]
