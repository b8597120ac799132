"""A fixed match of N games, chosen by the organizer beside best of N (WCC Scoring: "The number
of games in a 'match' is normally 10"): the stage, its page and the API accept it and refuse it
where it cannot work; its games are all drawn and all played; the total points decide."""

import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.engine import round_data
from scoring.progression.services import unfinished_matches
from scoring.results.outcomes import match_outcome
from scoring.results.schedule import round_schedule
from scoring.results.services import record_game
from scoring.standings.selectors import stage_standings
from tests.factories import (
    CategoryFactory,
    EntryFactory,
    StageFactory,
    TournamentFactory,
    allow_creating_tournaments,
)
from tournaments.forms import StageForm
from tournaments.models import Game, Match, Stage, TournamentRole
from tournaments.services import registration
from tournaments.services.draws import draw_stage
from tournaments.services.forfeits import withdraw_entry
from tournaments.services.setup import create_tournament

pytestmark = pytest.mark.django_db

FIXED = Stage.MatchFormat.FIXED
#: A game entry A wins 6-2 (three rounds won, the last lost), one 20 a round each.
A_WINS_6_2 = [round_data(points=(2, 0), twenties=(1, 1))] * 3 + [
    round_data(points=(0, 2), twenties=(1, 1))
]
#: A game entry B wins 8-0, no 20s.
B_WINS_8_0 = [round_data(points=(0, 2))] * 4


def refusal(call, **fields) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as caught:
        call(**fields)
    return caught.value.message_dict


# --- the stage ---------------------------------------------------------------------------------


def test_a_stage_may_play_a_fixed_match_of_any_n_but_not_in_a_knockout():
    category = CategoryFactory()
    ten = registration.add_stage(
        category=category, name="Pools", kind="round-robin", best_of=10, match_format=FIXED
    )
    assert ten.fixed_match and ten.best_of == 10
    odd = registration.add_stage(
        category=category,
        name="Swiss",
        kind="swiss",
        games_per_entry=3,
        best_of=3,
        match_format=FIXED,
    )
    assert odd.fixed_match

    even_best_of = refusal(
        registration.add_stage, category=category, name="X", kind="round-robin", best_of=10
    )
    assert "Best of N needs an odd N" in even_best_of["best_of"][0]
    assert "a fixed match of N games may have an even N" in even_best_of["best_of"][0]
    knockout = refusal(
        registration.add_stage,
        category=category,
        name="Final",
        kind="knockout",
        best_of=3,
        match_format=FIXED,
    )
    assert "A knockout match must have a winner" in knockout["match_format"][0]
    assert "play the knockout best of N" in knockout["match_format"][0]
    for games, words in ((0, "at least 1 game"), (16, "at most 15 games, not 16")):
        refused = refusal(
            registration.add_stage,
            category=category,
            name="X",
            kind="round-robin",
            best_of=games,
            match_format=FIXED,
        )
        assert words in refused["best_of"][0]
    unknown = refusal(
        registration.add_stage,
        category=category,
        name="X",
        kind="round-robin",
        match_format="first-to-6",
    )
    assert "match_format" in unknown
    assert category.stages.count() == 2


def test_a_knockout_cannot_become_fixed_and_a_drawn_stage_keeps_its_format():
    category = CategoryFactory()
    final = registration.add_stage(category=category, name="Final", kind="knockout", best_of=3)
    refused = refusal(registration.update_stage, stage=final, match_format=FIXED)
    assert "A knockout match must have a winner" in refused["match_format"][0]
    pools = registration.add_stage(
        category=category, name="Pools", kind="round-robin", best_of=4, match_format=FIXED
    )
    # A fixed stage of 4 games cannot turn into a best of 4 (an even best of N).
    assert (
        "odd N"
        in refusal(registration.update_stage, stage=pools, match_format="best-of")["best_of"][0]
    )
    for _ in range(2):
        EntryFactory(category=category)
    draw_stage(pools)
    drawn = refusal(registration.update_stage, stage=pools, match_format="best-of", best_of=3)
    assert "is drawn already" in next(iter(drawn.values()))[0]
    pools.refresh_from_db()
    assert (pools.match_format, pools.best_of) == (FIXED, 4)


# --- the draw, the results, the standings ------------------------------------------------------


def _fixed_round_robin(entries: int, games: int) -> Stage:
    category = CategoryFactory()
    for n in range(entries):
        EntryFactory(category=category, player__last_name=f"Player{n}")
    stage = registration.add_stage(
        category=category, name="Pools", kind="round-robin", best_of=games, match_format=FIXED
    )
    draw_stage(stage)
    return stage


