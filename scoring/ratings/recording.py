"""A tournament game into the record: its ``RecordedGame``, kept equal to its official result.

A game of this app counts for ratings once its result is official: its rounds are the official
``Round`` rows, which the scorecard workflow writes when a row counts (verified at the scoring
table, or validated where the tournament counts validated cards: ``count_validated_cards``), and
which a ruling, a settled dispute or the head referee's change of a closed result rewrite. A
result withdrawn (a dispute opened, a card voided, a row reopened) deletes the rounds, and so the
recorded game. Only a finished game counts: the judge (``scoring.engine.judge``) must say it is
over under the category's rules.

What is recorded, and what is not:

- Only games scored 2-1-0 per round between two sides: the NCA system and first-to-N. The
  family rulebook's systems (a difference game to 100, match play to 8) and three-player games
  measure something else and are not recorded for ratings.
- A forfeited game (a walkover, or the head referee's ruling that a side forfeits the game) is
  not play and is not recorded; a round the head referee forfeited is recorded as the official
  2-0 it is (the official result is what the record keeps).
- A game played by the simulation (``Game.simulated``: auto-play, dry runs) is not a person's
  play, nor is a game of the demo tournament (``tournaments.demo``), whose people are made up.
- Only the games of a tournament the site's record keepers said counts (``Tournament.rated``):
  whoever may create a tournament could otherwise move real people's ratings with games nobody
  played. Saying so records its official games at once (``services.set_rated``).

Each side's players become registry people (``Player.person``); a player not yet linked is
linked here, to the person the registry finds for them or to a new one (``person_for``), so that
a verified game never waits for a record keeper.
"""

from __future__ import annotations

import enum
import logging
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from scoring.engine import EngineInputError, judge_game
from scoring.models.record import RecordedGame
from scoring.record.disciplines import category_discipline
from scoring.results.rules import ROUND_VALUES, game_rules, values_round
from tournaments.models import ENTRY_PEOPLE, Category, Entry, Game, Person, Player

log = logging.getLogger(__name__)

#: The scoring systems whose games are rated: 2-1-0 per round between two sides.
RATED_SYSTEMS = frozenset({Category.ScoringSystem.NCA, Category.ScoringSystem.FIRST_TO_N})

#: What a game's record reads, in one query.
_GAME_CONTEXT = ("match__stage__category__tournament", "match__pool")
#: Each entry's people's persons, by entry (one small query; the players themselves are read
#: only when one has no person yet, or a merged one).
_PEOPLE = (
    "pk",
    "player__person_id",
    "player__person__merged_into_id",
    "team__player_one__person_id",
    "team__player_one__person__merged_into_id",
    "team__player_two__person_id",
    "team__player_two__person__merged_into_id",
)


class Change(enum.Enum):
    """What recording a game did to the record."""

    CREATED = "created"
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    DELETED = "deleted"
    ABSENT = "absent"


@dataclass(frozen=True)
class Recorded:
    """The outcome of :func:`sync_game`: the recorded game (None when there is none now), what
    changed, and the discipline it counts (or counted) in."""

    game: RecordedGame | None
    change: Change
    discipline: str = ""


def key_of(game_id: int) -> str:
    return f"game:{game_id}"


def record_game(game: Game | int) -> RecordedGame | None:
    """The game's ``RecordedGame`` once its result is official and rated (created or brought
    up to date), or None when it is not (and any recorded one is deleted)."""
    return sync_game(game).game


def first_shooter(first_side: str, number: int) -> int:
    """The side (0 for A, 1 for B) that shoots first in round ``number`` (1-based): ``first_side``
    in round 1, and the players alternate starting each round (NCA 4b), so the other side holds
    the hammer."""
    first = 0 if first_side == Game.Side.A else 1
    return first ^ ((number - 1) % 2)


def sync_game(game: Game | int) -> Recorded:
    """Make the record agree with the game's official result; say what that changed."""
    game_id = game if isinstance(game, int) else game.pk
    key = key_of(game_id)
    # By primary key, without the models' default orderings (which would join the bracket).
    found = Game.objects.select_related(*_GAME_CONTEXT).filter(pk=game_id).order_by()
    found = next(iter(found), None)
    if found is not None and found.simulated:
        return Recorded(None, Change.ABSENT)  # the simulation's play: never recorded
    rounds = _official_rounds(found) if found is not None else None
    with transaction.atomic(savepoint=False):
        existing = next(
            iter(RecordedGame.objects.select_for_update().filter(key=key).order_by()), None
        )
        if rounds is None:
            if existing is None:
                return Recorded(None, Change.ABSENT)
            discipline = existing.discipline
            existing.delete()
            return Recorded(None, Change.DELETED, discipline)
        fields = _fields(found, rounds, existing)
        if existing is None:
            recorded = RecordedGame.objects.create(key=key, **fields)
            return Recorded(recorded, Change.CREATED, recorded.discipline)
        if all(getattr(existing, name) == value for name, value in _compared(fields).items()):
            return Recorded(existing, Change.UNCHANGED, existing.discipline)
        before = existing.discipline
        for name, value in fields.items():
            setattr(existing, name, value)
        existing.save()
        # A game that moved discipline (its category changed) leaves the old one to recompute.
        return Recorded(existing, Change.CHANGED, before if before != existing.discipline else "")


