"""Ratings kept from the record: a verified game recorded and rated, incrementally and in full
alike; draws, doubles, the ranking and its movers (``scoring.ratings``)."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache

from config.celery import app
from scoring.engine.rating import MU, SIGMA
from scoring.models.record import (
    Discipline,
    RankingSnapshot,
    Rating,
    RatingBookState,
    RatingPoint,
    RecordedGame,
)
from scoring.ratings import recording, services
from scoring.ratings.ranking import baseline, conservative, ranking, take_snapshot
from scoring.ratings.tasks import recompute_ratings
from scoring.results.services import record_game as record_official
from tests.factories import (
    CategoryFactory,
    EntryFactory,
    GameFactory,
    MatchFactory,
    RoundFactory,
    StageFactory,
    TournamentFactory,
)
from tournaments.demo import DEMO_SLUG
from tournaments.models import Category, Game, Person, Tournament

# The ranking's tasks run in place (``tasks_in_place``); the test of a real worker switches
# to the broker itself.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_place")]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """``committed(f, *args)``: call ``f`` and run what it left for after its commit, as a
    request's transaction would."""

    def call(f, *args):
        with django_capture_on_commit_callbacks(execute=True):
            return f(*args)

    return call


WIN_4_0 = [(2, 0, 2, 0)] * 4
DRAW_4_4 = [(2, 0, 1, 0), (0, 2, 0, 1), (1, 1, 1, 1), (1, 1, 0, 0)]


class Event:
    """A tournament with a singles category (or doubles), whose people play games."""

    def __init__(self, *, doubles: bool = False, system: str = Category.ScoringSystem.NCA):
        self.tournament = TournamentFactory(starts_on=datetime.date(2026, 5, 1), rated=True)
        kind = Category.Kind.DOUBLES if doubles else Category.Kind.SINGLES
        self.category = CategoryFactory(
            tournament=self.tournament,
            kind=kind,
            scoring_system=system,
            target_points=8 if system == Category.ScoringSystem.MATCH_PLAY_TO_8 else None,
        )
        self.stage = StageFactory(category=self.category)
        self.doubles = doubles

    def entry(self):
        return EntryFactory(category=self.category, doubles=self.doubles)

    def game(self, a, b, rounds, *, first_side: str = "a") -> Game:
        match = MatchFactory(stage=self.stage, entry_a=a, entry_b=b)
        game = GameFactory(match=match, first_side=first_side)
        for number, (pa, pb, ta, tb) in enumerate(rounds, 1):
            RoundFactory(
                game=game, number=number, points_a=pa, points_b=pb, twenties_a=ta, twenties_b=tb
            )
        return game


def person(entry, which: int = 0) -> Person:
    entry.refresh_from_db()
    return entry.people[which].person


def rating(p: Person, discipline: str = Discipline.SINGLES) -> Rating:
    return Rating.objects.get(person=p, discipline=discipline)


# Recording -----------------------------------------------------------------------------------


def test_a_verified_game_is_recorded_with_its_people_and_who_shot_first_in_each_round():
    event = Event()
    a, b = event.entry(), event.entry()
    game = event.game(
        a, b, [(2, 0, 3, 1), (0, 2, 0, 2), (2, 0, 1, 0), (1, 1, 0, 0)], first_side="b"
    )
    recorded = recording.record_game(game)
    assert recorded.key == f"game:{game.pk}"
    assert recorded.discipline == Discipline.SINGLES
    # Players without a person got one from the registry, and are linked to it.
    assert recorded.person_a == person(a) and recorded.person_b == person(b)
    assert recorded.partner_a is None and recorded.partner_b is None
    # B shot first in round 1, then the sides alternate (NCA 4b).
    assert [r[4] for r in recorded.rounds] == [1, 0, 1, 0]
    assert recorded.rounds[0][:4] == [2, 0, 3, 1]
    assert (recorded.points_a, recorded.points_b) == (5, 3)
    assert (recorded.twenties_a, recorded.twenties_b) == (4, 3)
    assert recorded.event == event.tournament.name and recorded.stage == event.stage.name
    assert recorded.played_on == datetime.date(2026, 5, 1)
    assert recorded.tournament == event.tournament and recorded.game == game


