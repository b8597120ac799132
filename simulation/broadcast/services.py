"""Writes of the broadcast kit: the organizer's stream queue and the scorer's rounds.

The live score of a featured match is what a staff scorer types at the board, round by round,
for the stream and the win chance; the official result stays the verified scorecard. Each
change bumps the ``version`` of the featured matches it touches to one more than the
tournament's highest, so that the overlay's stream (``simulation.broadcast.events``) sees any
change of the tournament's queue as one number moving.

A round is checked by the scoring engine as a scorecard's round is (2-0, 1-1, 0-2, or 0-0 for a
round time ran out on; 20s from 0 to the discs a side shoots), and the engine says when a game
is over (4 rounds, a deciding round while a championship game is tied). The hammer follows from
who shot first in the game: the sides alternate each round (NCA 4b) and each game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from scoring.engine import GameRules
from scoring.engine.errors import EngineInputError
from scoring.engine.judge import judge_game, read_rounds, wins_needed
from scoring.results.rules import category_rules
from simulation.models import FeaturedMatch, LiveRound
from simulation.rules.seats import game_first_seat, hammer_seat, round_first_seat
from tournaments.actions import Refused
from tournaments.models import Game, Match, Tournament

#: The two sides of a singles board as seats (a doubles team shoots from two seats, but the
#: sides still alternate as these two do: NCA 5b).
SIDE_SEATS = {0: 0, 1: 1}
SIDES = ("a", "b")


# --- the queue -----------------------------------------------------------------------------


def stream_version(tournament_id: int) -> int:
    """One number that moves with any change of the tournament's queue or live score: the
    highest of its featured matches' versions (the feed, the stream and each write read it)."""
    found = FeaturedMatch.objects.filter(tournament_id=tournament_id).aggregate(top=Max("version"))
    return found["top"] or 0


def _bump(featured: list[FeaturedMatch], floor: int = 0) -> None:
    """Give each of ``featured`` a version above every other of its tournament's (and above
    ``floor``: the version of a row just removed, so that the number never goes back)."""
    if not featured:
        return
    top = max(stream_version(featured[0].tournament_id), floor)
    for step, item in enumerate(featured, 1):
        item.version = top + step
        FeaturedMatch.objects.filter(pk=item.pk).update(version=item.version)


def _settle(tournament_id: int, floor: int = 0) -> list[FeaturedMatch]:
    """Number the queue 1, 2, ... in its order and put the first match not finished on air;
    the rows whose position or state moved get a new version."""
    items = list(FeaturedMatch.objects.select_for_update().filter(tournament_id=tournament_id))
    changed = []
    on_air_found = False
    for position, item in enumerate(items, 1):
        state = item.state
        if state != FeaturedMatch.State.FINISHED:
            state = FeaturedMatch.State.QUEUED if on_air_found else FeaturedMatch.State.LIVE
            on_air_found = True
        if (item.position, item.state) != (position, state):
            item.position, item.state = position, state
            FeaturedMatch.objects.filter(pk=item.pk).update(position=position, state=state)
            changed.append(item)
    if not changed and items:
        changed = items[:1]  # a removal changes nothing here but must still move the version
    _bump(changed, floor)
    return items


@transaction.atomic
def add_to_queue(tournament: Tournament, match: Match, user: Any) -> FeaturedMatch:
    """Feature ``match`` at the end of the tournament's queue."""
    if match.stage.category.tournament_id != tournament.pk:
        raise Refused(_("That match is not one of this tournament's."), field="match")
    if match.entry_b_id is None:
        raise Refused(_("A bye is not played: there is nothing to feature."), field="match")
    if match.entry_c_id is not None:
        raise Refused(
            _("The three-player game cannot be featured: the overlay shows two sides."),
            field="match",
        )
    if FeaturedMatch.objects.filter(match=match).exists():
        raise Refused(_("That match is in the stream queue already."), field="match")
    top = FeaturedMatch.objects.filter(tournament=tournament).aggregate(top=Max("position"))
    featured = FeaturedMatch.objects.create(
        tournament=tournament, match=match, position=(top["top"] or 0) + 1, added_by=user
    )
    _settle(tournament.pk)
    featured.refresh_from_db()
    return featured


