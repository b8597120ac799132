"""An event's results in the Crokinole Reference layout, for the record keepers in one click.

Which games: every finished game of the event played between two sides and scored 2-1-0 per
round (the layout's only kind), from its official rounds
(``scoring.results.services.official_rounds``), judged over under its category's rules
(``scoring.results.rules.game_rules``). Left out: games still being played, forfeited games (a
walkover or a ruling of the whole game: no play to record), games played by the simulation, and
the family rulebook's systems and three-player games, which the layout cannot hold.

How a game is written (``scoring.engine.reference_csv`` reads it back the same):

- ``date``: the day its match was scheduled, else the tournament's first day, else the day the
  tournament was created;
- ``event``: the tournament's name, followed by the category's in brackets when the export holds
  more than one category ("Ontario Open (Cue Singles)");
- ``stage``: the stage's name, with " G<n>" after it for the games of a match of several games
  ("Final G2"), as the published files write a final; ``pool``: the pool's name, or the
  bracket's slot in a knockout;
- ``game``: the match's round of play (the published files number a preliminary's games so);
- ``player_a``/``player_b``: the entries' players as "First Last" (doubles: "First Last & First
  Last"); ``first_in_round_1``: the side that shot first in round 1 (``Game.first_side``).

Re-imported here, such a file's games get ``ref:`` keys, not the ``game:<id>`` keys the same
games have in the record already: they would count twice. The export is for other records.
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import EngineInputError, judge_row
from scoring.engine.reference_csv import ReferenceGame, join_name, write
from scoring.engine.rounds import TWO_ONE_ZERO
from scoring.results.rules import category_rules, game_rules
from scoring.results.services import official_rounds
from tournaments.models import Category, Entry, Game, Match, Tournament, people_paths
from tournaments.permissions import MANAGE_TOURNAMENT


def export_refusal(user, tournament: Tournament) -> str | None:
    """Who may download an event's results: anyone once the tournament is published (results
    are public), its organizers before. None when ``user`` may."""
    if tournament.published or user.has_perm(MANAGE_TOURNAMENT, tournament):
        return None
    return _(
        "This tournament is not published yet: its results are for its organizers until it is."
    )


def fits_layout(category: Category) -> bool:
    """Two sides and 2-1-0 points per round: what a line of the layout holds."""
    rules = category_rules(category)
    return rules.sides == 2 and rules.round_scoring == TWO_ONE_ZERO


def _side(entry: Entry) -> tuple[str, ...]:
    return tuple(join_name(p.first_name, p.last_name) for p in entry.people)


def _day(match: Match, tournament: Tournament):
    if match.starts_at is not None:
        return timezone.localtime(match.starts_at).date()
    if tournament.starts_on is not None:
        return tournament.starts_on
    return timezone.localtime(tournament.created_at).date()


def event_label(tournament_name: str, category_name: str, *, several: bool) -> str:
    """The layout's ``event`` of a category's games: the tournament, and the category when the
    file holds several."""
    label = f"{tournament_name} ({category_name})" if several else tournament_name
    return label[:200]


def stage_label(stage_name: str, game_number: int, *, several_games: bool) -> str:
    """The layout's ``stage``: the stage, with " G<n>" for a game of a match of several."""
    label = f"{stage_name} G{game_number}" if several_games else stage_name
    return label[:100]


def _game(game: Game, match: Match, event: str, tournament: Tournament) -> ReferenceGame | None:
    if game.forfeited_by or game.simulated:
        return None
    rounds = official_rounds(game)
    if not rounds:
        return None
    try:
        if not judge_row(rounds, game_rules(game)).over:
            return None
    except EngineInputError:
        return None  # official rounds that make no game: nothing a record could keep
    several = match.best_of > 1 or len(match.games.all()) > 1
    return ReferenceGame(
        played_on=_day(match, tournament),
        event=event,
        stage=stage_label(match.stage.name, game.number, several_games=several),
        pool=(match.pool.name if match.pool_id else match.bracket_slot)[:40],
        number=match.round_of_play,
        side_a=_side(match.entry_a),
        side_b=_side(match.entry_b),
        rounds=tuple(
            (r["points"][0], r["points"][1], r["twenties"][0], r["twenties"][1]) for r in rounds
        ),
        first=0 if game.first_side == Game.Side.A else 1,
    )


def event_games(tournament: Tournament) -> list[ReferenceGame]:
    """The event's finished games the layout holds, category by category, stage by stage, in
    the order of play."""
    categories = [c for c in tournament.categories.order_by("pk") if fits_layout(c)]
    games: list[ReferenceGame] = []
    for category in categories:
        event = event_label(tournament.name, category.name, several=len(categories) > 1)
        matches = (
            Match.objects.filter(
                stage__category=category, entry_b__isnull=False, entry_c__isnull=True
            )
            .select_related("stage__category", "pool", *people_paths("entry_a", "entry_b"))
            .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
            .order_by("stage__order", "stage_id", "round_of_play", "pool__name", "pk")
        )
        for match in matches:
            for game in match.games.all():
                found = _game(game, match, event, tournament)
                if found is not None:
                    games.append(found)
    return games


def event_csv(tournament: Tournament) -> str:
    """The event's results as a Crokinole Reference file."""
    return write(event_games(tournament))


def export_filename(tournament: Tournament) -> str:
    return f"{tournament.slug}-results-crokinole-reference.csv"