def test_recording_again_updates_the_same_row_and_a_withdrawn_result_deletes_it():
    event = Event()
    game = event.game(event.entry(), event.entry(), WIN_4_0)
    first = recording.sync_game(game)
    assert first.change == recording.Change.CREATED
    assert recording.sync_game(game).change == recording.Change.UNCHANGED
    last = game.rounds.get(number=4)
    last.points_a, last.points_b = 0, 2
    last.save()
    again = recording.sync_game(game)
    assert again.change == recording.Change.CHANGED and again.game.pk == first.game.pk
    assert again.game.rounds[3][:2] == [0, 2]
    assert RecordedGame.objects.count() == 1
    game.rounds.all().delete()  # a dispute withdrew the official result
    assert recording.record_game(game) is None
    assert not RecordedGame.objects.exists()


def test_unfinished_forfeited_family_simulated_and_demo_games_are_not_recorded():
    event = Event()
    unfinished = event.game(event.entry(), event.entry(), WIN_4_0[:3])
    assert recording.record_game(unfinished) is None
    forfeited = event.game(event.entry(), event.entry(), [])
    forfeited.forfeited_by, forfeited.forfeit_kind = "a", Game.ForfeitKind.WITHDRAWAL
    forfeited.save()
    assert recording.record_game(forfeited) is None
    simulated = event.game(event.entry(), event.entry(), WIN_4_0)
    Game.objects.filter(pk=simulated.pk).update(simulated=True)
    assert recording.record_game(simulated) is None
    demo = Event()
    Tournament.objects.filter(pk=demo.tournament.pk).update(slug=DEMO_SLUG)
    assert recording.record_game(demo.game(demo.entry(), demo.entry(), WIN_4_0)) is None
    family = Event(system=Category.ScoringSystem.MATCH_PLAY_TO_8)
    game = family.game(family.entry(), family.entry(), WIN_4_0)
    assert recording.record_game(game) is None
    assert not RecordedGame.objects.exists()


def test_first_shooter_alternates_from_the_first_side():
    assert [recording.first_shooter("a", n) for n in range(1, 6)] == [0, 1, 0, 1, 0]
    assert [recording.first_shooter("b", n) for n in range(1, 5)] == [1, 0, 1, 0]


# Ratings -------------------------------------------------------------------------------------


def _figures(discipline: str = Discipline.SINGLES) -> dict[int, tuple[float, float, int]]:
    return {
        r.person_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(discipline=discipline)
    }


def test_incremental_updates_equal_a_full_recompute(committed):
    event = Event()
    entries = [event.entry() for _ in range(4)]
    plays = [
        (0, 1, WIN_4_0),
        (2, 3, DRAW_4_4),
        (0, 2, [(0, 2, 0, 1), (2, 0, 1, 0), (0, 2, 0, 0), (0, 2, 0, 2)]),
        (1, 3, [(2, 0, 1, 0), (2, 0, 0, 0), (1, 1, 1, 1), (0, 2, 0, 0)]),
        (3, 0, WIN_4_0),
    ]
    for a, b, rounds in plays:
        # Whatever another process kept in its cache: the field state is the database's.
        cache.clear()
        outcome = committed(services.game_changed, event.game(entries[a], entries[b], rounds).pk)
        assert outcome.done == "updated"
    kept = RatingBookState.objects.get(discipline=Discipline.SINGLES)
    newest = RecordedGame.objects.order_by("-played_on", "-sequence", "-id").first()
    assert kept.after == [newest.played_on.isoformat(), newest.sequence, newest.pk]
    incremental = _figures()
    points = RatingPoint.objects.count()
    assert points == 10
    assert {games for *_, games in incremental.values()} == {2, 3}
    services.recompute(Discipline.SINGLES)
    full = _figures()
    assert full.keys() == incremental.keys()
    for key, (mu, sigma, games) in incremental.items():
        assert full[key][0] == pytest.approx(mu, abs=1e-9)
        assert full[key][1] == pytest.approx(sigma, abs=1e-9)
        assert full[key][2] == games
    assert RatingPoint.objects.count() == points


