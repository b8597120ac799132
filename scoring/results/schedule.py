"""The board list of a round of play and the hall screen: each match with its result so far."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from django.utils.translation import gettext, pgettext

from scoring.engine import UnplayedGame
from scoring.results.outcomes import GameScore, MatchOutcome, match_outcomes, walkover_mark
from scoring.results.rules import unplayed_game
from tournaments.models import Game, Match, Stage, Tournament
from tournaments.selectors import MATCH_RELATED

DASH = "\u2013"  # the en dash of a printed score

#: A row's state as the pages print it; the code compares the untranslated keys of
#: :attr:`ScheduleRow.state`, the pages show these words in the visitor's language.
STATE_LABELS = {
    "bye": lambda: pgettext("game state", "bye"),
    "walkover": lambda: pgettext("game state", "walkover"),
    "finished": lambda: pgettext("game state", "finished"),
    "in play": lambda: pgettext("game state", "in play"),  # untranslated: state keys
    "to play": lambda: pgettext("game state", "to play"),  # untranslated: state keys
}


def _dashed(figures: Sequence[int]) -> str:
    """A figure per side joined by en dashes: "8-4", or "8-4-3" for three players."""
    return DASH.join(str(f) for f in figures)


@dataclass(frozen=True)
class ScheduleRow:
    """One match of a round of play as the board list prints it."""

    match: Match
    outcome: MatchOutcome
    slot: int
    #: Where a board carries several games in the round, this game's place in the board's
    #: queue of games not finished: 1 is on the board now, 2 next, and so on; 0 where the board
    #: has this game alone, or the game is finished (see :attr:`call`).
    call_place: int = 0

    @property
    def board(self) -> int | None:
        return self.match.board.number if self.match.board_id else None

    @property
    def starts_at(self) -> datetime | None:
        return self.match.starts_at

    @property
    def call(self) -> str:
        """When the game is called, in words: "on board 7 now", "next on board 7", "3rd on
        board 7"; empty where the board has this game alone."""
        number = self.board
        if not self.call_place or number is None:
            return ""
        if self.call_place == 1:
            return gettext("on board %(board)s now") % {"board": number}
        if self.call_place == 2:
            return gettext("next on board %(board)s") % {"board": number}
        return gettext("%(place)s on board %(board)s") % {
            "place": _ordinal(self.call_place),
            "board": number,
        }

    @property
    def state(self) -> str:
        """One of: bye, to play, in play, finished, walkover (decided by forfeit, unplayed)."""
        if self.outcome.bye:
            return "bye"
        if self.outcome.by_walkover:
            return "walkover"
        if self.outcome.complete:
            return "finished"
        return "in play" if self.outcome.started else "to play"  # untranslated: state keys

    @property
    def state_label(self) -> str:
        """:attr:`state` in the visitor's language."""
        label = STATE_LABELS.get(self.state)
        return label() if label else self.state

    @property
    def winner(self) -> str | None:
        return self.outcome.winner if self.outcome.complete else None

    @property
    def result(self) -> str:
        """Points so far, e.g. 8-0 (8-4-3 in a three-player game, entry A first); in a best-of-N
        the games won and each game's points; in a fixed match, which the points decide, the
        points over its games so far and each game's points."""
        played = [g for g in self.outcome.games if g.rounds or g.walkover]
        if self.outcome.bye or not played:
            return ""
        if self.match.best_of == 1:
            return _game_result(played[0])
        games = ", ".join(_game_result(g) for g in played)
        if self.match.stage.fixed_match:
            return f"{_dashed(self.outcome.points)} ({games})"
        return f"{_dashed(self.outcome.wins)} ({games})"

    @property
    def forfeits(self) -> list[str]:
        """The forfeits of the match in words ("Walkover (withdrawal)", "Forfeit (head
        referee): <reason>"), each once."""
        return list(dict.fromkeys(g.label for g in self.outcome.games if g.walkover and g.label))


def _game_result(game: GameScore) -> str:
    """A game's points, e.g. 8-0; a game won by forfeit: "W/O 8-0" (the bye score)."""
    if game.walkover:
        return f"{walkover_mark()} {_dashed(game.points)}"
    return _dashed(game.points)


