"""factory-boy factories for the tournament data model."""

import factory

from tournaments import models


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Tournament

    name = factory.Sequence(lambda n: f"Open {n}")
    slug = factory.Sequence(lambda n: f"open-{n}")


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Category

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Singles {n}")
    discs_per_player = 8


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    tournament = factory.SubFactory(TournamentFactory)
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    number = factory.Sequence(lambda n: 100 + n)
    club = "Tavistock"


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Entry

    category = factory.SubFactory(CategoryFactory)
    player = factory.SubFactory(
        PlayerFactory, tournament=factory.SelfAttribute("..category.tournament")
    )


class StageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Stage

    category = factory.SubFactory(CategoryFactory)
    name = "Preliminary"
    kind = models.Stage.Kind.PRELIMINARY
    order = factory.Sequence(lambda n: n + 1)


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Match

    stage = factory.SubFactory(StageFactory)
    entry_a = factory.SubFactory(EntryFactory, category=factory.SelfAttribute("..stage.category"))
    entry_b = factory.SubFactory(EntryFactory, category=factory.SelfAttribute("..stage.category"))


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Game

    match = factory.SubFactory(MatchFactory)
    number = 1
