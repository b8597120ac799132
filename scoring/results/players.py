"""A player's page: every game they play, singles and doubles, from their side of the board."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import pgettext

from scoring.results.outcomes import (
    SIDE_LETTERS,
    WALKOVER,
    GameScore,
    games_with_rounds,
    outcome_of,
)
from scoring.results.rules import unplayed_game
from scoring.standings.selectors import StandingLine, live_standings
from tournaments.models import ENTRY_PEOPLE, Entry, Game, Match, Player, Stage, Tournament
from tournaments.selectors import MATCH_RELATED


@dataclass(frozen=True)
class PlayerGame:
    """One game (or bye) of a player, from the player's side of the board.

    ``points`` and ``twenties`` hold the player's own figure first, then the others' in the
    match's order (both others in a three-player game); ``opponents`` are those others.
    """

    match: Match
    game: GameScore | None
    game_number: int
    opponents: tuple[Entry, ...]
    #: A key, never translated: "won", "lost", "tied", "to play", "in play", "not needed",
    #: "bye", "won (W/O)", "lost (W/O)"; :attr:`result_label` is what the page shows.
    result: str
    points: tuple[int, ...] | None
    twenties: tuple[int, ...] | None

    @property
    def result_label(self) -> str:
        """:attr:`result` in the visitor's language."""
        label = RESULT_LABELS.get(self.result)
        return label() if label else self.result

    @property
    def won(self) -> bool:
        return self.result in ("won", f"won ({WALKOVER})")

    @property
    def opponent(self) -> Entry | None:
        """The opponent (the first of the two others in a three-player game); None for a bye."""
        return self.opponents[0] if self.opponents else None


@dataclass
class PlayerPage:
    player: Player
    entries: list[Entry]
    games: list[PlayerGame]

    @property
    def next_game(self) -> PlayerGame | None:
        """What the player plays now or next: a game in play first, else the earliest one still
        to play (by start time where the schedule gives one, then round of play)."""
        keys = ("in play", "to play")  # untranslated: result keys
        waiting = [g for g in self.games if g.result in keys]
        if not waiting:
            return None
        in_play = [g for g in waiting if g.result == "in play"]  # untranslated: result keys
        if in_play:
            return in_play[0]
        return min(
            waiting,
            key=lambda g: (
                g.match.starts_at is None,
                g.match.starts_at or 0,
                g.match.stage.order,
                g.match.round_of_play,
                g.game_number,
            ),
        )

    @property
    def totals(self) -> tuple[int, int, int]:
        """Points, points against (both others' in a three-player game) and 20s in the games
        played (byes not included)."""
        played = [g for g in self.games if g.points is not None and g.result != "bye"]
        return (
            sum(g.points[0] for g in played),
            sum(sum(g.points[1:]) for g in played),
            sum(g.twenties[0] for g in played),
        )


def player_page(tournament: Tournament, number: int) -> PlayerPage | None:
    """The player with scorecard ID ``number`` and every game they play, singles and doubles,
    in the order of play (four queries); None when no such player is registered."""
    player = Player.objects.filter(tournament=tournament, number=number).first()
    if player is None:
        return None
    mine = Q(player=player) | Q(team__player_one=player) | Q(team__player_two=player)
    entries = list(Entry.objects.filter(mine).select_related("category", *ENTRY_PEOPLE))
    ids = [e.id for e in entries]
    matches = list(
        Match.objects.filter(Q(entry_a_id__in=ids) | Q(entry_b_id__in=ids) | Q(entry_c_id__in=ids))
        .select_related(*MATCH_RELATED)
        .order_by("stage__category__name", "stage__order", "round_of_play", "starts_at", "id")
    )
    totals = games_with_rounds(Game.objects.filter(match__in=[m.id for m in matches]))
    games = []
    for match in matches:
        at_board = match.entries
        side = next(i for i, entry in enumerate(at_board) if entry.id in ids)
        outcome = outcome_of(match, totals.get(match.id, ()))
        opponents = tuple(entry for i, entry in enumerate(at_board) if i != side)
        if outcome.bye:
            credit = unplayed_game(match.stage)
            games.append(
                PlayerGame(match, None, 1, (), "bye", (credit.winner, 0), (credit.twenties, 0))
            )
            continue
        numbers = {g.number: g for g in outcome.games}
        for number in range(1, match.best_of + 1):
            game = numbers.get(number)
            if game is None and (number > 1 and outcome.complete):
                continue  # a game the match did not need, and nobody created it
            games.append(_player_game(match, game, number, opponents, side, outcome.complete))
    return PlayerPage(player=player, entries=entries, games=games)


