"""factory-boy factories: one for every model of the three apps (and for users).

Each factory builds the smallest valid row and the rows it needs, consistently: an entry's player
belongs to the entry's category's tournament, a match's entries to its stage's category, a card
row's game is a game of the card's entry. Pass what a test is about and let the rest default;
``tests.conftest.small_event`` builds a whole small event with every role on top of these.

Users get an unusable password unless one is given (hashing a password on purpose is slow, and
most tests log in with ``client.force_login``).
"""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth.models import User

from scoring.engine import round_data
from scoring.models import (
    CardRow,
    Discipline,
    RankingSnapshot,
    Rating,
    RatingBookState,
    RatingPoint,
    RecordedGame,
    RecordImport,
    RowSubmission,
    ScoreCard,
    ShootOut,
    ShootOutScore,
)
from scoring.models.locks import ClosedStageChange, StageAdvance
from simulation import models as sim
from simulation.services.records import compress_record, encode_record
from tournaments import models

#: A won game as a card row stores it, from the card owner's side (6-2 in points, 10-5 in 20s).
WIN_ROUNDS = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]

#: The smallest game record a replay page reads: no round played.
EMPTY_RECORD = {
    "seats": {"0": 0, "2": 1},
    "rules": "nca",
    "discs_per_player": 8,
    "players": [],
    "points": [0, 0],
    "twenties": [0, 0],
    "rounds": [],
}


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password(None)


def allow_creating_tournaments(*users: User) -> None:
    """Give ``users`` the site permission to create tournaments (``tournaments.add_tournament``),
    as a superuser or an organizer's staff page would."""
    from django.contrib.auth.models import Permission

    permission = Permission.objects.get(
        content_type__app_label="tournaments", codename="add_tournament"
    )
    for user in users:
        user.user_permissions.add(permission)


# --- tournaments -----------------------------------------------------------------------------


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Tournament

    name = factory.Sequence(lambda n: f"Open {n}")
    slug = factory.Sequence(lambda n: f"open-{n}")


class TournamentRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.TournamentRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = models.TournamentRole.Role.ORGANIZER


class BoardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Board

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Category

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Singles {n}")
    discs_per_player = 8

    class Params:
        doubles = factory.Trait(kind=models.Category.Kind.DOUBLES, discs_per_player=6)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Player

    tournament = factory.SubFactory(TournamentFactory)
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    number = factory.Sequence(lambda n: 100 + n)
    club = "Tavistock"


class PersonFactory(factory.django.DjangoModelFactory):
    """A person of the site-wide registry (one human across every event)."""

    class Meta:
        model = models.Person

    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    club = "Tavistock"


class EntryRequestFactory(factory.django.DjangoModelFactory):
    """A request through a category's public entry form, waiting for the organizer."""

    class Meta:
        model = models.EntryRequest

    category = factory.SubFactory(CategoryFactory)
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    email = factory.Faker("email")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Team

    tournament = factory.SubFactory(TournamentFactory)
    player_one = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))
    player_two = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))


class EntryFactory(factory.django.DjangoModelFactory):
    """A singles entry; ``EntryFactory(doubles=True, category__doubles=True)`` is a team's."""

    class Meta:
        model = models.Entry

    category = factory.SubFactory(CategoryFactory)
    player = factory.SubFactory(
        PlayerFactory, tournament=factory.SelfAttribute("..category.tournament")
    )
    #: Present at the desk, so the category can be drawn (a first draw takes checked-in
    #: entries only); ``checked_in=False`` for one still to arrive.
    checked_in = True

    class Params:
        doubles = factory.Trait(
            player=None,
            team=factory.SubFactory(
                TeamFactory, tournament=factory.SelfAttribute("..category.tournament")
            ),
        )


class EntryLinkFactory(factory.django.DjangoModelFactory):
    """An entry's private link (the token that opens its scorecards without a login)."""

    class Meta:
        model = models.EntryLink

    entry = factory.SubFactory(EntryFactory)


