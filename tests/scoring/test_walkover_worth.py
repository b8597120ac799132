"""What a walkover, a bye and a forfeited game are worth, as the category's scoring system says
(``scoring.results.rules.unplayed_game``): in the results, the standings, the board list and on
the organizer's stage form.

The rulebooks give no walkover score. A played win in a game to 100 by differences (family
rulebook, Scoring 5-6) is worth 100 or more, and its loser ends short of 100: a walkover credited
the 8 points of an NCA bye ranked its winner below players who lost at the board.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.results.outcomes import stage_outcomes
from scoring.results.schedule import round_schedule
from scoring.results.services import record_game
from scoring.rulings import services as rulings
from scoring.standings.selectors import stage_standings
from tests.events import SmallEvent
from tests.factories import CategoryFactory, EntryFactory, TournamentFactory
from tournaments.models import Category, Entry, Match, Stage, TournamentRole
from tournaments.services.draws import draw_stage

pytestmark = pytest.mark.django_db

#: A game to 100 that side A wins 110-95: B takes round 1 by 95, A round 2 by 110.
WON_110_TO_95 = [
    {"score": [0, 95], "twenties": [0, 0]},
    {"score": [110, 0], "twenties": [0, 0]},
]


def line_of(standings, entry: Entry):
    return next(line for line in standings.lines if line.entry.id == entry.id)


@pytest.fixture
def to_100(small_event: SmallEvent) -> SmallEvent:
    """The small event with its category scored by differences, to 100; its stage keeps the
    default bye points (8), a figure for NCA games."""
    small_event.category.scoring_system = Category.ScoringSystem.DIFFERENCE_TO_100
    small_event.category.save(update_fields=["scoring_system"])
    return small_event


def played_round_one(event: SmallEvent, *absent: Entry) -> list[Match]:
    """Every other match of round 1 played: entry A wins 110-95."""
    ids = {e.id for e in absent}
    matches = [
        m
        for m in Match.objects.filter(stage=event.stage, round_of_play=1)
        if m.entry_a_id not in ids and m.entry_b_id not in ids
    ]
    for match in matches:
        record_game(match.games.get(), WON_110_TO_95)
    return matches


def test_a_walkover_to_100_ranks_above_every_player_who_lost_at_the_board(to_100):
    player, opponent = to_100.player, to_100.opponent
    rulings.withdraw(entry=opponent, user=to_100.users["organizer"])
    played = played_round_one(to_100, player, opponent)
    assert len(played) == 2
    walkover = stage_outcomes(to_100.stage)[to_100.match.id]
    assert walkover.by_walkover and walkover.winner == "a"
    assert walkover.games[0].points == (100, 0)

    standings = stage_standings(to_100.stage)
    mine = line_of(standings, player)
    assert (mine.games, mine.points, mine.walkovers) == (1, 100, 1)
    assert line_of(standings, opponent).points == 0
    losers = [line_of(standings, Entry.objects.get(pk=m.entry_b_id)) for m in played]
    assert [line.points for line in losers] == [95, 95]
    assert all(mine.rank < line.rank for line in losers)
    winners = [line_of(standings, Entry.objects.get(pk=m.entry_a_id)) for m in played]
    assert [line.points for line in winners] == [110, 110]
    assert all(line.rank < mine.rank for line in winners)
    assert Stage.objects.get(pk=to_100.stage.pk).bye_points == 8  # kept, and not read


def test_the_head_referees_forfeit_of_a_game_to_100_is_won_100_0(client, to_100):
    record_game(to_100.game, WON_110_TO_95[:1])  # 0-95 so far: the opponent leads
    page = to_100.login(client, "head-referee").get(
        reverse("scoring:rulings:game", args=[to_100.tournament.slug, to_100.game.id])
    )
    assert "wins the game with what a walkover is worth (100 points)" in page.content.decode()
    rulings.forfeit_game(
        game=to_100.game, side="b", reason="coaching", user=to_100.users["head-referee"]
    )
    outcome = stage_outcomes(to_100.stage)[to_100.match.id]
    assert outcome.winner == "a" and outcome.games[0].points == (100, 0)


def test_a_bye_to_100_is_a_game_won_100_0_in_the_standings_and_on_the_board_list(client):
    tournament = TournamentFactory(published=True)
    category = CategoryFactory(
        tournament=tournament, scoring_system=Category.ScoringSystem.DIFFERENCE_TO_100
    )
    entries = [EntryFactory(category=category) for _ in range(5)]
    stage = Stage.objects.create(
        category=category, name="Preliminary", kind="preliminary", order=1, games_per_entry=1
    )
    draw_stage(stage, method="rotation")
    bye = Match.objects.get(stage=stage, entry_b__isnull=True)
    played = list(Match.objects.filter(stage=stage, entry_b__isnull=False))
    for match in played:
        record_game(match.games.get(), WON_110_TO_95)
    lines = {line.entry.id: line for line in stage_standings(stage).lines}
    assert len(lines) == len(entries)
    sat_out = lines[bye.entry_a_id]
    assert (sat_out.games, sat_out.points) == (1, 100)
    assert all(sat_out.rank < lines[m.entry_b_id].rank for m in played)
    assert round_schedule(stage, 1).bye_credit.winner == 100
    page = client.get(reverse("tournaments:round", args=[tournament.slug, stage.id, 1]))
    assert "Bye (credited 100 points):" in page.content.decode()


# --- the stage form ------------------------------------------------------------------------


def input_tag(html: str, name: str) -> str:
    tag = re.search(rf'<input[^>]*\bname="{name}"[^>]*>', html)
    assert tag, f"no input named {name}"
    return tag.group(0)


@pytest.fixture
def organizer(client, small_event: SmallEvent):
    return small_event.login(client, str(TournamentRole.Role.ORGANIZER))


def category_page(client, event: SmallEvent) -> str:
    url = reverse("tournaments:manage-category", args=[event.tournament.slug, event.category.pk])
    return client.get(url).content.decode()


def test_an_nca_stage_form_says_a_bye_is_a_game_won_8_0_and_lets_the_stage_change_it(
    organizer, small_event
):
    page = category_page(organizer, small_event)
    tag = input_tag(page, "bye_points")
    assert 'value="8"' in tag and "disabled" not in tag
    assert "Points for a bye or a walkover" in page
    assert "By default a bye or a walkover counts as a game won 8-0, all 4 rounds won." in page
    small_event.category.rounds_per_game = 3
    small_event.category.save(update_fields=["rounds_per_game"])
    assert 'value="6"' in input_tag(category_page(organizer, small_event), "bye_points")


def test_a_stage_form_to_100_shows_the_systems_value_and_takes_none(organizer, to_100):
    page = category_page(organizer, to_100)
    tag = input_tag(page, "bye_points")
    assert 'value="100"' in tag and "disabled" in tag
    assert "A bye or a walkover counts as a game won 100-0" in page
    create = reverse(
        "tournaments:manage-stage-create", args=[to_100.tournament.slug, to_100.category.pk]
    )
    answer = organizer.post(
        create,
        {
            "name": "Playoff",
            "kind": "round-robin",
            "order": "",
            "best_of": 1,
            "bye_points": 3,
            "seed": 1,
            "tiebreak": "default",
        },
    )
    assert answer.status_code == 302
    added = to_100.category.stages.get(name="Playoff")
    assert added.bye_points == 8  # not what the page sent: the system sets it


def test_a_drawn_stage_to_100_is_renamed_without_touching_its_bye_points(organizer, to_100):
    stage = to_100.stage
    edit = reverse("tournaments:manage-stage-edit", args=[to_100.tournament.slug, stage.pk])
    form = organizer.get(edit).context["form"]
    assert form["bye_points"].value() == 100 and form.fields["bye_points"].disabled
    sent = {
        name: value
        for name, value in {
            **{f: form[f].value() for f in form.fields},
            "name": "Round of six",
        }.items()
        if value is not None
    }
    answer = organizer.post(edit, sent)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    stage.refresh_from_db()
    assert (stage.name, stage.bye_points) == ("Round of six", 8)