def test_the_winner_goes_up_and_a_second_look_at_the_same_result_changes_nothing(committed):
    event = Event()
    a, b = event.entry(), event.entry()
    game = event.game(a, b, WIN_4_0)
    assert committed(services.game_changed, game.pk).done == "updated"
    assert rating(person(a)).mu > MU > rating(person(b)).mu
    assert rating(person(a)).sigma < SIGMA
    assert services.game_changed(game.pk).done == "none"
    assert RatingPoint.objects.count() == 2 and rating(person(a)).games == 1


def test_a_draw_counts_and_pulls_two_unequal_players_together(committed):
    event = Event()
    strong, weak = event.entry(), event.entry()
    committed(services.game_changed, event.game(strong, weak, WIN_4_0).pk)
    before_strong, before_weak = rating(person(strong)).mu, rating(person(weak)).mu
    committed(services.game_changed, event.game(strong, weak, DRAW_4_4).pk)
    after_strong, after_weak = rating(person(strong)), rating(person(weak))
    assert after_strong.mu < before_strong and after_weak.mu > before_weak
    assert after_strong.games == after_weak.games == 2


def test_doubles_rate_both_partners_as_two_people():
    event = Event(doubles=True)
    a, b = event.entry(), event.entry()
    recorded = recording.record_game(event.game(a, b, WIN_4_0))
    assert recorded.discipline == Discipline.DOUBLES
    assert {recorded.person_a, recorded.partner_a} == {person(a, 0), person(a, 1)}
    services.recompute(Discipline.DOUBLES)
    winners = [rating(person(a, i), Discipline.DOUBLES) for i in (0, 1)]
    losers = [rating(person(b, i), Discipline.DOUBLES) for i in (0, 1)]
    assert all(r.mu > MU and r.games == 1 for r in winners)
    assert all(r.mu < MU for r in losers)
    assert not Rating.objects.filter(discipline=Discipline.SINGLES).exists()


def test_an_older_game_or_a_withdrawn_result_is_replayed_in_full(committed):
    event = Event()
    a, b, c = event.entry(), event.entry(), event.entry()
    committed(services.game_changed, event.game(a, b, WIN_4_0).pk)
    later = event.game(b, c, WIN_4_0)
    assert committed(services.game_changed, later.pk).done == "updated"
    # A game recorded as played before the others (a late result of an earlier day).
    older = event.game(a, c, DRAW_4_4)
    recorded = recording.record_game(older)
    RecordedGame.objects.filter(pk=recorded.pk).update(played_on=datetime.date(2026, 1, 1))
    recorded.refresh_from_db()
    assert services.update_by(recorded) is False
    # The full replay (queued, eager here) puts it first.
    later.rounds.all().delete()
    assert committed(services.game_changed, later.pk).done == "recompute"
    figures = _figures()
    services.recompute(Discipline.SINGLES)
    assert figures == _figures()
    assert rating(person(c)).games == 1
    first = RatingPoint.objects.filter(person=person(a)).order_by("played_on").first()
    assert first.game == recorded


def test_the_hook_rates_a_result_once_its_transaction_commits(django_capture_on_commit_callbacks):
    event = Event()
    a, b = event.entry(), event.entry()
    match = MatchFactory(stage=event.stage, entry_a=a, entry_b=b)
    rounds = [{"points": [2, 0], "twenties": [1, 0]}] * 4
    with django_capture_on_commit_callbacks(execute=True):
        # (The game made inside: the test's transaction never commits, so the hook waits on
        # the first commit callback its transaction registered.)
        game = GameFactory(match=match)
        record_official(game, rounds)
        assert not RecordedGame.objects.exists()  # not before the commit
    assert RecordedGame.objects.get().game == game
    assert rating(person(a)).games == 1


# The ranking ---------------------------------------------------------------------------------


def _rated(name: str, mu: float, sigma: float, games: int, **kw) -> Person:
    p = Person.objects.create(first_name=name, last_name="Test", **kw)
    Rating.objects.create(person=p, discipline=Discipline.SINGLES, mu=mu, sigma=sigma, games=games)
    return p