def test_a_fixed_ten_game_round_robin_plays_every_game_and_counts_the_points():
    """Four entries, six matches of 10 games. In every match entry A wins six games 6-2 and
    entry B four games 8-0: A wins more games (6-4) but B more points (44-36), so B wins the
    match; the standings count every game's points and 20s."""
    stage = _fixed_round_robin(4, 10)
    matches = list(Match.objects.filter(stage=stage).order_by("id"))
    assert len(matches) == 6
    for match in matches:
        games = list(match.games.order_by("number"))
        assert [g.number for g in games] == list(range(1, 11))
        # The sides take turns to shoot first, game after game.
        assert [g.first_side for g in games[:3]] == ["a", "b", "a"]
        assert not any(g.is_playoff for g in games)

    first = matches[0]
    for game in first.games.order_by("number")[:9]:
        record_game(game, A_WINS_6_2 if game.number <= 6 else B_WINS_8_0)
    nine = match_outcome(first)
    # 36-36 after nine games, six games to three: level, yet not a draw, the 10th is to play.
    assert nine.points == (36, 36) and nine.wins == (6, 3)
    assert not nine.complete and nine.winner is None
    assert first in unfinished_matches(stage)
    record_game(first.games.get(number=10), B_WINS_8_0)
    ten = match_outcome(first)
    assert ten.complete and ten.winner == "b" and ten.wins == (6, 4) and ten.points == (36, 44)

    for match in matches[1:]:
        for game in match.games.order_by("number"):
            record_game(game, A_WINS_6_2 if game.number <= 6 else B_WINS_8_0)
    assert unfinished_matches(stage) == []

    standings = stage_standings(stage)
    by_entry = {line.entry.id: line for line in standings.lines}
    assert len(by_entry) == 4
    for entry_id, line in by_entry.items():
        as_a = sum(m.entry_a_id == entry_id for m in matches)
        as_b = sum(m.entry_b_id == entry_id for m in matches)
        assert as_a + as_b == 3
        assert line.games == 30
        assert line.points == 36 * as_a + 44 * as_b
        assert line.twenties == 24 * as_a + 24 * as_b  # one 20 a round each in A's wins
    assert [line.points for line in standings.lines] == sorted(
        (line.points for line in standings.lines), reverse=True
    )

    row = next(r for r in round_schedule(stage, first.round_of_play).rows if r.match == first)
    # The points decide a fixed match, so the schedule leads with them, then each game's.
    games = ", ".join(["6\u20132"] * 6 + ["0\u20138"] * 4)
    assert row.result == f"36\u201344 ({games})"
    assert row.winner == "b"


def test_a_fixed_match_drawn_on_points_is_over_without_a_winner():
    stage = _fixed_round_robin(2, 2)
    match = Match.objects.get(stage=stage)
    record_game(match.games.get(number=1), A_WINS_6_2)
    record_game(
        match.games.get(number=2), [round_data(points=(0, 2))] * 3 + [round_data(points=(2, 0))]
    )
    outcome = match_outcome(match)
    assert outcome.complete and outcome.winner is None and outcome.points == (8, 8)
    lines = stage_standings(stage).lines
    assert [line.points for line in lines] == [8, 8]


def test_every_game_left_in_a_fixed_match_is_a_walkover_that_counts():
    """A withdrawal turns the games left into walkovers; in a best of 3 those after the match
    was decided count for nothing, in a fixed match none is "not needed"."""
    stage = _fixed_round_robin(2, 3)
    match = Match.objects.get(stage=stage)
    record_game(match.games.get(number=1), B_WINS_8_0)
    withdraw_entry(entry=match.entry_b)
    outcome = match_outcome(match)
    assert [g.walkover for g in outcome.games] == [False, True, True]
    assert outcome.complete and outcome.winner == "a" and outcome.wins == (2, 1)
    bye = stage.bye_points
    assert outcome.points == (2 * bye, 8)


def test_a_fixed_preliminary_draws_all_n_games_of_each_pairing():
    category = CategoryFactory()
    for _ in range(4):
        EntryFactory(category=category)
    stage = registration.add_stage(
        category=category,
        name="Prelims",
        kind="preliminary",
        games_per_entry=1,
        best_of=2,
        match_format=FIXED,
    )
    draw_stage(stage)
    counts = {m.games.count() for m in Match.objects.filter(stage=stage, entry_b__isnull=False)}
    assert counts == {2}
    best_of = StageFactory(category=category, order=2, games_per_entry=1)
    draw_stage(best_of)
    assert Game.objects.filter(match__stage=best_of).count() == 2  # one game a pairing


# --- the organizer's page ----------------------------------------------------------------------