@transaction.atomic
def remove_from_queue(featured: FeaturedMatch) -> None:
    """Take a match off the queue (its live rounds go with it; the scorecard is untouched)."""
    tournament_id = featured.tournament_id
    list(FeaturedMatch.objects.select_for_update().filter(tournament_id=tournament_id))
    floor = stream_version(tournament_id)
    FeaturedMatch.objects.filter(pk=featured.pk).delete()
    _settle(tournament_id, floor)


MOVES = ("up", "down", "on_air")


@transaction.atomic
def move_in_queue(featured: FeaturedMatch, move: str) -> FeaturedMatch:
    """Move a match one place up or down, or put it on air (first of the matches not
    finished)."""
    if move not in MOVES:
        raise Refused(
            _("Move must be one of %(moves)s, not %(move)r.")
            % {"moves": ", ".join(MOVES), "move": move},
            field="move",
        )
    items = list(
        FeaturedMatch.objects.select_for_update().filter(tournament_id=featured.tournament_id)
    )
    index = next(i for i, item in enumerate(items) if item.pk == featured.pk)
    item = items.pop(index)
    if move == "up":
        items.insert(max(0, index - 1), item)
    elif move == "down":
        items.insert(min(len(items), index + 1), item)
    else:
        if item.state == FeaturedMatch.State.FINISHED:
            raise Refused(_("That match is finished: it cannot go on air again."), field="move")
        first_open = next(
            (i for i, x in enumerate(items) if x.state != FeaturedMatch.State.FINISHED),
            len(items),
        )
        items.insert(first_open, item)
    for position, x in enumerate(items, 1):
        FeaturedMatch.objects.filter(pk=x.pk).update(position=position)
    _settle(featured.tournament_id)
    featured.refresh_from_db()
    return featured


# --- the rounds ----------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveGame:
    """One game of a featured match as the live rounds stand."""

    number: int
    rounds: list[LiveRound]
    points: tuple[int, ...]
    twenties: tuple[int, ...]
    over: bool
    winner: int | None
    playoff: bool
    next_hammer: str


def game_row(match: Match, number: int) -> Game | None:
    return next((g for g in match.games.all() if g.number == number), None)


def is_playoff(match: Match, number: int) -> bool:
    """A championship game (a tie goes on to deciding rounds): the game's own flag, or the
    match's first game's where that game is not drawn yet."""
    game = game_row(match, number) or game_row(match, 1)
    return bool(game and game.is_playoff)


def rules_of(match: Match, number: int) -> GameRules:
    return category_rules(match.stage.category, playoff=is_playoff(match, number))


def hammer_of(match: Match, game_number: int, round_number: int) -> str:
    """Who shoots last in a round: the other side of who shoots first, who alternate each
    round and each game from the first game's first side (NCA 4b, 5b)."""
    first = game_row(match, 1)
    match_first = 1 if first is not None and first.first_side == Game.Side.B else 0
    opener = game_first_seat(SIDE_SEATS, match_first, game_number - 1)
    shooter = round_first_seat(SIDE_SEATS, opener, round_number - 1)
    return SIDES[hammer_seat(SIDE_SEATS, shooter)]


def _round_data(r: LiveRound) -> dict[str, Any]:
    expired = (r.points_a, r.points_b) == (0, 0)
    return {
        "points": [r.points_a, r.points_b],
        "twenties": [r.twenties_a, r.twenties_b],
        "score": None,
        "time_expired": expired,
    }


def live_games(featured: FeaturedMatch, rounds: list[LiveRound] | None = None) -> list[LiveGame]:
    """The games of a featured match as its live rounds stand, each judged by the engine; the
    game being played last (an empty one once the previous is over and the match is not)."""
    match = featured.match
    rounds = list(featured.rounds.all()) if rounds is None else rounds
    numbers = sorted({r.game_number for r in rounds}) or [1]
    games = []
    for number in numbers:
        own = [r for r in rounds if r.game_number == number]
        rules = rules_of(match, number)
        verdict = judge_game(read_rounds([_round_data(r) for r in own], rules), rules)
        games.append(
            LiveGame(
                number,
                own,
                verdict.points,
                verdict.twenties,
                verdict.over,
                verdict.winner,
                rules.playoff,
                hammer_of(match, number, len(own) + 1),
            )
        )
    last = games[-1]
    if last.over and not match_over(games, match.best_of):
        number = last.number + 1
        games.append(
            LiveGame(
                number,
                [],
                (0, 0),
                (0, 0),
                False,
                None,
                is_playoff(match, number),
                hammer_of(match, number, 1),
            )
        )
    return games


