"""Shoot-outs where they happen, and standings that say only what is true before and during play.

Issue 9: a referee or the scoring table records each tied entry's 20s (12 shots; 6 each in
doubles) from the cut-line message or the standings, again while still tied, and advancing then
works, in the pages and the API alike. A shoot-out is asked for only after play and only where
the tie decides something (the cut line, the places the event awards), never among the 67th and
68th. Before a game, no bye is credited, nobody is shaded as advancing, no shoot-out is asked.
"""

from __future__ import annotations

import re

import pytest
from django.db.models import Q
from django.urls import reverse

from scoring.engine import round_data
from scoring.models import ShootOut, ShootOutScore
from scoring.progression.services import CutLineTieError, advance, record_shootout
from scoring.results.services import record_game
from scoring.standings.selectors import AWARDED_PLACES, stage_standings
from tests.events import ANONYMOUS, ROLES, build_small_event
from tests.factories import (
    CategoryFactory,
    EntryFactory,
    StageFactory,
    TournamentFactory,
    TournamentRoleFactory,
)
from tournaments.models import Match, Stage, TournamentRole
from tournaments.services.draws import draw_stage

pytestmark = pytest.mark.django_db

#: Who may record a shoot-out ("a referee or the table"; the head referee is a referee).
MAY_RECORD = {"head-referee", "referee", "scoring-table"}


def spread(total: int) -> list[int]:
    """``total`` 20s over four rounds, at most 8 a round."""
    out = []
    for _ in range(4):
        out.append(min(8, total))
        total -= out[-1]
    return out


def record(match: Match, winner: str | None, twenties=(0, 0)) -> None:
    """Game 1 of ``match``: ``winner`` ("a"/"b") takes every round, None ties every round."""
    points = {"a": (2, 0), "b": (0, 2), None: (1, 1)}[winner]
    ta, tb = spread(twenties[0]), spread(twenties[1])
    record_game(
        match.games.get(number=1),
        [round_data(points=points, twenties=(ta[i], tb[i])) for i in range(4)],
    )


def played(stage: Stage):
    return list(Match.objects.filter(stage=stage, entry_b__isnull=False).order_by("id"))