@dataclass
class RoundSchedule:
    """The matches of one round of play of a stage, by board."""

    stage: Stage
    round_of_play: int
    rows: list[ScheduleRow]
    rounds: list[int] = field(default_factory=list)

    @property
    def byes(self) -> list[ScheduleRow]:
        return [r for r in self.rows if r.outcome.bye]

    @property
    def bye_credit(self) -> UnplayedGame:
        """What each bye of the round credits under the category's scoring system."""
        return unplayed_game(self.stage)

    @property
    def games(self) -> list[ScheduleRow]:
        return [r for r in self.rows if not r.outcome.bye]

    @property
    def finished(self) -> bool:
        return all(r.outcome.complete for r in self.rows)

    @property
    def three(self) -> bool:
        """Whether the round has games of three players (the board list adds their column)."""
        return any(r.match.entry_c_id is not None for r in self.rows)


def _rows(matches: Iterable[Match], outcomes: dict[int, MatchOutcome]) -> list[ScheduleRow]:
    """Rows by board; a board with more games than one in the round is played in time slots."""
    on_board: dict[int, int] = defaultdict(int)
    rows = []
    ordered = sorted(
        matches,
        key=lambda m: (
            m.board is None,
            m.board.number if m.board else 0,
            m.starts_at is None,
            m.starts_at or datetime.min,
            m.id,
        ),
    )
    for match in ordered:
        slot = 1
        if match.board_id:
            on_board[match.board_id] += 1
            slot = on_board[match.board_id]
        rows.append(ScheduleRow(match=match, outcome=outcomes[match.id], slot=slot))
    return _called(rows)


def _called(rows: list[ScheduleRow]) -> list[ScheduleRow]:
    """Boards called in order: on a board with several games in the round, the first game not
    finished is on it now, the one after is next, and so on (finished games keep no call)."""
    waiting: dict[int, list[int]] = defaultdict(list)
    shared = defaultdict(int)
    for index, row in enumerate(rows):
        if row.match.board_id:
            shared[row.match.board_id] += 1
            if row.state in ("to play", "in play"):  # untranslated: state keys
                waiting[row.match.board_id].append(index)
    out = list(rows)
    for board, indexes in waiting.items():
        if shared[board] < 2:
            continue
        for place, index in enumerate(indexes):
            out[index] = replace(rows[index], call_place=place + 1)
    return out


def _ordinal(n: int) -> str:
    """A place in a queue, from the 3rd on: "3rd", "11th", "22nd" ("3e", "11e" in French)."""
    if 10 <= n % 100 <= 20:
        return gettext("%(n)sth") % {"n": n}
    template = {1: gettext("%(n)sst"), 2: gettext("%(n)snd"), 3: gettext("%(n)srd")}.get(
        n % 10, gettext("%(n)sth")
    )
    return template % {"n": n}


def round_schedule(stage: Stage, round_of_play: int) -> RoundSchedule:
    """One round of play of the stage, by board (three queries)."""
    matches = list(
        Match.objects.filter(stage=stage, round_of_play=round_of_play).select_related(
            *MATCH_RELATED
        )
    )
    outcomes = match_outcomes(
        matches, Game.objects.filter(match__stage=stage, match__round_of_play=round_of_play)
    )
    rounds = sorted(set(Match.objects.filter(stage=stage).values_list("round_of_play", flat=True)))
    return RoundSchedule(stage, round_of_play, _rows(matches, outcomes), rounds)


def now_playing(tournament: Tournament) -> list[RoundSchedule]:
    """What the hall screen shows: per stage in play, its current round (the first with a match
    still to finish); for a knockout, every match still to finish (three queries)."""
    matches = list(
        Match.objects.filter(stage__category__tournament=tournament).select_related(*MATCH_RELATED)
    )
    outcomes = match_outcomes(matches, Game.objects.filter(match__in=_ids(matches)))
    by_stage: dict[int, list[Match]] = defaultdict(list)
    for match in matches:
        by_stage[match.stage_id].append(match)
    screens = []
    for stage_matches_ in by_stage.values():
        open_ = [m for m in stage_matches_ if not outcomes[m.id].complete]
        if not open_:
            continue
        stage = open_[0].stage
        if stage.kind == Stage.Kind.KNOCKOUT:
            shown, current = open_, min(m.round_of_play for m in open_)
        else:
            current = min(m.round_of_play for m in open_)
            shown = [m for m in stage_matches_ if m.round_of_play == current]
        rounds = sorted({m.round_of_play for m in stage_matches_})
        screens.append(RoundSchedule(stage, current, _rows(shown, outcomes), rounds))
    screens.sort(key=lambda s: (s.stage.category.name, s.stage.order))
    return screens


def _ids(matches: Sequence[Match]) -> list[int]:
    return [m.id for m in matches]
