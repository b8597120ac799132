"""The ranking's pages and API: who is shown and how, and who may recompute or publish
(``scoring.ratings.views``, ``scoring.api.ratings``)."""

from __future__ import annotations

import datetime
import time

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.html import escape

from scoring.models.record import Discipline, RankingSnapshot, Rating, RatingPoint, RecordedGame
from scoring.ratings import actions as steps
from scoring.ratings import recording
from scoring.ratings.tasks import recompute_ratings
from tests.celery_support import running_worker
from tests.factories import (
    CategoryFactory,
    GameFactory,
    MatchFactory,
    RoundFactory,
    StageFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import Person, TournamentRole

# The ranking's tasks run in place (``tasks_in_place``); the test of a real worker switches
# to the broker itself.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_place")]


KEEPERS_ONLY = "Only the site's record keepers (its staff accounts) may recompute the ratings."


def _rated(first: str, mu: float, games: int = 12, **kw) -> Person:
    p = Person.objects.create(first_name=first, last_name="Rated", **kw)
    Rating.objects.create(person=p, discipline=Discipline.SINGLES, mu=mu, sigma=1.5, games=games)
    return p


def _played(tournament=None) -> RecordedGame:
    """One verified singles game, recorded (not yet rated)."""
    tournament = tournament or TournamentFactory(starts_on=datetime.date(2026, 3, 7), rated=True)
    stage = StageFactory(category=CategoryFactory(tournament=tournament))
    game = GameFactory(match=MatchFactory(stage=stage))
    for n in range(1, 5):
        RoundFactory(game=game, number=n, points_a=2, points_b=0, twenties_a=1)
    return recording.record_game(game)


def _staff() -> User:
    return UserFactory(is_staff=True)


# The page ------------------------------------------------------------------------------------


def test_the_ranking_page_lists_the_ranked_with_their_rating_and_links_public_profiles(client):
    public = _rated("Public", 30.0)
    hidden = _rated("Hidden", 28.0, visibility=Person.Visibility.NAME_ONLY)
    _rated("Few", 35.0, games=3)
    page = client.get(reverse("ranking"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Public Rated" in html and "Hidden Rated" in html and "Few Rated" not in html
    assert reverse("person-profile", args=[public.pk]) in html
    # A person who shows only their name appears by name (a ranking is results), unlinked.
    assert reverse("person-profile", args=[hidden.pk]) not in html
    rows = page.context["page"].object_list
    assert [r.person_id for r in rows] == [public.pk, hidden.pk]
    assert "1700" in html and "± 120" in html  # mu 30 on the display scale, two spreads
    assert "<svg" in html and html.count("<circle") == 2
    # Anonymous visitors are not offered the record keeper's button.
    assert "Recompute now" not in html


def test_each_discipline_has_its_page_and_an_unknown_one_is_not_found(client):
    _rated("Single", 30.0)
    doubles = client.get(reverse("ranking-discipline", args=[Discipline.DOUBLES]))
    assert doubles.status_code == 200
    assert "Single Rated" not in doubles.content.decode()
    assert "Nobody is ranked" in doubles.content.decode()
    assert client.get(reverse("ranking-discipline", args=["tiddlywinks"])).status_code == 404


def test_the_page_shows_movers_since_the_last_event(client):
    one, two = _rated("One", 30.0), _rated("Two", 29.0)
    take_event = RankingSnapshot.Reason.EVENT
    from scoring.ratings.ranking import take_snapshot

    take_snapshot(Discipline.SINGLES, take_event)
    Rating.objects.filter(person=two).update(mu=32.0)
    take_snapshot(Discipline.SINGLES, take_event)
    html = client.get(reverse("ranking")).content.decode()
    assert "▲ 1" in html and "▼ 1" in html
    assert html.index("Two Rated") < html.index("One Rated")
    assert one.pk


def test_recompute_is_the_record_keepers_on_the_page(client):
    _played()
    url = reverse("ranking-recompute")
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    organizer = TournamentRoleFactory(role=TournamentRole.Role.ORGANIZER).user
    client.force_login(organizer)
    refused = client.post(url)
    assert refused.status_code == 403 and escape(KEEPERS_ONLY) in refused.content.decode()
    assert not Rating.objects.exists()
    client.force_login(_staff())
    assert "Recompute now" in client.get(reverse("ranking")).content.decode()
    done = client.post(url)
    assert done.status_code == 302
    assert Rating.objects.count() == 2 and RatingPoint.objects.count() == 2
    progress = client.get(done["Location"])
    assert progress.status_code == 200 and "Done" in progress.content.decode()


def test_publishing_an_event_is_its_organizers_and_keeps_the_ranking_after_it(client):
    recorded = _played()
    tournament = recorded.tournament
    url = reverse("ranking-publish", args=[tournament.slug])
    client.force_login(UserFactory())
    assert client.post(url).status_code == 403
    assert not RankingSnapshot.objects.exists()
    organizer = TournamentRoleFactory(tournament=tournament).user
    client.force_login(organizer)
    assert "Publish to the ranking" in client.get(url).content.decode()
    assert client.post(url).status_code == 302
    kept = RankingSnapshot.objects.get()
    assert kept.reason == RankingSnapshot.Reason.EVENT and kept.tournament == tournament
    assert kept.discipline == Discipline.SINGLES
    assert Rating.objects.count() == 2


def test_a_tournament_without_rated_categories_is_not_offered_the_publish_button(client):
    from tournaments.models import Category

    tournament = TournamentFactory(rated=True)
    CategoryFactory(
        tournament=tournament,
        scoring_system=Category.ScoringSystem.DIFFERENCE_TO_100,
        target_points=100,
    )
    client.force_login(TournamentRoleFactory(tournament=tournament).user)
    html = client.get(reverse("ranking-publish", args=[tournament.slug])).content.decode()
    assert "do not count for the ranking" in html
    assert steps.publish_to_ranking.unmet(tournament) is not None


# Which events count: the record keepers' switch -------------------------------------------


def test_an_event_counts_only_once_a_record_keeper_says_so(
    client, django_capture_on_commit_callbacks
):
    """Whoever may create a tournament could otherwise move real people's ratings with games
    nobody played: its verified games wait outside the record until a record keeper switches
    the event on, and leave it when switched off."""
    tournament = TournamentFactory(starts_on=datetime.date(2026, 3, 7))
    assert _played(tournament) is None  # verified, yet not recorded
    assert not RecordedGame.objects.exists()
    url = reverse("ranking-publish", args=[tournament.slug])
    switch = reverse("ranking-rated", args=[tournament.slug])

    # Its organizer is told why there is nothing to publish, and cannot switch it on.
    organizer = TournamentRoleFactory(tournament=tournament).user
    client.force_login(organizer)
    html = client.get(url).content.decode()
    assert "does not count for the ranking" in html and "It counts for the ranking" not in html
    assert client.post(url).status_code == 302 and not RankingSnapshot.objects.exists()
    refused = client.post(switch, {"rated": "1"})
    assert refused.status_code == 403
    assert "record keepers (its staff accounts) say which tournaments" in refused.content.decode()
    tournament.refresh_from_db()
    assert not tournament.rated

    # A record keeper switches it on: its verified game enters the record and is rated.
    client.force_login(_staff())
    assert "It counts for the ranking" in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(switch, {"rated": "1"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rated
    assert RecordedGame.objects.filter(tournament=tournament).count() == 1
    assert Rating.objects.filter(discipline=Discipline.SINGLES).count() == 2
    assert tournament.history.first().history_change_reason == "Counts for the ranking"

    # ... and off again: its games leave the record, and the ratings with them.
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(switch, {"rated": "0"}).status_code == 302
    assert not RecordedGame.objects.exists() and not Rating.objects.exists()


def test_the_record_keepers_find_the_events_to_switch_on_the_ranking_page(client):
    waiting = TournamentFactory(name="Club Night", rated=False)
    counted = TournamentFactory(name="Provincials", rated=True)
    assert "Club Night" not in client.get(reverse("ranking")).content.decode()
    client.force_login(_staff())
    html = client.get(reverse("ranking")).content.decode()
    assert reverse("ranking-publish", args=[waiting.slug]) in html
    assert reverse("ranking-publish", args=[counted.slug]) in html
    assert "does not count yet" in html and "counts for the ranking" in html


def test_the_api_switch_is_the_record_keepers_with_the_pages_words(client):
    tournament = TournamentFactory(starts_on=datetime.date(2026, 3, 7))
    _played(tournament)
    url = reverse("api:tournament-rated", args=[tournament.slug])
    client.force_login(TournamentRoleFactory(tournament=tournament).user)
    refused = client.post(url, {"rated": True}, content_type="application/json")
    assert refused.status_code == 403
    assert "Only the site's record keepers" in refused.json()["detail"]
    client.force_login(_staff())
    bad = client.post(url, {"rated": "perhaps"}, content_type="application/json")
    assert bad.status_code == 400 and "rated" in bad.json()
    done = client.post(url, {"rated": True}, content_type="application/json")
    assert done.status_code == 200
    assert done.json() == {"rated": True, "disciplines": ["singles"]}
    assert RecordedGame.objects.filter(tournament=tournament).count() == 1


# The API -------------------------------------------------------------------------------------


def test_the_api_ranking_gives_the_rows_with_their_uncertainty(client):
    best = _rated("Best", 31.0)
    _rated("Next", 29.0)
    data = client.get(reverse("api:ranking", args=[Discipline.SINGLES])).json()
    assert data["discipline"] == "singles" and data["min_games"] == 10
    first = data["rows"][0]
    assert first["person"] == best.pk
    assert (first["rank"], first["rating"], first["plus_minus"]) == (1, 1740, 120)
    assert first["moved"] is None and data["movers_since"] is None
    assert client.get(reverse("api:ranking", args=["nope"])).status_code == 404


def test_the_api_gives_a_persons_ratings_with_history_unless_they_show_only_their_name(client):
    recorded = _played()
    recompute_ratings.delay(discipline=Discipline.SINGLES).get()
    winner = recorded.person_a
    data = client.get(reverse("api:person-ratings", args=[winner.pk])).json()
    (singles,) = data["ratings"]
    assert singles["discipline"] == "singles" and singles["games"] == 1
    assert singles["ranked"] is False and singles["rating"] > 1500
    assert [p["game"] for p in singles["history"]] == [recorded.pk]
    Person.objects.filter(pk=winner.pk).update(visibility=Person.Visibility.NAME_ONLY)
    hidden = client.get(reverse("api:person-ratings", args=[winner.pk]))
    assert hidden.status_code == 404 and "only their name" in hidden.json()["detail"]
    client.force_login(_staff())
    assert client.get(reverse("api:person-ratings", args=[winner.pk])).status_code == 200


def test_the_api_recompute_is_the_record_keepers_with_the_pages_words(client):
    _played()
    url = reverse("api:ranking-recompute")
    assert client.post(url).status_code in (401, 403)
    client.force_login(UserFactory())
    refused = client.post(url)
    assert refused.status_code == 403 and refused.json()["detail"] == KEEPERS_ONLY
    assert not Rating.objects.exists()
    client.force_login(_staff())
    accepted = client.post(url)
    assert accepted.status_code == 202 and accepted.json()["task"]
    assert Rating.objects.count() == 2


def test_the_schema_documents_the_ranking_api(client):
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()
    paths = schema["paths"]
    assert "/api/ranking/{discipline}/" in paths
    assert "/api/people/{id}/ratings/" in paths or "/api/people/{pk}/ratings/" in paths
    assert "post" in paths["/api/ranking/recompute/"]


# On a real worker ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_the_recompute_runs_on_a_worker_and_reports_progress():
    _played()
    _played()
    with running_worker() as counter:
        result = recompute_ratings.delay(reason=RankingSnapshot.Reason.NIGHTLY)
        deadline = time.monotonic() + 60
        while not result.ready() and time.monotonic() < deadline:
            time.sleep(0.05)
        value = result.get(timeout=30)
        counter.wait_until_idle(timeout=60)
    assert value["games"] == 2 and value["people"] == 4
    assert Rating.objects.count() == 4
    assert RankingSnapshot.objects.filter(reason=RankingSnapshot.Reason.NIGHTLY).count() == len(
        Discipline.values
    )


def test_the_picture_puts_each_rating_inside_its_bar_on_one_scale():
    from scoring.ratings.chart import WIDTH, ranking_chart
    from scoring.ratings.ranking import ranking

    _rated("Top", 33.0)
    _rated("Mid", 27.0)
    Rating.objects.create(
        person=Person.objects.create(first_name="Wide", last_name="Rated"),
        discipline=Discipline.SINGLES,
        mu=25.0,
        sigma=4.0,
        games=12,
    )
    rows = ranking(Discipline.SINGLES)
    chart = ranking_chart(rows)
    assert len(chart.dots) == 3 and chart.width == WIDTH
    for dot in chart.dots:
        assert chart.plot_left <= dot.low_x < dot.x < dot.high_x <= chart.plot_right
    # One scale: the higher rating is further right, the wider spread has the longer bar.
    top, mid, wide = chart.dots
    assert top.x > mid.x > wide.x
    assert wide.high_x - wide.low_x > top.high_x - top.low_x
    assert [t.value for t in chart.ticks] == sorted(t.value for t in chart.ticks)
    assert ranking_chart([]) is None
