"""Scoring models: shoot-outs, the scorecards with their workflow, closed stages."""

from scoring.models.locks import ClosedStageChange, StageAdvance
from scoring.models.scorecards import CardRow, ScoreCard
from scoring.models.shootouts import ShootOut, ShootOutScore

__all__ = [
    "CardRow",
    "ClosedStageChange",
    "ScoreCard",
    "ShootOut",
    "ShootOutScore",
    "StageAdvance",
]