class RoleChangeFactory(factory.django.DjangoModelFactory):
    """One line of a tournament's staff log."""

    class Meta:
        model = models.RoleChange

    tournament = factory.SubFactory(TournamentFactory)
    actor = factory.SubFactory(UserFactory)
    actor_username = factory.LazyAttribute(lambda c: c.actor.username)
    user = factory.SubFactory(UserFactory)
    username = factory.LazyAttribute(lambda c: c.user.username)
    action = models.RoleChange.Action.GRANTED
    role = models.TournamentRole.Role.REFEREE


class InvitationFactory(factory.django.DjangoModelFactory):
    """An organizer's invitation of an account to a staff role, waiting for its answer."""

    class Meta:
        model = models.Invitation

    tournament = factory.SubFactory(TournamentFactory)
    kind = models.Invitation.Kind.ROLE
    role = models.TournamentRole.Role.REFEREE
    user = factory.SubFactory(UserFactory)
    username = factory.LazyAttribute(lambda c: c.user.username)
    invited_by = factory.SubFactory(UserFactory)


class RoundClockFactory(factory.django.DjangoModelFactory):
    """A tournament's round clock, ready to start."""

    class Meta:
        model = models.RoundClock

    tournament = factory.SubFactory(TournamentFactory)
    duration_s = 30 * 60


class CallFactory(factory.django.DjangoModelFactory):
    """A call to an entry's phone: its match is on a board."""

    class Meta:
        model = models.Call

    entry = factory.SubFactory(EntryFactory)
    tournament = factory.SelfAttribute("entry.category.tournament")
    kind = models.Call.Kind.BOARD
    board_number = 7


class PushSubscriptionFactory(factory.django.DjangoModelFactory):
    """A phone that follows an entry's calls (its push service's address and keys)."""

    class Meta:
        model = models.PushSubscription

    entry = factory.SubFactory(EntryFactory)
    endpoint = factory.Sequence(lambda n: f"https://push.example.org/send/{n}")
    p256dh = (
        "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
    )
    auth = "tBHItJI5svbpez7KI4CCXg"


class StageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Stage

    category = factory.SubFactory(CategoryFactory)
    name = "Preliminary"
    kind = models.Stage.Kind.PRELIMINARY
    order = factory.Sequence(lambda n: n + 1)


class PoolFactory(factory.django.DjangoModelFactory):
    """A pool of a round-robin stage; ``PoolFactory(entries=[...])`` fills it."""

    class Meta:
        model = models.Pool
        skip_postgeneration_save = True

    stage = factory.SubFactory(StageFactory, kind=models.Stage.Kind.ROUND_ROBIN, name="Playoff")
    name = factory.Sequence(lambda n: chr(ord("A") + n % 26))

    @factory.post_generation
    def entries(self, create: bool, extracted, **kwargs) -> None:
        if create and extracted:
            self.entries.set(extracted)


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Match

    stage = factory.SubFactory(StageFactory)
    entry_a = factory.SubFactory(EntryFactory, category=factory.SelfAttribute("..stage.category"))
    entry_b = factory.SubFactory(EntryFactory, category=factory.SelfAttribute("..stage.category"))
    best_of = factory.SelfAttribute("stage.best_of")


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Game

    match = factory.SubFactory(MatchFactory)
    number = 1


class RoundFactory(factory.django.DjangoModelFactory):
    """An official round: a 2-0 round for entry A unless told otherwise (2-1-0 scoring)."""

    class Meta:
        model = models.Round

    game = factory.SubFactory(GameFactory)
    number = 1
    points_a = 2
    points_b = 0
    discs_per_side = factory.LazyAttribute(lambda r: r.game.match.stage.category.discs_per_side)


# --- scoring ---------------------------------------------------------------------------------


class ScoreCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ScoreCard

    stage = factory.SubFactory(StageFactory)
    entry = factory.SubFactory(EntryFactory, category=factory.SelfAttribute("..stage.category"))


class CardRowFactory(factory.django.DjangoModelFactory):
    """A filled row of a game the card's entry plays as entry A (a won game, ``WIN_ROUNDS``)."""

    class Meta:
        model = CardRow

    card = factory.SubFactory(ScoreCardFactory)
    game = factory.SubFactory(
        GameFactory,
        match__stage=factory.SelfAttribute("...card.stage"),
        match__entry_a=factory.SelfAttribute("...card.entry"),
    )
    rounds = factory.LazyFunction(lambda: [dict(r) for r in WIN_ROUNDS])


