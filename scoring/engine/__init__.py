"""Pure scoring engine: rounds -> games -> matches -> standings, tiebreaks, shoot-outs, systems.

Nothing here imports Django; the scoring app translates its models to these plain objects.
"""

from .errors import EngineInputError
from .games import GAME_ROUNDS, Game, check_game
from .io import StandingsInput, format_standings, parse_standings_input, standings_to_dict
from .judge import (
    BEST_OF,
    FIXED,
    MATCH_FORMATS,
    GameRules,
    GameVerdict,
    MatchVerdict,
    RoundData,
    check_complete,
    check_match_format,
    decided_early,
    judge_game,
    judge_match,
    judge_points,
    judge_row,
    mirror,
    paper_round_lines,
    read_rounds,
    round_data,
    round_from_data,
    round_lines,
    round_to_data,
    seen_from,
    wins_needed,
)
from .rounds import (
    DEFAULT_DISCS,
    Round,
    check_round,
    points_from_score,
    points_from_winner,
    round_winner,
)
from .shootouts import SHOTS_PER_ENTRY, Shootout, UnsettledShootout
from .standings import StandingRow, Standings, compute_standings
from .systems import SYSTEMS, GameState, ScoringSystem, UnplayedGame, UnplayedRule, get_system
from .tallies import Credit
from .three import RoundOfThree, three_player_points
from .tiebreaks import METHODS, STEPS, TiebreakStep, resolve_chain

__all__ = [
    "BEST_OF",
    "DEFAULT_DISCS",
    "FIXED",
    "GAME_ROUNDS",
    "MATCH_FORMATS",
    "METHODS",
    "SHOTS_PER_ENTRY",
    "STEPS",
    "SYSTEMS",
    "Credit",
    "EngineInputError",
    "Game",
    "GameRules",
    "GameState",
    "GameVerdict",
    "MatchVerdict",
    "Round",
    "RoundData",
    "RoundOfThree",
    "ScoringSystem",
    "Shootout",
    "StandingRow",
    "Standings",
    "StandingsInput",
    "TiebreakStep",
    "UnplayedGame",
    "UnplayedRule",
    "UnsettledShootout",
    "check_complete",
    "check_game",
    "check_match_format",
    "check_round",
    "compute_standings",
    "decided_early",
    "format_standings",
    "get_system",
    "judge_game",
    "judge_match",
    "judge_points",
    "judge_row",
    "mirror",
    "paper_round_lines",
    "parse_standings_input",
    "points_from_score",
    "points_from_winner",
    "read_rounds",
    "resolve_chain",
    "round_data",
    "round_from_data",
    "round_lines",
    "round_to_data",
    "round_winner",
    "seen_from",
    "standings_to_dict",
    "three_player_points",
    "wins_needed",
]
