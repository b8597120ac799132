"""The record's public reads as JSON: a person's profile, a head-to-head, the leaderboards.

The same selectors as the pages (``scoring.record.profiles``) and the same choice of who sees
what: a name-only person's profile and head-to-head answer only their name (``private`` true,
with the page's words in ``detail``), except to the person themselves and the record keepers.
A merged duplicate answers as the person it was merged into (``person.id`` says who). Choices
in the query string are checked by the pages' forms, so a wrong one is refused in the pages'
words.

The serializers describe the answers for the schema; the views send the plain data built here
as it is (a career of hundreds of games went through nested serializers ten times slower), and
the schema fuzz test holds the answers to the shapes.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.views import refusals
from scoring.engine.record_stats import Summary
from scoring.models.record import Discipline
from scoring.record import profiles
from scoring.record.views import BoardQuery, ProfileQuery
from tournaments.models import Person

# Shapes ----------------------------------------------------------------------------------------


class RecordPersonRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    profile = serializers.BooleanField(
        help_text=gettext_lazy("Whether the person's profile is public (false: name only).")
    )


def pair_field(help_text: Any) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(), min_length=2, max_length=2, help_text=help_text
    )


class RecordTotalsSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    points = pair_field(gettext_lazy("Points: [for, against]."))
    twenties = pair_field(gettext_lazy("20s in all the games: [for, against]."))
    rounds = serializers.IntegerField(
        help_text=gettext_lazy(
            "Rounds listed and contested (a round that time ran out on before a disc was shot "
            "does not count)."
        )
    )
    rounds_won = serializers.IntegerField()
    rounds_tied = serializers.IntegerField()
    rounds_lost = serializers.IntegerField()
    twenties_per_round = serializers.FloatField(allow_null=True)
    rounds_with_hammer = serializers.IntegerField()
    won_with_hammer = serializers.IntegerField()
    rounds_without_hammer = serializers.IntegerField()
    won_without_hammer = serializers.IntegerField()
    won_hammer_unknown = serializers.IntegerField(
        help_text=gettext_lazy("Rounds won whose first shooter was not recorded.")
    )
    longest_streak = serializers.IntegerField(
        help_text=gettext_lazy("Most games won in a row (a draw ends a streak).")
    )


class RecordRoundSerializer(serializers.Serializer):
    points = pair_field(gettext_lazy("[for, against]"))
    twenties = pair_field(gettext_lazy("[for, against]"))
    hammer = serializers.BooleanField(
        allow_null=True, help_text=gettext_lazy("Had the hammer; null when not recorded.")
    )


class RecordGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    played_on = serializers.DateField()
    discipline = serializers.ChoiceField(choices=Discipline.choices)
    event = serializers.CharField()
    stage = serializers.CharField(allow_blank=True)
    pool = serializers.CharField(allow_blank=True)
    tournament = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("Slug of the app's tournament, when from one.")
    )
    partner = RecordPersonRefSerializer(allow_null=True)
    opponents = RecordPersonRefSerializer(many=True)
    outcome = serializers.ChoiceField(choices=["win", "draw", "loss"])
    points = pair_field(gettext_lazy("[for, against]"))
    twenties = pair_field(gettext_lazy("[for, against]"))
    rounds = RecordRoundSerializer(many=True)


class RecordDisciplineTotalsSerializer(serializers.Serializer):
    discipline = serializers.ChoiceField(choices=Discipline.choices)
    label = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    plusminus = serializers.IntegerField(allow_null=True)
    totals = RecordTotalsSerializer()


class RecordEventSerializer(serializers.Serializer):
    name = serializers.CharField()
    tournament = serializers.CharField(allow_null=True)
    first_day = serializers.DateField()
    last_day = serializers.DateField()
    last_stage = serializers.CharField(allow_blank=True)
    totals = RecordTotalsSerializer()


class RecordRatingPointSerializer(serializers.Serializer):
    played_on = serializers.DateField()
    rating = serializers.IntegerField()
    plusminus = serializers.IntegerField()


class RecordProfileSerializer(serializers.Serializer):
    person = RecordPersonRefSerializer()
    private = serializers.BooleanField(
        help_text=gettext_lazy("True when only the name may be shown; the lists are then empty.")
    )
    detail = serializers.CharField(allow_blank=True)
    discipline = serializers.ChoiceField(choices=Discipline.choices, allow_null=True)
    disciplines = RecordDisciplineTotalsSerializer(many=True)
    rating_history = RecordRatingPointSerializer(many=True)
    events = RecordEventSerializer(many=True)
    games = RecordGameSerializer(many=True)


class RecordSidesTotalsSerializer(serializers.Serializer):
    discipline = serializers.ChoiceField(choices=Discipline.choices, allow_null=True)
    person = RecordTotalsSerializer()
    other = RecordTotalsSerializer()


class RecordHeadToHeadSerializer(serializers.Serializer):
    person = RecordPersonRefSerializer()
    other = RecordPersonRefSerializer()
    private = serializers.BooleanField()
    detail = serializers.CharField(allow_blank=True)
    totals = RecordSidesTotalsSerializer(allow_null=True)
    by_discipline = RecordSidesTotalsSerializer(many=True)
    games = RecordGameSerializer(many=True, help_text=gettext_lazy("From the person's side."))


class RecordTwentiesLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    people = RecordPersonRefSerializer(many=True)
    opponents = RecordPersonRefSerializer(many=True)
    twenties = serializers.IntegerField()
    rounds = serializers.IntegerField()
    played_on = serializers.DateField()
    event = serializers.CharField()
    stage = serializers.CharField(allow_blank=True)
    tournament = serializers.CharField(allow_null=True)
    game = serializers.IntegerField()


class RecordRateLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    person = RecordPersonRefSerializer()
    twenties_per_round = serializers.FloatField()
    twenties = serializers.IntegerField()
    rounds = serializers.IntegerField()


class RecordStreakLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    person = RecordPersonRefSerializer()
    length = serializers.IntegerField()
    first_day = serializers.DateField()
    last_day = serializers.DateField()
    running = serializers.BooleanField(
        help_text=gettext_lazy(
            "Not ended within the games counted (still going, or to season end)."
        )
    )


class RecordLeaderboardsSerializer(serializers.Serializer):
    discipline = serializers.ChoiceField(choices=Discipline.choices)
    season = serializers.IntegerField(allow_null=True)
    seasons = serializers.ListField(child=serializers.IntegerField())
    min_rounds = serializers.IntegerField()
    most_twenties = RecordTwentiesLineSerializer(many=True)
    twenties_per_round = RecordRateLineSerializer(many=True)
    win_streaks = RecordStreakLineSerializer(many=True)


# Plain data for the shapes ---------------------------------------------------------------------


def person_ref(ref: profiles.PersonRef) -> dict[str, Any]:
    return {"id": ref.id, "name": ref.name, "profile": ref.public}


def totals(s: Summary) -> dict[str, Any]:
    return {
        "games": s.games,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "points": [s.points_for, s.points_against],
        "twenties": [s.twenties, s.twenties_against],
        "rounds": s.rounds,
        "rounds_won": s.rounds_won,
        "rounds_tied": s.rounds_tied,
        "rounds_lost": s.rounds_lost,
        "twenties_per_round": s.twenties_per_round,
        "rounds_with_hammer": s.hammer_rounds,
        "won_with_hammer": s.won_with_hammer,
        "rounds_without_hammer": s.no_hammer_rounds,
        "won_without_hammer": s.won_without_hammer,
        "won_hammer_unknown": s.won_hammer_unknown,
        "longest_streak": s.longest_streak,
    }


def game(row: profiles.GameRow) -> dict[str, Any]:
    g = row.game
    return {
        "id": row.id,
        "played_on": row.played_on,
        "discipline": row.discipline,
        "event": row.event,
        "stage": row.stage,
        "pool": row.pool,
        "tournament": row.tournament.slug if row.tournament else None,
        "partner": person_ref(row.partner) if row.partner else None,
        "opponents": [person_ref(o) for o in row.opponents],
        "outcome": row.outcome,
        "points": [g.points_for, g.points_against],
        "twenties": [g.twenties_for, g.twenties_against],
        "rounds": [
            {
                "points": [r.points_for, r.points_against],
                "twenties": [r.twenties_for, r.twenties_against],
                "hammer": r.hammer,
            }
            for r in g.rounds
        ],
    }


def private_words(person: Person) -> str:
    """The page's words for a person who keeps their profile private."""
    return gettext(
        "%(name)s keeps their profile private: the record shows only their name, in results."
    ) % {"name": person.full_name}


