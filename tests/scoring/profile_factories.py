"""Factories of the record's rows for the profile and leaderboard tests: people, recorded games
with their rounds, rating points. Rows are made directly, as the importer and the verified games
would leave them (those are other parts' work; these tests only read the record)."""

from __future__ import annotations

from datetime import date, timedelta

import factory

from scoring.models.record import Discipline, RatingPoint, RecordedGame
from tournaments.models import Person


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Person

    first_name = factory.Sequence(lambda n: f"Anna{n}")
    last_name = factory.Sequence(lambda n: f"Martin{n}")


def rounds_of(*lines: tuple) -> list[list]:
    """Rounds as the record stores them:
    ``(points_a, points_b, twenties_a, twenties_b[, first])``."""
    return [list(line) for line in lines]


#: A 6-2 win of side A: three rounds won, one lost, 20s 7-3; side B shot first in rounds 1 and 3
#: (so A had the hammer there), A first in rounds 2 and 4.
WIN_A = rounds_of((2, 0, 3, 1, 1), (2, 0, 2, 0, 0), (2, 0, 2, 0, 1), (0, 2, 0, 2, 0))


class RecordedGameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RecordedGame

    key = factory.Sequence(lambda n: f"test:{n}")
    discipline = Discipline.SINGLES
    played_on = factory.Sequence(lambda n: date(2015, 1, 1) + timedelta(days=n))
    sequence = factory.Sequence(lambda n: n)
    event = "Club night"
    stage = "Round robin"
    person_a = factory.SubFactory(PersonFactory)
    person_b = factory.SubFactory(PersonFactory)
    rounds = factory.LazyFunction(lambda: [list(r) for r in WIN_A])
    points_a = factory.LazyAttribute(lambda g: sum(r[0] for r in g.rounds))
    points_b = factory.LazyAttribute(lambda g: sum(r[1] for r in g.rounds))
    twenties_a = factory.LazyAttribute(lambda g: sum(r[2] for r in g.rounds))
    twenties_b = factory.LazyAttribute(lambda g: sum(r[3] for r in g.rounds))


class RatingPointFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RatingPoint

    person = factory.SubFactory(PersonFactory)
    discipline = Discipline.SINGLES
    game = factory.SubFactory(RecordedGameFactory, person_a=factory.SelfAttribute("..person"))
    played_on = factory.LazyAttribute(lambda p: p.game.played_on)
    mu = 25.0
    sigma = 25.0 / 3


def game(a: Person, b: Person, lines=None, **fields) -> RecordedGame:
    """A game of ``a`` against ``b`` with these rounds (a 6-2 win of ``a`` by default)."""
    if lines is not None:
        fields["rounds"] = rounds_of(*lines)
    return RecordedGameFactory(person_a=a, person_b=b, **fields)
