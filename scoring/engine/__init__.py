"""Pure scoring engine: rounds -> games -> matches -> standings, tiebreaks, shoot-outs, systems.

Nothing here imports Django; the scoring app translates its models to these plain objects.
"""

from .errors import EngineInputError
from .games import GAME_ROUNDS, Game, check_game, game_is_over, needs_fifth_round
from .io import StandingsInput, format_standings, parse_standings_input, standings_to_dict
from .matches import MatchResult, match_result
from .rounds import DEFAULT_DISCS, Round, check_round, points_from_score
from .shootouts import SHOTS_PER_ENTRY, Shootout
from .standings import StandingRow, Standings, compute_standings
from .systems import SYSTEMS, GameState, ScoringSystem, get_system
from .tallies import Credit
from .tiebreaks import METHODS, STEPS, TiebreakStep, resolve_chain

__all__ = [
    "DEFAULT_DISCS",
    "GAME_ROUNDS",
    "METHODS",
    "SHOTS_PER_ENTRY",
    "STEPS",
    "SYSTEMS",
    "Credit",
    "EngineInputError",
    "Game",
    "GameState",
    "MatchResult",
    "Round",
    "ScoringSystem",
    "Shootout",
    "StandingRow",
    "Standings",
    "StandingsInput",
    "TiebreakStep",
    "check_game",
    "check_round",
    "compute_standings",
    "format_standings",
    "game_is_over",
    "get_system",
    "match_result",
    "needs_fifth_round",
    "parse_standings_input",
    "points_from_score",
    "resolve_chain",
    "standings_to_dict",
]