def stage_post(**overrides) -> dict:
    data = {
        "name": "Pools",
        "kind": "round-robin",
        "order": "",
        "advance_count": "",
        "games_per_entry": "",
        "match_format": "fixed",
        "best_of": 10,
        "bye_points": 8,
        "seed": 1,
        "tiebreak": "default",
    }
    return data | overrides


@pytest.fixture
def organizer_client(client):
    tournament = TournamentFactory(slug="fixed-open")
    category = CategoryFactory(tournament=tournament, name="Singles")
    user = User.objects.create_user("olga")
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    client.force_login(user)
    return client, tournament, category


def test_the_stage_form_offers_both_formats_and_any_number_of_games():
    form = StageForm(next_order=1)
    html = str(form["match_format"])
    assert 'type="radio"' in html and 'value="best-of"' in html and 'value="fixed"' in html
    games = str(form["best_of"])
    assert 'min="1"' in games and 'max="15"' in games and "step" not in games
    assert StageForm(stage_post(), next_order=1).is_valid()
    too_many = StageForm(stage_post(best_of=16), next_order=1)
    assert not too_many.is_valid() and "best_of" in too_many.errors
    # A form sent without the format keeps best of N.
    old = StageForm(stage_post(match_format="", best_of=3), next_order=1)
    assert old.is_valid() and old.stage_fields()["match_format"] == "best-of"


def test_the_organizer_adds_a_fixed_stage_and_is_told_what_is_wrong(organizer_client):
    client, tournament, category = organizer_client
    create = reverse("tournaments:manage-stage-create", args=[tournament.slug, category.pk])
    page = reverse("tournaments:manage-category", args=[tournament.slug, category.pk])

    knockout = client.post(create, stage_post(kind="knockout", name="Final"))
    assert knockout.status_code == 400
    assert "A knockout match must have a winner" in knockout.content.decode()
    even = client.post(create, stage_post(match_format="best-of"))
    assert even.status_code == 400 and "Best of N needs an odd N" in even.content.decode()
    assert not category.stages.exists()

    added = client.post(create, stage_post())
    assert added.status_code == 302
    stage = category.stages.get()
    assert (stage.match_format, stage.best_of) == (FIXED, 10)
    assert "fixed match of 10 games" in client.get(page).content.decode()
    edit = reverse("tournaments:manage-stage-edit", args=[tournament.slug, stage.pk])
    radios = re.findall(r'<input type="radio" name="match_format"[^>]*>', client.get(edit).text)
    assert [("checked" in r, 'value="fixed"' in r) for r in radios] == [
        (False, False),
        (True, True),
    ]


# --- the API -----------------------------------------------------------------------------------


def test_the_api_accepts_a_fixed_match_and_refuses_bad_ones_with_words(db):
    olga = User.objects.create_user("olga", password="pw-olga")
    allow_creating_tournaments(olga)
    tournament = create_tournament(name="Api Open", slug="api-open", user=olga)
    category = CategoryFactory(tournament=tournament)
    client = APIClient()
    client.force_authenticate(olga)

    def post(**fields):
        body = {"category": category.id, "name": "Pools", "kind": "round-robin"} | fields
        return client.post("/api/stages/", body, format="json")

    created = post(match_format="fixed", best_of=10)
    assert created.status_code == 201, created.json()
    assert created.json()["match_format"] == "fixed" and created.json()["best_of"] == 10
    listed = client.get(f"/api/stages/{created.json()['id']}/").json()
    assert listed["match_format"] == "fixed"

    knockout = post(kind="knockout", name="Final", order=2, match_format="fixed", best_of=3)
    assert knockout.status_code == 400
    assert "A knockout match must have a winner" in knockout.json()["match_format"][0]
    even = post(order=2, best_of=4)
    assert even.status_code == 400 and "odd N" in even.json()["best_of"][0]
    none = post(order=2, match_format="fixed", best_of=0)
    assert none.status_code == 400 and "at least 1 game" in none.json()["best_of"][0]
    many = post(order=2, match_format="fixed", best_of=40)
    assert many.status_code == 400 and "at most 15 games" in many.json()["best_of"][0]
    unknown = post(order=2, match_format="sometimes")
    assert unknown.status_code == 400 and "sometimes" in unknown.json()["match_format"][0]

    stage_id = created.json()["id"]
    to_best_of = client.patch(f"/api/stages/{stage_id}/", {"match_format": "best-of"})
    assert to_best_of.status_code == 400 and "odd N" in to_best_of.json()["best_of"][0]
    assert (
        client.patch(
            f"/api/stages/{stage_id}/", {"match_format": "best-of", "best_of": 9}, format="json"
        ).json()["match_format"]
        == "best-of"
    )
    assert Stage.objects.filter(category=category).count() == 1
