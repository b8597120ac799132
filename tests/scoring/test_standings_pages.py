"""Standings pages and the selectors behind them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.engine import round_data
from scoring.models import ShootOut, ShootOutScore
from scoring.results.services import record_game
from scoring.standings.selectors import stage_standings
from tests.factories import CategoryFactory, EntryFactory, StageFactory
from tournaments.demo import DEMO_SLUG, load_demo
from tournaments.models import Game, Match

pytestmark = pytest.mark.django_db


def play(stage, a, b, rounds):
    match = Match.objects.create(stage=stage, entry_a=a, entry_b=b)
    game = Game.objects.create(match=match, number=1)
    record_game(game, [round_data(points=p, twenties=t) for p, t in rounds])


def small_stage(players: int):
    stage = StageFactory(games_per_entry=1)
    entries = [EntryFactory(category=stage.category) for _ in range(players)]
    for i in range(0, players - 1, 2):
        play(stage, entries[i], entries[i + 1], [((2, 0), (3, 1))] * 2 + [((1, 1), (0, 0))] * 2)
    return stage, entries


@pytest.mark.slow
def test_home_page_shows_the_demo_standings(client):
    load_demo()
    front = client.get("/").content.decode()
    assert f'href="/t/{DEMO_SLUG}/"><strong>Demo Club Open</strong>' in front
    response = client.get(f"/t/{DEMO_SLUG}/")  # the tournament's own home
    assert response.status_code == 200
    body = response.content.decode()
    assert "Demo Club Open" in body
    assert "<svg" in body and "standings-chart" in body
    standings = stage_standings(
        Match.objects.filter(stage__category__tournament__slug=DEMO_SLUG).first().stage
    )
    leader = standings.lines[0]
    assert leader.entry.name in body
    assert [line.points for line in standings.lines] == sorted(
        (line.points for line in standings.lines), reverse=True
    )
    assert sum(line.games for line in standings.lines) == 12 * 4


def test_stage_page_and_htmx_partial(client):
    stage, _ = small_stage(4)
    url = reverse("scoring:standings", args=[stage.category.tournament.slug, stage.id])
    full = client.get(url)
    assert full.status_code == 200 and b"hx-trigger" in full.content
    partial = client.get(url, headers={"HX-Request": "true"})
    assert partial.status_code == 200
    assert b"<html" not in partial.content and b"<table" in partial.content


def test_unknown_stage_is_404_not_500(client):
    stage, _ = small_stage(2)
    url = reverse("scoring:standings", args=[stage.category.tournament.slug, stage.id + 999])
    assert client.get(url).status_code == 404


def test_standings_rank_by_points_then_twenties(client):
    """WCC Tie-Breaking Procedure, preliminary rounds: the higher number of 20s places higher."""
    stage = StageFactory()
    a, b, c, d = (EntryFactory(category=stage.category) for _ in range(4))
    play(stage, a, b, [((2, 0), (2, 0)), ((0, 2), (0, 1)), ((1, 1), (0, 0)), ((1, 1), (0, 0))])
    play(stage, c, d, [((2, 0), (5, 0)), ((0, 2), (0, 0)), ((1, 1), (0, 0)), ((1, 1), (0, 0))])
    lines = stage_standings(stage).lines
    assert [line.entry for line in lines[:2]] == [c, a]
    assert lines[0].tiebreak == "twenties"


def test_recorded_shootout_settles_a_tie():
    """WCC Shoot-Out Procedure: top scorer after all shots advances."""
    stage = StageFactory()
    a, b = (EntryFactory(category=stage.category) for _ in range(2))
    play(stage, a, b, [((1, 1), (2, 2))] * 4)
    before = stage_standings(stage)
    assert len(before.shootouts_required) == 1
    assert {e.id for e in before.shootouts_required[0]} == {a.id, b.id}
    assert before.lines[0].rank == before.lines[1].rank == 1
    shootout = ShootOut.objects.create(stage=stage, order=1)
    ShootOutScore.objects.create(shootout=shootout, entry=a, twenties=5)
    ShootOutScore.objects.create(shootout=shootout, entry=b, twenties=7)
    after = stage_standings(stage)
    assert [line.entry for line in after.lines] == [b, a]
    assert after.lines[0].tiebreak == "shoot-out" and not after.shootouts_required


def test_standings_queries_do_not_grow_with_players(client):
    """A 40-player stage costs as many queries as a 4-player one."""
    counts = []
    for players in (4, 40):
        stage, _ = small_stage(players)
        url = reverse("scoring:standings", args=[stage.category.tournament.slug, stage.id])
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


def test_later_stage_before_its_draw_lists_nobody():
    stage, _ = small_stage(4)
    playoff = StageFactory(category=stage.category, order=stage.order + 1, kind="knockout")
    assert stage_standings(playoff).lines == []
    assert len(stage_standings(stage).lines) == 4


def test_first_stage_before_the_draw_lists_every_active_entry():
    category = CategoryFactory()
    stage = StageFactory(category=category)
    entries = [EntryFactory(category=category) for _ in range(3)]
    entries[2].withdrawn = True
    entries[2].save()
    names = {line.entry.id for line in stage_standings(stage).lines}
    assert names == {entries[0].id, entries[1].id}


def test_stale_shootout_is_reported_not_a_500(client):
    """A shoot-out recorded for a tie that a later correction undid must not break the page: it
    no longer counts, and the standings say so in names."""
    stage = StageFactory()
    a, b = (EntryFactory(category=stage.category) for _ in range(2))
    shootout = ShootOut.objects.create(stage=stage, order=1)
    ShootOutScore.objects.create(shootout=shootout, entry=a, twenties=5)
    ShootOutScore.objects.create(shootout=shootout, entry=b, twenties=7)
    play(stage, a, b, [((2, 0), (2, 0))] * 4)
    standings = stage_standings(stage)
    said = (
        f"Shoot-out 1 ({a.name} and {b.name}) no longer counts: the results changed after it, "
        f"and {a.name} and {b.name} are no longer tied."
    )
    assert [s.text for s in standings.set_aside] == [said] and not standings.problem
    assert [line.entry for line in standings.lines] == [a, b]
    assert [line.tiebreak for line in standings.lines] == [None, None]
    url = reverse("scoring:standings", args=[stage.category.tournament.slug, stage.id])
    response = client.get(url)
    assert response.status_code == 200 and said in response.content.decode()


def test_round_robin_pools_rank_separately_and_shootout_stages_hide():
    """WCC round-robin playoff in two pools: each pool's tiebreaks look at its own games."""
    from scoring.standings.selectors import standings_blocks
    from tournaments.models import Pool

    category = CategoryFactory()
    rr = StageFactory(category=category, kind="round-robin", name="Playoff pools")
    pools = []
    for name in "AB":
        pool = Pool.objects.create(stage=rr, name=name)
        members = [EntryFactory(category=category) for _ in range(2)]
        pool.entries.set(members)
        match = Match.objects.create(stage=rr, pool=pool, entry_a=members[0], entry_b=members[1])
        game = Game.objects.create(match=match, number=1)
        record_game(game, [round_data(points=(2, 0))] * 4)
        pools.append((pool, members))
    blocks = standings_blocks(rr)
    assert [b.pool for b in blocks] == [p for p, _ in pools]
    for block, (_, members) in zip(blocks, pools, strict=True):
        assert [line.entry for line in block.lines] == members
        assert [line.rank for line in block.lines] == [1, 2]
    shootout_stage = StageFactory(category=category, kind="shoot-out")
    assert standings_blocks(shootout_stage) == []


def test_pool_standings_mark_each_pools_share_of_the_advancers():
    """WCC: the top 16 play two pools of 8 and the top 2 of each pool go on: advance_count 4
    over two pools marks 2 per pool."""
    from scoring.standings.selectors import standings_blocks
    from tournaments.models import Pool

    category = CategoryFactory()
    rr = StageFactory(category=category, kind="round-robin", advance_count=4)
    for name in "AB":
        pool = Pool.objects.create(stage=rr, name=name)
        members = [EntryFactory(category=category) for _ in range(4)]
        pool.entries.set(members)
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                match = Match.objects.create(stage=rr, pool=pool, entry_a=a, entry_b=b)
                record_game(Game.objects.create(match=match), [round_data(points=(2, 0))] * 4)
    for block in standings_blocks(rr):
        assert [line.advances for line in block.lines] == [True, True, False, False]