def profile_data(user, person: Person, discipline: str | None) -> dict[str, Any]:
    ref = person_ref(profiles.PersonRef.of(person))
    if not profiles.may_see_profile(user, person):
        return {
            "person": ref,
            "private": True,
            "detail": private_words(person),
            "discipline": None,
            "disciplines": [],
            "rating_history": [],
            "events": [],
            "games": [],
        }
    data = profiles.profile(person, discipline)
    return {
        "person": ref,
        "private": False,
        "detail": "",
        "discipline": data.discipline,
        "disciplines": [
            {
                "discipline": d.discipline,
                "label": d.label,
                "rating": d.rating[0] if d.rating else None,
                "plusminus": d.rating[1] if d.rating else None,
                "totals": totals(d.summary),
            }
            for d in data.disciplines
        ],
        "rating_history": [
            {"played_on": p.on, "rating": p.rating, "plusminus": p.plusminus}
            for p in data.rating_history
        ],
        "events": [
            {
                "name": e.name,
                "tournament": e.tournament.slug if e.tournament else None,
                "first_day": e.first_day,
                "last_day": e.last_day,
                "last_stage": e.last_stage,
                "totals": totals(e.summary),
            }
            for e in data.events
        ],
        "games": [game(row) for row in data.games],
    }


def head_to_head_data(user, person: Person, other: Person) -> dict[str, Any]:
    out: dict[str, Any] = {
        "person": person_ref(profiles.PersonRef.of(person)),
        "other": person_ref(profiles.PersonRef.of(other)),
        "private": False,
        "detail": "",
        "totals": None,
        "by_discipline": [],
        "games": [],
    }
    hidden = [p for p in (person, other) if not profiles.may_see_profile(user, p)]
    if hidden:
        out.update(private=True, detail=" ".join(private_words(p) for p in hidden))
        return out
    h2h = profiles.head_to_head(person, other)
    out.update(
        totals={"discipline": None, "person": totals(h2h.mine), "other": totals(h2h.theirs)},
        by_discipline=[
            {"discipline": value, "person": totals(mine), "other": totals(theirs)}
            for value, _label, mine, theirs in h2h.by_discipline
        ],
        games=[game(row) for row in h2h.games],
    )
    return out


