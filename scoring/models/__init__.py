"""Scoring models: shoot-outs, the scorecards with their workflow, closed stages."""

from scoring.models.locks import ClosedStageChange, StageAdvance
from scoring.models.record import (
    Discipline,
    RankingSnapshot,
    Rating,
    RatingBookState,
    RatingPoint,
    RecordedGame,
    RecordImport,
)
from scoring.models.scorecards import CardRow, ScoreCard
from scoring.models.shootouts import ShootOut, ShootOutScore
from scoring.models.submissions import RowSubmission

__all__ = [
    "CardRow",
    "ClosedStageChange",
    "Discipline",
    "RankingSnapshot",
    "Rating",
    "RatingBookState",
    "RatingPoint",
    "RecordImport",
    "RecordedGame",
    "RowSubmission",
    "ScoreCard",
    "ShootOut",
    "ShootOutScore",
    "StageAdvance",
]