class RowSubmissionFactory(factory.django.DjangoModelFactory):
    """An entry of the phone's outbox, as the server recorded it when it wrote the row."""

    class Meta:
        model = RowSubmission

    key = factory.Faker("uuid4")
    row = factory.SubFactory(CardRowFactory)
    based_on = 0
    wrote = 1


class RecordImportFactory(factory.django.DjangoModelFactory):
    """A previewed file of past results (one game, Crokinole Reference layout)."""

    class Meta:
        model = RecordImport

    layout = RecordImport.Layout.CROKINOLE_REFERENCE
    filename = "past.csv"
    summary = {"games": 1, "bad_lines": []}
    content = (
        "date,event,stage,pool,game,player_a,player_b,first_in_round_1,points_a,points_b,"
        "twenties_a,twenties_b\n2015-06-06,Club night,Prelim,A,1,Ann Lee,Bo Roy,,"
        "2 2 1 0,0 0 1 2,3 2 1 0,1 0 1 2\n"
    )


class RecordedGameFactory(factory.django.DjangoModelFactory):
    """A recorded singles game between two people: 5-3 (rounds 2-0, 2-0, 1-1, 0-2)."""

    class Meta:
        model = RecordedGame

    key = factory.Sequence(lambda n: f"ref:test-{n}")
    discipline = Discipline.SINGLES
    played_on = datetime.date(2015, 6, 6)
    event = "Club night"
    person_a = factory.SubFactory(PersonFactory)
    person_b = factory.SubFactory(PersonFactory)
    rounds = [[2, 0, 3, 1, 0], [2, 0, 2, 0, 1], [1, 1, 1, 1, 0], [0, 2, 0, 2, 1]]
    points_a, points_b, twenties_a, twenties_b = 5, 3, 6, 4


class RatingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Rating

    person = factory.SubFactory(PersonFactory)
    discipline = Discipline.SINGLES
    mu, sigma, games = 26.0, 6.0, 3


class RatingPointFactory(factory.django.DjangoModelFactory):
    """A person's rating right after one of their recorded games."""

    class Meta:
        model = RatingPoint

    game = factory.SubFactory(RecordedGameFactory)
    person = factory.SelfAttribute("game.person_a")
    discipline = factory.SelfAttribute("game.discipline")
    played_on = factory.SelfAttribute("game.played_on")
    mu, sigma = 26.0, 7.5


class RatingBookStateFactory(factory.django.DjangoModelFactory):
    """The field state a discipline's ratings were computed with (before any game)."""

    class Meta:
        model = RatingBookState

    discipline = Discipline.SINGLES
    after = None
    state = {"field_twenties": 0.0, "field_sides": 0}


class RankingSnapshotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RankingSnapshot

    discipline = Discipline.SINGLES
    reason = RankingSnapshot.Reason.NIGHTLY
    rows = [{"person": 1, "rank": 1, "mu": 26.0, "sigma": 6.0, "games": 12}]


class ShootOutFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ShootOut

    stage = factory.SubFactory(StageFactory, kind=models.Stage.Kind.SHOOTOUT, name="Shoot-out")
    order = factory.Sequence(lambda n: n + 1)


class StageAdvanceFactory(factory.django.DjangoModelFactory):
    """A preliminary that advanced into the playoff after it (order 2)."""

    class Meta:
        model = StageAdvance

    stage = factory.SubFactory(StageFactory)
    into = factory.SubFactory(
        StageFactory,
        category=factory.SelfAttribute("..stage.category"),
        name="Playoff",
        kind=models.Stage.Kind.ROUND_ROBIN,
        order=factory.LazyAttribute(lambda o: o.factory_parent.stage.order + 1),
    )