@pytest.fixture
def tied_event():
    """Six players, one game each, every game tied with two 20s a side: all six share first
    place and four advance to a final: a tie across the cut, settled by a shoot-out."""
    event = build_small_event(players=6, games_per_entry=1)
    StageFactory(category=event.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
    for match in played(event.stage):
        record(match, None, (2, 2))
    return event


def shootout_url(event) -> str:
    return reverse("scoring:shootout", args=[event.tournament.slug, event.stage.id])


def form_data(event, made: dict) -> dict:
    """The posted shoot-out form for the group of ``made``'s entries (singles: a box each)."""
    key = "-".join(str(i) for i in sorted(e.id for e in made))
    data = {f"g{key}-group": key}
    data |= {f"g{key}-e{entry.id}": str(n) for entry, n in made.items()}
    return data


# --- the standings before and during play ----------------------------------------------------


def test_before_play_no_bye_is_credited_nobody_advances_and_no_shootout_is_asked():
    """Five players, two rounds: a bye each round. Before a game nothing is credited; after
    round 1 only round 1's bye counts; shading starts with the first result."""
    tournament = TournamentFactory()
    category = CategoryFactory(tournament=tournament)
    for n in range(5):
        EntryFactory(category=category, player__last_name=f"P{n}")
    stage = StageFactory(
        category=category,
        name="Preliminary",
        kind=Stage.Kind.PRELIMINARY,
        order=1,
        games_per_entry=2,
        advance_count=2,
        bye_points=8,
        bye_twenties=3,
    )
    StageFactory(category=category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
    draw_stage(stage, method="rotation")
    byes = {m.round_of_play: m.entry_a_id for m in Match.objects.filter(stage=stage, entry_b=None)}
    assert sorted(byes) == [1, 2]

    before = stage_standings(stage)
    assert [(line.games, line.points, line.twenties) for line in before.lines] == [(0, 0, 0)] * 5
    assert not any(line.advances for line in before.lines)
    assert before.shootouts_required == []  # five entries level on nothing: not asked

    for match in Match.objects.filter(stage=stage, round_of_play=1, entry_b__isnull=False):
        record(match, "a", (3, 1))
    during = {line.entry.id: line for line in stage_standings(stage).lines}
    assert (during[byes[1]].games, during[byes[1]].points, during[byes[1]].twenties) == (1, 8, 3)
    # the entry sitting out round 2 has played round 1 only: its bye is not counted yet
    first = Match.objects.get(Q(entry_a=byes[2]) | Q(entry_b=byes[2]), stage=stage, round_of_play=1)
    assert during[byes[2]].games == 1
    assert during[byes[2]].points == (8 if first.entry_a_id == byes[2] else 0)
    assert sum(line.advances for line in during.values()) >= 2

    for match in Match.objects.filter(stage=stage, round_of_play=2, entry_b__isnull=False):
        record(match, "a", (3, 1))
    after = {line.entry.id: line for line in stage_standings(stage).lines}
    assert after[byes[2]].games == 2
    assert after[byes[2]].points == 8 + during[byes[2]].points


def test_a_tie_is_asked_for_only_once_every_match_is_played(tied_event):
    stage = tied_event.stage
    last = played(stage)[-1]
    last.games.get(number=1).rounds.all().delete()
    partial = stage_standings(stage)
    assert partial.shootouts_required == []
    assert all(line.advances for line in partial.lines if line.rank <= 4)
    record(last, None, (2, 2))
    assert [len(g) for g in stage_standings(stage).shootouts_required] == [6]


BOTTOM_TIES = [(5, 1), (4, 1), (3, 0), (2, 0)]


def bottom_tie_stage(advance_count: int, *, next_kind: str | None, results=BOTTOM_TIES):
    """Eight players, one game each, won by entry A with the 20s given (winner's, loser's):
    by default the winners on 8 points with 5, 4, 3, 2 20s, the losers on none with 1, 1, 0,
    0: the two bottom pairs tied (ranks 5-6 and 7-8)."""
    category = CategoryFactory(tournament=TournamentFactory())
    for n in range(8):
        EntryFactory(category=category, player__last_name=f"P{n}")
    stage = StageFactory(
        category=category,
        name="Preliminary",
        kind=Stage.Kind.PRELIMINARY,
        order=1,
        games_per_entry=1,
        advance_count=advance_count,
    )
    if next_kind:
        StageFactory(category=category, name="Next", kind=next_kind, order=2)
    draw_stage(stage, method="rotation")
    for match, (win, lose) in zip(played(stage), results, strict=True):
        record(match, "a", (win, lose))
    return stage


def test_a_tie_below_the_cut_is_shared_never_shot_out():
    """The 67th and 68th (here the 7th and 8th, and the 5th and 6th) share their places."""
    stage = bottom_tie_stage(2, next_kind=Stage.Kind.PRELIMINARY)
    standings = stage_standings(stage)
    assert [line.rank for line in standings.lines] == [1, 2, 3, 4, 5, 5, 7, 7]
    assert standings.shootouts_required == []
    advance(stage)  # nothing to settle: it advances


def test_a_tie_across_the_cut_is_asked_for():
    stage = bottom_tie_stage(5, next_kind=Stage.Kind.PRELIMINARY)
    groups = stage_standings(stage).shootouts_required
    assert [line.rank for line in stage_standings(stage).lines][4:6] == [5, 5]
    assert len(groups) == 1 and len(groups[0]) == 2
    with pytest.raises(CutLineTieError):
        advance(stage)


def test_a_last_stage_shoots_out_only_for_the_places_it_awards():
    """No next stage: a tie on the podium (places 1 to 3) is asked for, one below it is not."""
    stage = bottom_tie_stage(0, next_kind=None)
    assert stage_standings(stage).shootouts_required == []  # ties at 5 and 7 only
    stage = bottom_tie_stage(0, next_kind=None, results=[(5, 1), (3, 1), (3, 0), (2, 0)])
    lines = stage_standings(stage).lines
    assert [line.rank for line in lines][:4] == [1, 2, 2, 4]
    required = stage_standings(stage).shootouts_required
    assert [{e.id for e in g} for g in required] == [{lines[1].entry.id, lines[2].entry.id}]
    assert AWARDED_PLACES == 3


# --- the shoot-out page ----------------------------------------------------------------------


def test_the_table_records_a_shootout_again_while_tied_and_then_advance_works(client, tied_event):
    event = tied_event
    entries = list(Match.objects.filter(stage=event.stage).values_list("entry_a", "entry_b"))
    ids = sorted(i for pair in entries for i in pair)
    by_id = {e.id: e for e in event.entries}
    client.force_login(event.users["scoring-table"])
    page = client.get(shootout_url(event))
    assert page.status_code == 200
    for entry in event.entries:
        assert entry.name in page.content.decode()

    # a box out of range: refused, nothing saved
    made = {by_id[i]: 13 for i in ids}
    refused = client.post(shootout_url(event), form_data(event, made))
    assert refused.status_code == 400 and ShootOut.objects.count() == 0

    made = dict(zip([by_id[i] for i in ids], [10, 10, 10, 5, 4, 3], strict=True))
    response = client.post(shootout_url(event), form_data(event, made), follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Shoot-out recorded" in text and "Shoot-out 1" in text
    # three still tied for two places: asked again, among them only
    still = stage_standings(event.stage).shootouts_required
    assert [{e.id for e in g} for g in still] == [set(ids[:3])]
    with pytest.raises(CutLineTieError):
        advance(event.stage)

    again = {by_id[i]: n for i, n in zip(ids[:3], [9, 8, 2], strict=True)}
    response = client.post(shootout_url(event), form_data(event, again), follow=True)
    assert "No tie is waiting" in response.content.decode()
    # the same form sent twice (a double tap): the tie is settled, nothing more is recorded
    twice = client.post(shootout_url(event), form_data(event, again), follow=True)
    assert "no longer waiting" in twice.content.decode() and ShootOut.objects.count() == 2
    final = advance(event.stage)
    assert Match.objects.filter(stage=final).count() == 2


def test_the_standings_link_to_the_shootout_page_for_those_who_record_it(client, tied_event):
    url = reverse("scoring:standings", args=[tied_event.tournament.slug, tied_event.stage.id])
    assert "Record the shoot-out" not in client.get(url).content.decode()  # public
    client.force_login(tied_event.users["referee"])
    text = client.get(url).content.decode()
    assert "Shoot-out required" in text and shootout_url(tied_event) in text


def test_the_cut_line_refusal_leads_to_the_shootout_page(client, tied_event):
    tied_event.login(client, "organizer")
    response = client.post(
        reverse(
            "tournaments:manage-stage-advance",
            args=[tied_event.tournament.slug, tied_event.stage.id],
        ),
        follow=True,
    )
    text = response.content.decode()
    assert "tie sits on the cut line" in text
    assert f'href="{shootout_url(tied_event)}"' in text
    # the shoot-out stage the refusal created leads to the same sheet
    called = Stage.objects.get(category=tied_event.category, kind=Stage.Kind.SHOOTOUT)
    assert "Record the shoot-out" in text
    tied_event.login(client, "scoring-table")
    sheet = client.get(reverse("scoring:shootout", args=[tied_event.tournament.slug, called.id]))
    assert sheet.status_code == 200
    assert all(e.name in sheet.content.decode() for e in tied_event.entries)


@pytest.mark.parametrize("role", ROLES)
def test_who_may_record_a_shootout_on_the_page_and_in_the_api(client, tied_event, role):
    event = tied_event
    event.login(client, role)
    made = {e: n for e, n in zip(event.entries, [9, 8, 7, 6, 5, 4], strict=True)}
    page = client.post(shootout_url(event), form_data(event, made))
    api = client.post(
        reverse("api:stage-shootouts", args=[event.stage.id]),
        {"scores": [{"entry": e.id, "twenties": n} for e, n in made.items()]},
        content_type="application/json",
    )
    if role in MAY_RECORD:
        assert page.status_code == 302
        assert api.status_code == 409  # the tie is settled by the page's shoot-out already
        assert api.json()["detail"] == "Settled: no tie waits for a shoot-out."
        assert ShootOut.objects.count() == 1
    else:
        if role == ANONYMOUS:
            assert page.status_code == 302 and "/login/" in page["Location"]
            assert api.status_code in (401, 403)
        else:
            assert page.status_code == 403
            assert api.status_code == 403
            assert "referee" in api.json()["detail"]
        assert ShootOut.objects.count() == 0
    assert event.users[role].has_perm("scoring.record_shootout", event.stage) is (
        role in MAY_RECORD
    )


# --- the API ---------------------------------------------------------------------------------


def test_the_api_lists_the_ties_and_records_a_shootout(client, tied_event):
    event = tied_event
    url = reverse("api:stage-shootouts", args=[event.stage.id])
    sheet = client.get(url).json()  # public, like the standings
    assert [len(g["entries"]) for g in sheet["waiting"]] == [6]
    assert sheet["shots_per_entry"] == 12 and sheet["recorded"] == []

    client.force_login(event.users["referee"])
    wrong = client.post(
        url,
        {"scores": [{"entry": e.id, "twenties": 5} for e in event.entries[:2]]},
        content_type="application/json",
    )
    assert wrong.status_code == 400 and "not one group still tied" in wrong.json()["detail"]
    too_many = client.post(
        url,
        {"scores": [{"entry": e.id, "twenties": 13} for e in event.entries]},
        content_type="application/json",
    )
    assert too_many.status_code == 400 and ShootOut.objects.count() == 0

    made = [9, 8, 7, 6, 5, 4]
    response = client.post(
        url,
        {
            "scores": [
                {"entry": e.id, "twenties": n} for e, n in zip(event.entries, made, strict=True)
            ]
        },
        content_type="application/json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["waiting"] == []
    assert [s["twenties"] for s in body["recorded"][0]["scores"]] == made
    assert advance(event.stage).kind == Stage.Kind.KNOCKOUT


def test_doubles_partners_each_have_six_shots_added_up_for_the_team(client):
    """WCC: "12 opportunities (6 each for doubles)": a box per partner, 0 to 6, the team's 20s
    their sum."""
    category = CategoryFactory(tournament=TournamentFactory(), doubles=True)
    teams = [EntryFactory(doubles=True, category=category) for _ in range(4)]
    stage = StageFactory(
        category=category,
        name="Preliminary",
        kind=Stage.Kind.PRELIMINARY,
        order=1,
        games_per_entry=1,
        advance_count=2,
    )
    StageFactory(category=category, name="Next", kind=Stage.Kind.PRELIMINARY, order=2)
    draw_stage(stage, method="rotation")
    for match in played(stage):
        record(match, None, (2, 2))
    referee = TournamentRoleFactory(
        tournament=category.tournament, role=TournamentRole.Role.REFEREE
    ).user
    client.force_login(referee)
    url = reverse("scoring:shootout", args=[category.tournament.slug, stage.id])
    page = client.get(url).content.decode()
    key = "-".join(str(t.id) for t in sorted(teams, key=lambda t: t.id))
    for team in teams:
        assert f'name="g{key}-e{team.id}_1"' in page and f'name="g{key}-e{team.id}_2"' in page
        assert team.team.player_two.full_name in page

    def boxes(first: int) -> dict:
        data = {f"g{key}-group": key}
        for n, team in enumerate(teams):
            data[f"g{key}-e{team.id}_1"] = str(first if n == 0 else n)
            data[f"g{key}-e{team.id}_2"] = "6"
        return data

    assert client.post(url, boxes(7)).status_code == 400  # 7 of 6 shots
    assert ShootOut.objects.count() == 0
    assert client.post(url, boxes(6)).status_code == 302
    made = dict(ShootOutScore.objects.values_list("entry_id", "twenties"))
    assert made == {teams[0].id: 12, teams[1].id: 7, teams[2].id: 8, teams[3].id: 9}
    assert stage_standings(stage).shootouts_required == []


def test_a_settled_shootout_stage_no_longer_asks_for_its_shootout(client, tied_event):
    """Once the tie is settled, the category page says so instead of "Record the shoot-out";
    the hall screen's help and the paper-entry page never offer the shoot-out stage, which has
    no games nor cards (its shots are recorded on their own page)."""
    event = tied_event
    slug = event.tournament.slug
    with pytest.raises(CutLineTieError):
        advance(event.stage)
    called = Stage.objects.get(category=event.category, kind=Stage.Kind.SHOOTOUT)
    record_link = reverse("scoring:shootout", args=[slug, called.id])
    category_page = reverse("tournaments:manage-category", args=[slug, event.category.id])
    event.login(client, "organizer")
    assert record_link in client.get(category_page).content.decode()

    made = {e: n for e, n in zip(event.entries, [9, 8, 7, 6, 5, 4], strict=True)}
    record_shootout(event.stage, made, user=event.users["referee"])
    page = client.get(category_page).content.decode()
    assert record_link not in page
    assert "Settled: no tie waits for a shoot-out." in page
    assert reverse("tournaments:schedule", args=[slug, called.id]) in page

    help_page = client.get(reverse("tournaments:screen_help", args=[slug])).content.decode()
    assert f"stage={event.stage.id}" in help_page and f"stage={called.id}" not in help_page
    event.login(client, "scoring-table")
    paper = client.get(reverse("scoring:cards:paper", args=[slug])).content.decode()
    stages = re.search(r'<select name="stage".*?</select>', paper, re.S).group(0)
    assert f'value="{event.stage.id}"' in stages and f'value="{called.id}"' not in stages