def _compared(fields: dict) -> dict:
    """The fields whose change changes the record (the game and tournament it links aside)."""
    return {name: value for name, value in fields.items() if name not in ("game", "tournament")}


def _official_rounds(game: Game) -> list[list[int]] | None:
    """The game's rounds as the record keeps them, ``[points_a, points_b, twenties_a,
    twenties_b, first]``; None when the game is not one the record rates now."""
    from tournaments.demo import DEMO_SLUG

    match = game.match
    category = match.stage.category
    tournament = category.tournament
    if game.simulated or game.forfeited_by or not tournament.rated or tournament.slug == DEMO_SLUG:
        return None
    if match.entry_b_id is None or match.entry_c_id is not None:
        return None
    if category.scoring_system not in RATED_SYSTEMS:
        return None
    stored = list(game.rounds.order_by("number").values_list("number", *ROUND_VALUES))
    if not stored:
        return None
    engine_rounds = [values_round(*values) for _number, *values in stored]
    try:
        if not judge_game(engine_rounds, game_rules(game)).over:
            return None  # a game still being played (or its official result cut short)
    except EngineInputError:
        log.warning("game %s: its official rounds do not make a game; not recorded", game.pk)
        return None
    return [
        [r.points[0], r.points[1], r.twenties[0], r.twenties[1], first_shooter(game.first_side, n)]
        for (n, *_values), r in zip(stored, engine_rounds, strict=True)
    ]


def _fields(game: Game, rounds: list[list[int]], existing: RecordedGame | None) -> dict:
    match = game.match
    stage = match.stage
    tournament = stage.category.tournament
    side_a, side_b = _people(match)
    played_on = existing.played_on if existing is not None else played_date(tournament)
    return {
        "game": game,
        "tournament": tournament,
        "discipline": str(category_discipline(stage.category)),
        "played_on": played_on,
        "event": tournament.name[:200],
        "stage": stage.name[:100],
        "pool": match.pool.name[:40] if match.pool_id else "",
        "number": game.number,
        # Games of one day in the order they became official: a game recorded now is the
        # newest of its day, which lets the ratings move by it alone.
        "sequence": existing.sequence if existing is not None else _now_sequence(),
        "person_a_id": side_a[0],
        "partner_a_id": side_a[1] if len(side_a) > 1 else None,
        "person_b_id": side_b[0],
        "partner_b_id": side_b[1] if len(side_b) > 1 else None,
        "rounds": rounds,
        "points_a": sum(r[0] for r in rounds),
        "points_b": sum(r[1] for r in rounds),
        "twenties_a": sum(r[2] for r in rounds),
        "twenties_b": sum(r[3] for r in rounds),
    }


def _people(match) -> tuple[list[int], list[int]]:
    """The person ids of each side's players (A, then B), linking a person to any player who has
    none yet (``person_of``)."""
    found = {
        row[0]: row[1:]
        for row in Entry.objects.filter(pk__in=[match.entry_a_id, match.entry_b_id])
        .order_by()
        .values_list(*_PEOPLE)
    }
    sides = []
    for entry_id in (match.entry_a_id, match.entry_b_id):
        single, single_merged, one, one_merged, two, two_merged = found[entry_id]
        pairs = [(single, single_merged)] if one is None else [(one, one_merged), (two, two_merged)]
        if (single is None and one is None) or any(
            person is None or merged is not None for person, merged in pairs
        ):
            # A player without a person, or a merged one: read the players and link them.
            entry = Entry.objects.select_related(*ENTRY_PEOPLE).get(pk=entry_id)
            sides.append([person_of(p).pk for p in entry.people])
        else:
            sides.append([person for person, _merged in pairs])
    return sides[0], sides[1]


def _now_sequence() -> int:
    return int(timezone.now().timestamp() * 1000)


def played_date(tournament) -> date:
    """The day a game is recorded as played: the day its result became official, within the
    tournament's dates (its first day when the event has no last day set)."""
    today = timezone.localdate()
    first, last = tournament.starts_on, tournament.ends_on or tournament.starts_on
    if first is not None and today < first:
        return first
    if last is not None and today > last:
        return last
    return today


def person_of(player: Player) -> Person:
    """The registry person of a tournament's player, linking one when the player has none yet:
    the person the registry finds for their name (and club), else a new one a record keeper can
    merge later. A person already linked to another player of the same tournament (two players
    of one name) is not theirs: a new person is made."""
    from tournaments.services import registry

    if player.person_id is not None:
        person = player.person
        return registry.kept(person) if person.merged_into_id else person
    names = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club or "",
        "country": player.country or "",
    }
    person, _created = registry.person_for(**names)
    try:
        registry.link_player(player=player, person=person)
    except ValidationError:
        person = registry.create_person(**names)
        registry.link_player(player=player, person=person)
    player.person = person
    return person