def _player_game(
    match: Match,
    game: GameScore | None,
    number: int,
    opponents: tuple[Entry, ...],
    side: int,
    decided: bool = False,
) -> PlayerGame:
    """One line of the player's page. A best-of match has all its games drawn up front; once
    ``decided`` (a side has won the majority: "best two out of three games"), a game nobody
    started is "not needed" rather than "to play"."""
    if game is None or not (game.rounds or game.walkover):
        result = "not needed" if decided else "to play"  # untranslated: result keys
        return PlayerGame(match, game, number, opponents, result, None, None)
    order = (side, *(i for i in range(len(game.points)) if i != side))
    points = tuple(game.points[i] for i in order)
    twenties = tuple(game.twenties[i] for i in order)
    if game.walkover:
        won = game.winner == SIDE_LETTERS[side]
        result = f"{'won' if won else 'lost'} ({WALKOVER})"
    elif not game.finished:
        result = "in play"  # untranslated: result keys
    elif game.winner is None:
        result = "tied"
    else:
        result = "won" if game.winner == SIDE_LETTERS[side] else "lost"
    return PlayerGame(match, game, number, opponents, result, points, twenties)


#: A game's result as the player's page prints it; the code compares the untranslated keys of
#: :attr:`PlayerGame.result`, the page shows these words in the visitor's language.
RESULT_LABELS = {
    "won": lambda: pgettext("game result", "won"),
    "lost": lambda: pgettext("game result", "lost"),
    "tied": lambda: pgettext("game result", "tied"),
    "to play": lambda: pgettext("game state", "to play"),  # untranslated: result keys
    "in play": lambda: pgettext("game state", "in play"),  # untranslated: result keys
    "not needed": lambda: pgettext("game result", "not needed"),  # untranslated: result keys
    "bye": lambda: pgettext("game state", "bye"),
    f"won ({WALKOVER})": lambda: pgettext("game result", "won (W/O)"),
    f"lost ({WALKOVER})": lambda: pgettext("game result", "lost (W/O)"),
}


#: The stages with a table of standings (a knockout shows its bracket; a shoot-out is part of
#: the stage whose tie it settles).
RANKED_KINDS = (Stage.Kind.PRELIMINARY, Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS)


@dataclass(frozen=True)
class PlayerStanding:
    stage: Stage
    line: StandingLine
    of: int


def player_standings(page: PlayerPage, version: int | None = None) -> list[PlayerStanding]:
    """Where the player's entries stand in each ranked stage they play in, read from the
    stages' standings as their pages show them (cached per live version, see
    :func:`scoring.standings.selectors.live_standings`)."""
    ids = {e.id for e in page.entries}
    stages = {g.match.stage_id: g.match.stage for g in page.games}
    found = []
    for stage in sorted(stages.values(), key=lambda s: (s.category_id, s.order)):
        if stage.kind not in RANKED_KINDS:
            continue
        standings = live_standings(stage, version)
        for line in standings.lines:
            if line.entry.id in ids:
                found.append(PlayerStanding(stage, line, len(standings.lines)))
    return found


def own_cards(user, page: PlayerPage) -> list[tuple[Stage, Entry]]:
    """The (stage, entry) of each of the player's scorecards, when ``user`` is this player:
    their own page links to the cards they fill."""
    if not user.is_authenticated or page.player.user_id != user.pk:
        return []
    entries = {e.id: e for e in page.entries}
    cards = {}
    for g in page.games:
        for entry in g.match.entries:
            if entry.id in entries:
                cards[(g.match.stage_id, entry.id)] = (g.match.stage, entries[entry.id])
    return list(cards.values())