def leaderboards_data(boards: profiles.Leaderboards) -> dict[str, Any]:
    return {
        "discipline": boards.discipline,
        "season": boards.season,
        "seasons": boards.seasons,
        "min_rounds": boards.min_rounds,
        "most_twenties": [
            {
                "rank": r.rank,
                "people": [person_ref(p) for p in r.people],
                "opponents": [person_ref(p) for p in r.opponents],
                "twenties": r.twenties,
                "rounds": r.rounds,
                "played_on": r.played_on,
                "event": r.event,
                "stage": r.stage,
                "tournament": r.tournament.slug if r.tournament else None,
                "game": r.game_id,
            }
            for r in boards.most_twenties
        ],
        "twenties_per_round": [
            {
                "rank": r.rank,
                "person": person_ref(r.person),
                "twenties_per_round": r.rate,
                "twenties": r.twenties,
                "rounds": r.rounds,
            }
            for r in boards.best_rates
        ],
        "win_streaks": [
            {
                "rank": r.rank,
                "person": person_ref(r.person),
                "length": r.length,
                "first_day": r.first_day,
                "last_day": r.last_day,
                "running": r.running,
            }
            for r in boards.streaks
        ],
    }


# Views -----------------------------------------------------------------------------------------


def _checked(form_class, request: Request) -> dict[str, Any]:
    """The query string through the page's form; a wrong value refused in the form's words."""
    form = form_class(request.query_params)
    if not form.is_valid():
        words = [
            f"{form.fields[name].label}: {message}" if name in form.fields else str(message)
            for name, messages in form.errors.items()
            for message in messages
        ]
        raise exceptions.ParseError(" ".join(words))
    return form.cleaned_data


DISCIPLINE = OpenApiParameter(
    "discipline",
    str,
    enum=Discipline.values,
    required=False,
    description=gettext_lazy(
        "Which discipline's events, games and rating history (by default the one played most)."
    ),
)
BOARD_DISCIPLINE = OpenApiParameter(
    "discipline",
    str,
    enum=Discipline.values,
    required=False,
    description=gettext_lazy("The discipline of the boards (singles by default)."),
)
SEASON = OpenApiParameter(
    "season",
    int,
    required=False,
    description=gettext_lazy("A season (calendar year); every season when left out."),
)


class PersonProfileView(APIView):
    """A person's record: totals per discipline, and for one discipline their events, games
    (newest first, with rounds) and rating over time. Public, unless the person chose to show
    only their name."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[DISCIPLINE], responses={200: RecordProfileSerializer, **refusals(400, 404)}
    )
    def get(self, request: Request, pk: int) -> Response:
        person = profiles.surviving(get_object_or_404(Person, pk=pk))
        discipline = _checked(ProfileQuery, request)["discipline"] or None
        return Response(profile_data(request.user, person, discipline))


class HeadToHeadView(APIView):
    """Every game between two people (opponents, not partners), from the first one's side, with
    both sides' totals."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RecordHeadToHeadSerializer, **refusals(400, 404)})
    def get(self, request: Request, pk: int, other: int) -> Response:
        person = profiles.surviving(get_object_or_404(Person, pk=pk))
        other_person = profiles.surviving(get_object_or_404(Person, pk=other))
        if person.pk == other_person.pk:
            raise exceptions.ParseError(gettext("A head-to-head needs two different people."))
        data = head_to_head_data(request.user, person, other_person)
        return Response(data)


class LeaderboardsView(APIView):
    """The leaderboards of a discipline, over every season or one: most 20s in a game, 20s per
    round (a minimum of rounds), longest win streaks; 20 places each."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[BOARD_DISCIPLINE, SEASON],
        responses={200: RecordLeaderboardsSerializer, **refusals(400)},
    )
    def get(self, request: Request) -> Response:
        query = _checked(BoardQuery, request)
        boards = profiles.leaderboards(
            query["discipline"] or Discipline.SINGLES.value, query["season"]
        )
        return Response(leaderboards_data(boards))