class ClosedStageChangeFactory(factory.django.DjangoModelFactory):
    """The head referee's change of a game of a closed stage."""

    class Meta:
        model = ClosedStageChange

    game = factory.SubFactory(GameFactory)
    stage = factory.SelfAttribute("game.match.stage")
    into = factory.SubFactory(
        StageFactory,
        category=factory.SelfAttribute("..stage.category"),
        name="Playoff",
        kind=models.Stage.Kind.ROUND_ROBIN,
        order=factory.LazyAttribute(lambda o: o.factory_parent.stage.order + 1),
    )
    changed_by = factory.SubFactory(UserFactory)
    before = factory.LazyFunction(lambda: [round_data(points=(2, 0), twenties=(1, 0))] * 4)
    after = factory.LazyFunction(lambda: [round_data(points=(0, 2), twenties=(0, 1))] * 4)
    initials = "HR"
    reason = "Score misread at the board; both players agree."
    impact = "No change to who advances."


class ShootOutScoreFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ShootOutScore

    shootout = factory.SubFactory(ShootOutFactory)
    entry = factory.SubFactory(
        EntryFactory, category=factory.SelfAttribute("..shootout.stage.category")
    )
    twenties = 6


# --- simulation ------------------------------------------------------------------------------


class SimulationUserFactory(UserFactory):
    class Meta:
        model = sim.SimulationUser

    username = factory.Sequence(lambda n: f"sim-{n}")


class EntryProfileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = sim.EntryProfile

    entry = factory.SubFactory(EntryFactory)
    players = factory.LazyFunction(lambda: ["competitive"])


class SimulatedGameFactory(factory.django.DjangoModelFactory):
    """A simulated game's stored record (an empty one unless ``record`` is given)."""

    class Meta:
        model = sim.SimulatedGame
        exclude = ("data",)

    game = factory.SubFactory(GameFactory, simulated=True)
    data = factory.LazyFunction(lambda: dict(EMPTY_RECORD))
    record = factory.LazyAttribute(lambda g: compress_record(g.data))
    raw_size = factory.LazyAttribute(lambda g: encode_record(g.data)[1])
    seed = 1
    shots = 0
    rounds = 0
    tied_rounds = 0
    twenties_a = 0
    twenties_b = 0
    open20_attempts_a = 0
    open20_attempts_b = 0
    open20_made_a = 0
    open20_made_b = 0


class MatchPreviewFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = sim.MatchPreview

    match = factory.SubFactory(MatchFactory)
    games = 20
    players = factory.LazyFunction(lambda: {"a": ["competitive"], "b": ["competitive"]})


class AutoPlayFactory(factory.django.DjangoModelFactory):
    """Auto-play of the rest of a category."""

    class Meta:
        model = sim.AutoPlay

    category = factory.SubFactory(CategoryFactory)
    tournament = factory.SelfAttribute("category.tournament")
    scope = sim.AutoPlay.Scope.CATEGORY


class DryRunFactory(factory.django.DjangoModelFactory):
    """A queued dry run of a preset (no source tournament, nothing played yet)."""

    class Meta:
        model = sim.DryRun

    preset = "club"
    entries = 8
    boards = 2


class CutOddsFactory(factory.django.DjangoModelFactory):
    """A stage's cut odds, not worked out yet."""

    class Meta:
        model = sim.CutOdds

    stage = factory.SubFactory(StageFactory)


class FeaturedMatchFactory(factory.django.DjangoModelFactory):
    """A match in its tournament's stream queue."""

    class Meta:
        model = sim.FeaturedMatch

    match = factory.SubFactory(MatchFactory)
    tournament = factory.LazyAttribute(lambda o: o.match.stage.category.tournament)


class LiveRoundFactory(factory.django.DjangoModelFactory):
    """A featured match's first round, won 2-0 by side A with the hammer on side B."""

    class Meta:
        model = sim.LiveRound

    featured = factory.SubFactory(FeaturedMatchFactory)
    game_number = 1
    number = factory.Sequence(lambda n: n + 1)
    points_a = 2
    points_b = 0
    hammer = "b"


class PlanningRunFactory(factory.django.DjangoModelFactory):
    """A queued planning run of a tournament."""

    class Meta:
        model = sim.PlanningRun

    tournament = factory.SubFactory(TournamentFactory)