def test_the_ranking_shows_people_with_enough_games_by_their_conservative_rating(settings):
    settings.RATING_MIN_GAMES = 10
    sure = _rated("Sure", 30.0, 1.0, 40)
    lucky = _rated("Lucky", 31.0, 4.0, 10)  # higher mean, known from few games
    _rated("Newcomer", 40.0, 5.0, 9)  # too few games
    rows = ranking(Discipline.SINGLES)
    assert [r.person_id for r in rows] == [sure.pk, lucky.pk]
    assert conservative(30.0, 1.0) > conservative(31.0, 4.0)
    assert rows[0].rating == 1700 and rows[0].plus_minus == 80
    settings.RATING_MIN_GAMES = 5
    assert len(ranking(Discipline.SINGLES)) == 3


def test_movers_are_measured_against_the_ranking_after_the_last_event():
    one = _rated("One", 30.0, 1.0, 20)
    two = _rated("Two", 29.0, 1.0, 20)
    first = take_snapshot(Discipline.SINGLES, RankingSnapshot.Reason.EVENT)
    take_snapshot(Discipline.SINGLES, RankingSnapshot.Reason.NIGHTLY)  # never a baseline
    Rating.objects.filter(person=two).update(mu=31.0)
    # Right after the next event is published, the arrows say what that event did.
    second = take_snapshot(Discipline.SINGLES, RankingSnapshot.Reason.EVENT)
    assert baseline(Discipline.SINGLES) == first
    moved = {r.person_id: r.moved for r in ranking(Discipline.SINGLES)}
    assert moved == {two.pk: 1, one.pk: -1}
    # Once new games come in, they are measured from the last event.
    event = Event()
    recording.record_game(event.game(event.entry(), event.entry(), WIN_4_0))
    assert baseline(Discipline.SINGLES) == second
    newcomer = _rated("Three", 35.0, 1.0, 20)
    moved = {r.person_id: r.moved for r in ranking(Discipline.SINGLES)}
    assert moved == {newcomer.pk: None, two.pk: -1, one.pk: -1}


def test_the_recompute_task_runs_and_keeps_each_ranking():
    event = Event()
    a, b = event.entry(), event.entry()
    recording.record_game(event.game(a, b, WIN_4_0))
    result = recompute_ratings.delay(reason=RankingSnapshot.Reason.NIGHTLY).get()
    assert result["games"] == 1 and result["people"] == 2 and result["points"] == 2
    kept = RankingSnapshot.objects.filter(reason=RankingSnapshot.Reason.NIGHTLY)
    assert sorted(kept.values_list("discipline", flat=True)) == sorted(Discipline.values)
    assert rating(person(a)).mu > MU


def test_recompute_after_import_recomputes_its_disciplines_and_keeps_the_ranking():
    from scoring.models.record import RecordImport

    event = Event()
    recorded = recording.record_game(event.game(event.entry(), event.entry(), WIN_4_0))
    source = RecordImport.objects.create(layout=RecordImport.Layout.CROKINOLE_REFERENCE, content="")
    RecordedGame.objects.filter(pk=recorded.pk).update(source=source)
    done = services.recompute_after_import(source)
    assert done.games == 1 and Rating.objects.count() == 2
    assert RankingSnapshot.objects.get().reason == RankingSnapshot.Reason.IMPORT


def test_the_nightly_run_is_scheduled_and_keeps_each_ranking(settings):
    from scoring.ratings.tasks import nightly_ratings

    entry = settings.CELERY_BEAT_SCHEDULE["ratings-nightly"]
    assert entry["task"] == nightly_ratings.name and entry["task"] in app.tasks
    event = Event()
    recording.record_game(event.game(event.entry(), event.entry(), WIN_4_0))
    assert nightly_ratings()["games"] == 1
    assert RankingSnapshot.objects.filter(reason=RankingSnapshot.Reason.NIGHTLY).count() == len(
        Discipline.values
    )


def test_merging_two_people_replays_their_games_as_one(committed):
    from tournaments.services.registry import merge_people

    event, other = Event(), Event()  # the same human, registered twice at two events
    a, b = event.entry(), event.entry()
    c, d = other.entry(), other.entry()
    committed(services.game_changed, event.game(a, b, WIN_4_0).pk)
    committed(services.game_changed, other.game(c, d, WIN_4_0).pk)
    keep, duplicate = person(a), person(c)
    assert rating(keep).games == rating(duplicate).games == 1
    committed(lambda: merge_people(keep=keep, duplicate=duplicate))
    assert rating(keep).games == 2
    assert not Rating.objects.filter(person=duplicate).exists()
