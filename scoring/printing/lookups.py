"""Reads the print pages need: a tournament's stage, card or category by id, and what there is
to print (stages and their rounds of play). Unknown ids raise :class:`PrintError` with status 404
and a message naming what was not found in which tournament."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count
from django.utils.translation import gettext as _

from scoring.models import ScoreCard
from scoring.printing.errors import PrintError
from tournaments.models import Category, Match, Stage, Tournament
from tournaments.selectors import tournament_categories


@dataclass(frozen=True)
class RoundMenu:
    number: int
    matches: int


@dataclass(frozen=True)
class StageMenu:
    stage: Stage
    rounds: list[RoundMenu]

    @property
    def is_knockout(self) -> bool:
        return self.stage.kind == Stage.Kind.KNOCKOUT


@dataclass(frozen=True)
class CategoryMenu:
    category: Category
    stages: list[StageMenu]


def tournament_stage(tournament: Tournament, stage_id: int) -> Stage:
    stage = (
        Stage.objects.select_related("category__tournament")
        .filter(pk=stage_id, category__tournament=tournament)
        .first()
    )
    if stage is None:
        raise PrintError(
            _("%(tournament)s has no stage %(stage)s.")
            % {"tournament": tournament.name, "stage": stage_id},
            status=404,
        )
    return stage


def tournament_card(tournament: Tournament, card_id: int) -> ScoreCard:
    card = (
        ScoreCard.objects.select_related("stage__category__tournament")
        .filter(pk=card_id, stage__category__tournament=tournament)
        .first()
    )
    if card is None:
        raise PrintError(
            _("%(tournament)s has no scorecard %(card)s.")
            % {"tournament": tournament.name, "card": card_id},
            status=404,
        )
    return card


def tournament_category(tournament: Tournament, category_id: int | None) -> Category | None:
    if category_id is None:
        return None
    category = tournament.categories.filter(pk=category_id).first()
    if category is None:
        raise PrintError(
            _("%(tournament)s has no category %(category)s.")
            % {"tournament": tournament.name, "category": category_id},
            status=404,
        )
    return category


def require_round(stage: Stage, round_of_play: int) -> int:
    """The number of matches in the round of play; :class:`PrintError` (400) naming the rounds
    that have matches when this one has none."""
    counts = dict(
        Match.objects.filter(stage=stage)
        .values_list("round_of_play")
        .annotate(n=Count("id"))
        .values_list("round_of_play", "n")
    )
    if counts.get(round_of_play):
        return counts[round_of_play]
    raise PrintError(no_matches_message(stage, round_of_play, sorted(counts)))


def no_matches_message(stage: Stage, round_of_play: int, drawn: list[int]) -> str:
    known = (
        _("rounds of play with matches: %(rounds)s") % {"rounds": ", ".join(map(str, drawn))}
        if drawn
        else _("nothing is drawn in this stage yet")
    )
    return _("%(category)s, %(stage)s: round of play %(round)s has no matches (%(known)s).") % {
        "category": stage.category.name,
        "stage": stage.name,
        "round": round_of_play,
        "known": known,
    }


def print_menu(tournament: Tournament) -> list[CategoryMenu]:
    """Every category and stage of the tournament with its rounds of play and their match
    counts (three queries, however many stages and rounds)."""
    counts: dict[int, list[RoundMenu]] = {}
    rows = (
        Match.objects.filter(stage__category__tournament=tournament)
        .values_list("stage_id", "round_of_play")
        .annotate(n=Count("id"))
        .order_by("stage_id", "round_of_play")
    )
    for stage_id, number, n in rows:
        counts.setdefault(stage_id, []).append(RoundMenu(number=number, matches=n))
    return [
        CategoryMenu(
            category=category,
            stages=[
                StageMenu(stage=stage, rounds=counts.get(stage.id, []))
                for stage in category.stages.all()
            ],
        )
        for category in tournament_categories(tournament)
    ]
