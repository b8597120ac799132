"""Reads for the ruling pages: a game with its official rounds and rulings, the forfeits and
withdrawals of a tournament, and the rulings a card shows beside its rows."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, QuerySet, Subquery

from tournaments.models import ENTRY_PEOPLE, Entry, Game, Round, Tournament, people_paths
from tournaments.names import entry_key

GAME_JOINS = (
    "match__stage__category__tournament",
    "match__board",
    "forfeit_ruled_by",
    *people_paths("match__entry_a", "match__entry_b", "match__entry_c"),
)


@dataclass(frozen=True)
class GameRulings:
    """A game as the head referee rules on it: its official rounds (with the rounds already
    forfeited). What may be ruled on it is the steps' to say (``scoring.rulings.actions``)."""

    game: Game
    rounds: list[Round]

    @property
    def forfeited_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.forfeited_by]

    def entry_of(self, side: str) -> Entry:
        match = self.game.match
        return match.entry_a if side == Game.Side.A else match.entry_b


def game_of(tournament: Tournament, game_id: int) -> Game:
    """A game of the tournament with what its page prints (raises ``Game.DoesNotExist``)."""
    return Game.objects.select_related(*GAME_JOINS).get(
        pk=game_id, match__stage__category__tournament=tournament
    )


def game_rulings(game: Game) -> GameRulings:
    """The game's official rounds (one query)."""
    return GameRulings(game, list(game.rounds.order_by("number")))


@dataclass(frozen=True)
class TournamentRulings:
    """Everything ruled at a tournament so far: entries withdrawn or disqualified, games
    forfeited (walkovers and rulings), rounds forfeited."""

    entries: list[Entry]
    games: list[Game]
    rounds: list[Round]


def tournament_rulings(tournament: Tournament) -> TournamentRulings:
    """Three queries."""
    entries = sorted(
        Entry.objects.filter(category__tournament=tournament, withdrawn=True).select_related(
            "category", *ENTRY_PEOPLE
        ),
        key=lambda entry: (entry.category.name, entry_key(entry)),
    )
    games = list(
        Game.objects.filter(match__stage__category__tournament=tournament)
        .exclude(forfeited_by="")
        .select_related(*GAME_JOINS)
        .order_by("match__stage__category__name", "match__stage__order", "match__round_of_play")
    )
    rounds = list(
        Round.objects.filter(game__match__stage__category__tournament=tournament)
        .exclude(forfeited_by="")
        .select_related(*(f"game__{j}" for j in GAME_JOINS))
        .order_by("game__match__stage__order", "game__match__round_of_play", "number")
    )
    return TournamentRulings(entries, games, rounds)


def with_round_rulings(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games with the head referee's round forfeit annotated (the first, if any): the
    round's number, the side that forfeits it and why, so that a card shows the ruling beside
    its row without a query per game (``ruled_round``, ``ruled_round_side``,
    ``ruled_round_reason``; None when no round was forfeited)."""
    ruled = Round.objects.filter(game=OuterRef("pk")).exclude(forfeited_by="").order_by("number")
    return games.annotate(
        ruled_round=Subquery(ruled.values("number")[:1]),
        ruled_round_side=Subquery(ruled.values("forfeited_by")[:1]),
        ruled_round_reason=Subquery(ruled.values("forfeit_reason")[:1]),
    )
