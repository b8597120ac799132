"""A person's public profile and head-to-head, as pages and through the API: the numbers from the
record, who sees a private profile, links, merged people, bad input, and a bounded number of
queries for a long career."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from scoring.models.record import Discipline, Rating
from scoring.record import profiles
from tests.factories import TournamentFactory, UserFactory
from tests.scoring.profile_factories import (
    PersonFactory,
    RatingPointFactory,
    RecordedGameFactory,
    game,
)
from tournaments.models import Person

pytestmark = pytest.mark.django_db

NAME_ONLY = Person.Visibility.NAME_ONLY


@pytest.fixture
def anna():
    return PersonFactory(first_name="Émile", last_name="O'Brien", club="Tavistock")


@pytest.fixture
def ben():
    return PersonFactory(first_name="Ben", last_name="Cook")


# The selector ----------------------------------------------------------------------------------


def test_the_summary_counts_games_from_either_side(anna, ben):
    game(anna, ben)  # 6-2 win of A, 20s 7-3, A had the hammer in rounds 1 and 3
    game(ben, anna)  # Ben wins 6-2 as side A: Anna lost, with the hammer in rounds 2 and 4
    game(anna, ben, lines=[(1, 1, 2, 2, 0), (1, 1, 1, 1, 1)])  # a 2-2 draw
    data = profiles.profile(anna)
    assert data.discipline == Discipline.SINGLES
    s = data.current.summary
    assert (s.games, s.wins, s.draws, s.losses) == (3, 1, 1, 1)
    assert (s.rounds, s.rounds_won, s.rounds_tied, s.rounds_lost) == (10, 4, 2, 4)
    assert s.twenties == 7 + 3 + 3
    assert s.twenties_per_round == 13 / 10
    # Game 1: won both hammer rounds and one of two others. Game 2 (side B): B shot first in
    # rounds 1 and 3 (Ben had the hammer), lost those; had the hammer in 2 and 4, won round 4.
    assert (s.hammer_rounds, s.won_with_hammer) == (2 + 2 + 1, 2 + 1 + 0)
    assert (s.no_hammer_rounds, s.won_without_hammer) == (2 + 2 + 1, 1 + 0 + 0)
    assert s.longest_streak == 1
    assert [g.outcome for g in data.games] == ["draw", "loss", "win"]  # newest first


def test_doubles_count_for_both_partners_and_partners_are_not_opponents(anna, ben):
    carl, dana = PersonFactory(), PersonFactory()
    game(
        carl,
        dana,
        partner_a=anna,
        partner_b=ben,
        discipline=Discipline.DOUBLES,
    )
    data = profiles.profile(anna, Discipline.DOUBLES)
    row = data.games[0]
    assert row.outcome == "win"
    assert row.partner.id == carl.pk
    assert {o.id for o in row.opponents} == {dana.pk, ben.pk}
    assert profiles.head_to_head(anna, carl).games == []
    assert len(profiles.head_to_head(anna, ben).games) == 1


def test_events_group_games_and_name_the_last_stage(anna, ben):
    t = TournamentFactory(name="Ontario Open")
    day = date(2016, 5, 1)
    game(anna, ben, event="Ontario Open", stage="Round robin", tournament=t, played_on=day)
    game(anna, ben, event="Ontario Open", stage="Final", tournament=t, played_on=day)
    game(anna, ben, event="WCC", played_on=date(2014, 6, 7))
    game(anna, ben, event="WCC", played_on=date(2015, 6, 6))
    events = profiles.profile(anna).events
    assert [(e.name, e.summary.games) for e in events] == [
        ("Ontario Open", 2),
        ("WCC", 1),
        ("WCC", 1),
    ]
    assert events[0].last_stage == "Final"
    assert events[0].tournament.slug == t.slug


def test_rating_history_in_display_units(anna, ben):
    g = game(anna, ben)
    RatingPointFactory(person=anna, game=g, mu=25.0, sigma=5.0)
    RatingPointFactory(person=anna, game=game(anna, ben), mu=26.0, sigma=4.0)
    Rating.objects.create(person=anna, discipline=Discipline.SINGLES, mu=26.0, sigma=4.0)
    data = profiles.profile(anna)
    assert [(p.rating, p.plusminus) for p in data.rating_history] == [(1500, 400), (1540, 320)]
    assert data.current.rating == (1540, 320)


# The page --------------------------------------------------------------------------------------


def test_the_profile_page_shows_summary_chart_games_and_links(client, anna, ben):
    private = PersonFactory(first_name="Ab", last_name="Leitch", visibility=NAME_ONLY)
    t = TournamentFactory(name="Ontario Open")
    g = game(anna, ben, tournament=t, event="Ontario Open")
    game(anna, private)
    RatingPointFactory(person=anna, game=g)
    response = client.get(reverse("person-profile", args=[anna.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Émile O&#x27;Brien" in html
    assert html.count('class="rating-chart layout-') == 2  # the wide and the phone drawings
    assert reverse("person-profile", args=[ben.pk]) in html
    assert reverse("person-profile", args=[private.pk]) not in html
    assert "Ab Leitch" in html  # results name them, without a link
    assert reverse("tournaments:detail", args=[t.slug]) in html
    assert reverse("head-to-head", args=[anna.pk, ben.pk]) in html
    assert 'class="win hammer"' in html  # a round won with the hammer is framed


def test_a_name_only_profile_shows_only_the_name_to_the_public(client, anna):
    anna.visibility = NAME_ONLY
    anna.save()
    game(anna, PersonFactory())
    url = reverse("person-profile", args=[anna.pk])
    stranger = UserFactory()
    for who in (None, stranger):
        if who:
            client.force_login(who)
        html = client.get(url).content.decode()
        assert "keeps their profile private" in html
        assert "Tavistock" not in html and "20s per round" not in html


@pytest.mark.parametrize("viewer", ["owner", "keeper"])
def test_the_owner_and_the_record_keepers_see_a_private_profile(client, anna, viewer):
    anna.visibility = NAME_ONLY
    if viewer == "owner":
        anna.user = user = UserFactory()
    else:
        user = UserFactory(is_staff=True)
    anna.save()
    game(anna, PersonFactory())
    client.force_login(user)
    html = client.get(reverse("person-profile", args=[anna.pk])).content.decode()
    assert "20s per round" in html
    assert "only its owner and the record keepers see it" in html


def test_a_merged_person_moves_on_to_whom_they_were_merged_into(client, anna):
    old = PersonFactory(merged_into=anna)
    response = client.get(reverse("person-profile", args=[old.pk]) + "?discipline=doubles")
    assert response.status_code == 301
    assert response["Location"] == reverse("person-profile", args=[anna.pk]) + "?discipline=doubles"
    api = client.get(reverse("api:person-profile", args=[old.pk]))
    assert api.json()["person"]["id"] == anna.pk


def test_a_wrong_discipline_is_said_and_the_page_still_answers(client, anna):
    game(anna, PersonFactory())
    response = client.get(reverse("person-profile", args=[anna.pk]) + "?discipline=darts")
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    api = client.get(reverse("api:person-profile", args=[anna.pk]) + "?discipline=darts")
    assert api.status_code == 400
    assert "Discipline: Select a valid choice" in api.json()["detail"]


def test_an_unknown_person_is_a_404(client):
    assert client.get(reverse("person-profile", args=[987654])).status_code == 404
    assert client.get(reverse("api:person-profile", args=[987654])).status_code == 404


def test_a_long_career_takes_a_bounded_number_of_queries(
    client, anna, django_assert_max_num_queries
):
    others = PersonFactory.create_batch(12)
    t = TournamentFactory()
    for i in range(300):
        g = RecordedGameFactory(
            person_a=anna if i % 2 else others[i % 12],
            person_b=others[(i + 1) % 12] if i % 2 else anna,
            tournament=t if i % 3 == 0 else None,
            event=f"Event {i // 10}",
        )
        RatingPointFactory(person=anna, game=g)
    url = reverse("person-profile", args=[anna.pk])
    with django_assert_max_num_queries(8):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count('<ol class="rounds">') == 300
    with django_assert_max_num_queries(8):
        assert client.get(reverse("api:person-profile", args=[anna.pk])).status_code == 200


# Head-to-head ----------------------------------------------------------------------------------


def test_head_to_head_totals_for_both_sides(client, anna, ben):
    game(anna, ben)
    game(ben, anna, lines=[(2, 0, 4, 0, 0), (2, 0, 3, 1, 1)])
    game(anna, PersonFactory())  # not between them
    h2h = profiles.head_to_head(anna, ben)
    assert len(h2h.games) == 2
    assert (h2h.mine.wins, h2h.theirs.wins) == (1, 1)
    assert (h2h.mine.twenties, h2h.theirs.twenties) == (7 + 1, 3 + 7)
    assert h2h.mine.rounds_won == h2h.theirs.rounds_lost
    response = client.get(reverse("head-to-head", args=[anna.pk, ben.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "1\u20131" in html  # games won, face to face
    data = client.get(reverse("api:person-head-to-head", args=[anna.pk, ben.pk])).json()
    assert data["totals"]["person"]["wins"] == 1
    assert data["totals"]["other"]["twenties"] == [10, 8]
    assert [g["outcome"] for g in data["games"]] == ["win", "loss"]


def test_head_to_head_with_a_private_person_says_only_their_name(client, anna, ben):
    ben.visibility = NAME_ONLY
    ben.save()
    game(anna, ben)
    html = client.get(reverse("head-to-head", args=[anna.pk, ben.pk])).content.decode()
    assert "Ben Cook keeps their profile private" in html
    assert "Games won" not in html
    data = client.get(reverse("api:person-head-to-head", args=[anna.pk, ben.pk])).json()
    assert data["private"] is True and data["games"] == [] and data["totals"] is None
    assert data["detail"].startswith("Ben Cook keeps their profile private")


def test_a_head_to_head_with_oneself_is_refused_in_words(client, anna):
    response = client.get(reverse("head-to-head", args=[anna.pk, anna.pk]))
    assert response.status_code == 400
    assert "two different people" in response.content.decode()
    api = client.get(reverse("api:person-head-to-head", args=[anna.pk, anna.pk]))
    assert api.status_code == 400
    assert api.json()["detail"] == "A head-to-head needs two different people."


def test_the_other_player_is_found_by_name_accents_ignored(client, anna, ben):
    url = reverse("head-to-head-pick", args=[ben.pk])
    html = client.get(url, {"q": "emile obrien"}).content.decode()
    assert reverse("head-to-head", args=[ben.pk, anna.pk]) in html
    partial = client.get(url, {"q": "ÉMILE"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in partial and "O&#x27;Brien" in partial
    nobody = client.get(url, {"q": "zzz"}).content.decode()
    assert "Nobody of that name" in nobody
    assert profiles.find_people("cook", exclude=ben.pk) == []
    merged = PersonFactory(first_name="Emile", last_name="Obrien", merged_into=anna)
    assert merged not in profiles.find_people("emile")


def test_a_person_without_games_has_an_empty_profile_that_says_so(client, anna):
    html = client.get(reverse("person-profile", args=[anna.pk])).content.decode()
    assert "No games in the record yet." in html
    assert "No rated game yet." in html
    data = client.get(reverse("api:person-profile", args=[anna.pk])).json()
    assert data["games"] == [] and data["disciplines"] == [] and data["private"] is False