def games_won(games: list[LiveGame]) -> tuple[int, int]:
    return (
        sum(1 for g in games if g.over and g.winner == 0),
        sum(1 for g in games if g.over and g.winner == 1),
    )


def match_over(games: list[LiveGame], best_of: int) -> bool:
    """A side has won a majority of the games, or every game of the match was played."""
    won = games_won(games)
    played = sum(1 for g in games if g.over)
    return max(won) >= wins_needed(best_of) or played >= best_of


def _locked(featured: FeaturedMatch) -> FeaturedMatch:
    return (
        FeaturedMatch.objects.select_for_update()
        .select_related("match__stage__category", "tournament")
        .get(pk=featured.pk)
    )


@transaction.atomic
def enter_round(
    featured: FeaturedMatch,
    user: Any,
    *,
    points_a: int,
    points_b: int,
    twenties_a: int = 0,
    twenties_b: int = 0,
    time_expired: bool = False,
) -> LiveRound:
    """Record the next round of the featured match's game in play, checked by the engine."""
    featured = _locked(featured)
    if featured.state == FeaturedMatch.State.FINISHED:
        raise Refused(_("This match is over: undo its last round to correct it."))
    games = live_games(featured)
    game = games[-1]
    if game.over:
        raise Refused(_("This match is over: undo its last round to correct it."))
    number = len(game.rounds) + 1
    data = {
        "points": [0, 0] if time_expired else [points_a, points_b],
        "twenties": [0, 0] if time_expired else [twenties_a, twenties_b],
        "score": None,
        "time_expired": bool(time_expired),
    }
    if data["points"] == [0, 0] and not time_expired:
        raise Refused(
            _(
                "Game %(game)s, round %(number)s: 0-0 is only for a round that time ran out on: "
                "mark it as such."
            )
            % {"game": game.number, "number": number},
            field="points",
            round=number,
        )
    rules = rules_of(featured.match, game.number)
    try:
        read_rounds([*[_round_data(r) for r in game.rounds], data], rules)
    except EngineInputError as error:
        raise Refused(
            _("Game %(game)s, %(error)s") % {"game": game.number, "error": error},
            round=number,
        ) from None
    pa, pb = data["points"]
    ta, tb = data["twenties"]
    live = LiveRound.objects.create(
        featured=featured,
        game_number=game.number,
        number=number,
        points_a=pa,
        points_b=pb,
        twenties_a=ta,
        twenties_b=tb,
        hammer=game.next_hammer,
        entered_by=user if getattr(user, "is_authenticated", False) else None,
    )
    after = live_games(featured)
    if match_over(after, featured.match.best_of):
        featured.state = FeaturedMatch.State.FINISHED
        FeaturedMatch.objects.filter(pk=featured.pk).update(state=featured.state)
        _settle(featured.tournament_id)
    _bump([featured])
    return live


@transaction.atomic
def undo_last_round(featured: FeaturedMatch, user: Any) -> LiveRound:
    """Take back the last round entered (to correct it: enter it again), reopening a match
    that round had ended."""
    featured = _locked(featured)
    last = featured.rounds.order_by("-game_number", "-number").first()
    if last is None:
        raise Refused(_("No round has been entered yet: there is nothing to undo."))
    last.delete()
    if featured.state == FeaturedMatch.State.FINISHED:
        FeaturedMatch.objects.filter(pk=featured.pk).update(state=FeaturedMatch.State.QUEUED)
        featured.state = FeaturedMatch.State.QUEUED
        _settle(featured.tournament_id)
    _bump([featured])
    return last
