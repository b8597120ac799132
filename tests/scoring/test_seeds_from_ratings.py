"""Seeds from ratings: the entries ranked by the record's ratings (a team as its two partners
together, the unrated last by name), the draw previewed from those seeds (round-robin pools with
their average ratings, a knockout's or a Swiss stage's first round) being the draw the app then
really makes, applied through the seed editor's write and overridable there; the page and the
API for the tournament's organizers only, refused in the same words, and refused once drawn."""

from __future__ import annotations

from html import unescape
from math import sqrt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.engine.rating import Belief, display
from scoring.models.record import Discipline, Rating
from scoring.seeds import services
from scoring.seeds.actions import apply_seeds_from_ratings
from tests.factories import (
    CategoryFactory,
    EntryFactory,
    PlayerFactory,
    StageFactory,
    TeamFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.actions import Refused
from tournaments.models import Entry, Person, Stage
from tournaments.services import seeding
from tournaments.services.draws import draw_stage

pytestmark = pytest.mark.django_db

WHO = "Only the tournament's organizers and co-organizers set seeds."


def person(first: str, last: str) -> Person:
    return Person.objects.create(first_name=first, last_name=last)


def rated(player, mu: float, sigma: float = 2.0, games: int = 10, discipline=Discipline.SINGLES):
    """Give ``player`` a person in the registry rated ``mu`` in ``discipline``."""
    player.person = person(player.first_name, player.last_name)
    player.save(update_fields=["person"])
    Rating.objects.create(
        person=player.person, discipline=discipline, mu=mu, sigma=sigma, games=games
    )
    return player


def singles(category, last: str, mu: float | None = None, club: str = "", **rating):
    entry = EntryFactory(
        category=category,
        player=PlayerFactory(
            tournament=category.tournament, first_name="Pat", last_name=last, club=club
        ),
    )
    if mu is not None:
        rated(entry.player, mu, **rating)
    return entry


@pytest.fixture
def tournament():
    return TournamentFactory(name="Club night", slug="club-night")


@pytest.fixture
def organizer(tournament):
    return TournamentRoleFactory(tournament=tournament).user


@pytest.fixture
def category(tournament):
    return CategoryFactory(tournament=tournament, name="Open singles")


def page_url(category, stage=None, **query) -> str:
    url = reverse("seeds-from-ratings", args=[category.tournament.slug, category.pk])
    if stage is not None:
        query["stage"] = stage.pk
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def api_url(category) -> str:
    return reverse("api:seeds-from-ratings", args=[category.pk])


def names(rows) -> list[str]:
    return [row.entry.player.last_name for row in rows]


# --- the order --------------------------------------------------------------------------------


def test_entries_are_ranked_by_rating_and_the_unrated_come_last_by_name(category):
    singles(category, "Middle", 28.0)
    singles(category, "Top", 31.0, sigma=1.5)
    singles(category, "Low", 20.0)
    singles(category, "Zed")  # no person in the registry
    never = singles(category, "Adams")
    never.player.person = person("Pat", "Adams")  # a person, no rating row
    never.player.save(update_fields=["person"])
    singles(category, "Moss", 40.0, games=0)  # a rating row without a game: unrated
    singles(category, "Cue", 45.0, discipline=Discipline.CUE_SINGLES)  # another discipline
    withdrawn = singles(category, "Gone", 50.0)
    withdrawn.withdrawn = True
    withdrawn.save()

    rows = services.proposal(category).rows

    assert names(rows) == ["Top", "Middle", "Low", "Adams", "Cue", "Moss", "Zed"]
    assert [row.seed for row in rows] == [1, 2, 3, 4, 5, 6, 7]
    top = rows[0]
    assert (top.rating, top.plusminus) == display(Belief(31.0, 1.5)) == (1740, 120)
    assert top.games == 10 and top.rated and not top.partly_rated
    assert [row.rated for row in rows] == [True] * 3 + [False] * 4


def test_a_merged_person_is_rated_as_the_person_kept(category):
    entry = singles(category, "Dup")
    kept = person("Pat", "Dup")
    Rating.objects.create(person=kept, discipline=Discipline.SINGLES, mu=30, sigma=2, games=4)
    old = Person.objects.create(first_name="Pat", last_name="Dup", merged_into=kept)
    entry.player.person = old
    entry.player.save(update_fields=["person"])
    singles(category, "Other", 26.0)

    rows = services.proposal(category).rows

    assert names(rows) == ["Dup", "Other"]
    assert rows[0].rating == display(Belief(30, 2))[0]


def test_a_team_is_rated_as_its_two_partners_together(tournament):
    category = CategoryFactory(tournament=tournament, name="Doubles", doubles=True)

    def team(one: float | None, two: float | None, last: str) -> Entry:
        entry = EntryFactory(
            category=category,
            doubles=True,
            team=TeamFactory(
                tournament=tournament,
                player_one__last_name=f"{last}1",
                player_two__last_name=f"{last}2",
            ),
        )
        for player, mu in ((entry.team.player_one, one), (entry.team.player_two, two)):
            if mu is not None:
                rated(player, mu, sigma=3.0, games=6, discipline=Discipline.DOUBLES)
        return entry

    uneven = team(34.0, 16.0, "Uneven")  # 50 together
    even = team(26.0, 26.0, "Even")  # 52 together: ahead of the pair with the best player
    half = team(22.0, None, "Half")  # 22 + the starting 25 = 47
    nobody = team(None, None, "Nobody")
    # a singles rating says nothing of doubles
    rated(nobody.team.player_one, 60.0)

    rows = services.proposal(category).rows

    assert [row.entry for row in rows] == [even, uneven, half, nobody]
    spread = sqrt(3.0**2 + 3.0**2)
    assert (rows[0].rating, rows[0].plusminus) == display(Belief(52.0 / 2, spread / 2))
    assert rows[0].rating == 1540  # two 26s read as one 26 on the display scale
    assert rows[0].games == 12 and rows[0].unrated_people == 0
    assert rows[2].partly_rated and rows[2].unrated_people == 1
    assert rows[2].rating == display(Belief((22.0 + 25.0) / 2, 1.0))[0]
    assert not rows[3].rated and rows[3].unrated_people == 2


# --- what the draw would make of them -----------------------------------------------------------


def rated_field(category, count: int, clubs: list[str] | None = None) -> list[Entry]:
    """``count`` rated entries, registered weakest first (so that the seeds reorder them), some
    sharing clubs so that the snake keeps club mates apart."""
    clubs = clubs or ["North", "North", "South", "", "South", "East", "North", "", "West", ""]
    return [
        singles(category, f"P{n:02d}", 15.0 + 1.5 * n, club=clubs[n % len(clubs)])
        for n in range(count)
    ]


def test_the_round_robin_pools_shown_are_the_pools_the_draw_makes(category):
    rated_field(category, 9)
    singles(category, "Unrated")
    stage = StageFactory(category=category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=1)

    shown = services.proposal(category, pool_count=3)
    assert shown.format == "round-robin" and shown.pool_count == 3 and not shown.note
    services.write_seeds(category)
    draw_stage(stage, pool_count=3)

    drawn = {line.name: [e.pk for e in line.entries] for line in seeding.stage_pools(stage)}
    assert drawn == {pool.name: [row.entry.pk for row in pool.rows] for pool in shown.pools}
    ratings = {row.entry.pk: row.rating for row in shown.rows}
    for pool in shown.pools:
        members = [ratings[pk] for pk in drawn[pool.name] if ratings[pk] is not None]
        assert pool.average == round(sum(members) / len(members))
    # the snake gives the strongest pool no more than its share: averages stay close
    averages = [pool.average for pool in shown.pools]
    assert max(averages) - min(averages) < 60
    assert sum(pool.unrated for pool in shown.pools) == 1


def test_the_knockout_and_swiss_first_rounds_shown_are_the_ones_drawn(category):
    rated_field(category, 6)
    stage = StageFactory(category=category, name="Bracket", kind=Stage.Kind.KNOCKOUT, order=1)

    shown = services.proposal(category)
    assert shown.format == "knockout"
    # six entries: seeds 1 and 2 go straight to the semifinals, 3 v 6 and 4 v 5 play
    assert [(p.a.seed, p.b.seed) for p in shown.pairings] == [(4, 5), (3, 6)]
    assert [row.seed for row in shown.byes] == [1, 2]
    services.write_seeds(category)
    draw_stage(stage)
    played = {frozenset((m.entry_a_id, m.entry_b_id)) for m in stage.matches.all()}
    assert played == {frozenset((p.a.entry.pk, p.b.entry.pk)) for p in shown.pairings}

    swiss_category = CategoryFactory(tournament=category.tournament, name="Swiss singles")
    rated_field(swiss_category, 5)
    swiss = StageFactory(
        category=swiss_category, name="Swiss", kind=Stage.Kind.SWISS, games_per_entry=3, order=1
    )
    shown = services.proposal(swiss_category)
    assert [(p.a.seed, p.b.seed if p.b else None) for p in shown.pairings] == [
        (1, 2),
        (3, 4),
        (5, None),
    ]
    services.write_seeds(swiss_category)
    draw_stage(swiss)
    drawn = {(m.entry_a_id, m.entry_b_id) for m in swiss.matches.all()}
    assert drawn == {(p.a.entry.pk, p.b.entry.pk if p.b else None) for p in shown.pairings}


def test_a_draw_without_seeds_or_too_many_pools_is_said_in_words(category):
    rated_field(category, 5)
    assert "No stage yet" in services.proposal(category).note
    StageFactory(category=category, name="Prelim", kind=Stage.Kind.PRELIMINARY, order=1)
    assert services.proposal(category).note == (
        "The draw of Prelim (preliminary rounds) does not use seeds."
    )
    pools = StageFactory(category=category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=2)
    later = services.proposal(category, pools, pool_count=2)
    assert later.format == "advance" and "filled by the Advance of Prelim" in later.note

    only = CategoryFactory(tournament=category.tournament, name="Small")
    rated_field(only, 5)
    StageFactory(category=only, name="RR", kind=Stage.Kind.ROUND_ROBIN, order=1)
    crowded = services.proposal(only, pool_count=3)
    assert crowded.pools == []
    assert crowded.note == "5 entries cannot fill 3 pools of at least two."


# --- applying, and the seed editor after it ---------------------------------------------------


def test_use_these_seeds_then_override_one_in_the_seed_editor(client, organizer, category):
    field = rated_field(category, 6)
    stage = StageFactory(category=category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=1)
    client.force_login(organizer)

    page = client.get(page_url(category, stage, pools=2))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" in html and "Pool A: average" in html and "Use these seeds" in html

    done = client.post(page_url(category), {"stage": stage.pk}, follow=True)
    assert done.redirect_chain[-1][0] == reverse(
        "tournaments:manage-stage-seeding", args=[category.tournament.slug, stage.pk]
    )
    assert "Open singles: seeds from ratings saved (6 changed)." in [
        str(m) for m in done.context["messages"]
    ]
    # the strongest (registered last) is seed 1
    seeds = {e.pk: e.seed for e in Entry.objects.filter(category=category)}
    assert [seeds[e.pk] for e in field] == [6, 5, 4, 3, 2, 1]
    # the audit says where the seeds came from
    told = field[0].history.order_by("-history_date").first().history_change_reason
    assert told == "Seed set from the players' ratings."

    # the organizer overrides one seed in the existing editor; the others stay
    weakest = field[0]
    typed = {"action": "seeds"} | {f"seed-{pk}": str(seed) for pk, seed in seeds.items()}
    typed[f"seed-{weakest.pk}"] = "9"
    editor = reverse("tournaments:manage-stage-seeding", args=[category.tournament.slug, stage.pk])
    saved = client.post(editor, typed, follow=True)
    assert "Open singles: seeds saved (1 changed)." in [str(m) for m in saved.context["messages"]]
    after = {e.pk: e.seed for e in Entry.objects.filter(category=category)}
    assert after == seeds | {weakest.pk: 9}
    told = weakest.history.order_by("-history_date").first().history_change_reason
    assert told == "Seed set on the seed editor."
    assert "Seed from ratings" in saved.content.decode()  # the way back to the proposal


def test_refused_once_the_first_stage_is_drawn_on_the_page_and_the_api(client, organizer, category):
    rated_field(category, 4)
    stage = StageFactory(category=category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=1)
    draw_stage(stage, pool_count=1)
    before = dict(Entry.objects.filter(category=category).values_list("pk", "seed"))
    words = (
        "Pools is drawn already: its draw would not change with new seeds. Undo the draw first "
        "to seed it from ratings."
    )
    client.force_login(organizer)

    shown = client.get(page_url(category))
    assert shown.status_code == 200
    assert words in shown.content.decode() and "Use these seeds" not in shown.content.decode()
    posted = client.post(page_url(category))
    assert posted.status_code == 409 and words in posted.content.decode()

    api = APIClient()
    api.force_authenticate(organizer)
    answer = api.post(api_url(category))
    assert answer.status_code == 409 and answer.json() == {"detail": words}
    assert api.get(api_url(category)).json()["refusal"] == words
    assert dict(Entry.objects.filter(category=category).values_list("pk", "seed")) == before
    with pytest.raises(Refused, match="drawn already"):
        services.write_seeds(category)


def test_nothing_to_seed_is_refused_in_words(organizer, category):
    with pytest.raises(Refused, match=r"Open singles has no active entries to seed\."):
        services.apply(category, organizer)


# --- who may ----------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["other-organizer", "player"])
def test_only_this_tournaments_organizers_page_and_api_in_the_same_words(client, category, who):
    entries = rated_field(category, 4)
    if who == "other-organizer":
        user = TournamentRoleFactory(tournament=TournamentFactory()).user
    else:
        user = UserFactory()
        entries[0].player.user = user
        entries[0].player.save(update_fields=["user"])
    before = dict(Entry.objects.filter(category=category).values_list("pk", "seed"))
    client.force_login(user)

    assert client.get(page_url(category)).status_code == 403
    page = client.post(page_url(category))
    assert page.status_code == 403 and WHO in unescape(page.content.decode())

    api = APIClient()
    api.force_authenticate(user)
    for answer in (api.get(api_url(category)), api.post(api_url(category))):
        assert answer.status_code == 403 and answer.json() == {"detail": WHO}
    with pytest.raises(Refused, match=WHO):
        services.apply(category, user)
    assert dict(Entry.objects.filter(category=category).values_list("pk", "seed")) == before


def test_an_anonymous_visitor_is_sent_to_log_in(client, category):
    page = client.get(page_url(category))
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    assert APIClient().get(api_url(category)).status_code in (401, 403)


# --- the API ----------------------------------------------------------------------------------


def test_the_api_proposes_and_applies_as_the_page_does(organizer, category):
    field = rated_field(category, 5)
    singles(category, "Unrated")
    stage = StageFactory(category=category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=1)
    api = APIClient()
    api.force_authenticate(organizer)

    body = api.get(api_url(category), {"pools": 2, "stage": stage.pk}).json()
    shown = services.proposal(category, stage, pool_count=2)
    assert body["format"] == "round-robin" and body["pool_count"] == 2
    assert body["stage"] == stage.pk and body["refusal"] == ""
    assert [r["entry"]["id"] for r in body["rows"]] == [row.entry.pk for row in shown.rows]
    assert body["rows"][-1] | {"entry": None} == {
        "entry": None,
        "seed": 6,
        "rating": None,
        "plusminus": None,
        "games": 0,
        "rated": False,
        "unrated_people": 1,
    }
    assert [(p["name"], p["average"]) for p in body["pools"]] == [
        (pool.name, pool.average) for pool in shown.pools
    ]

    bad = api.get(api_url(category), {"pools": "two"})
    assert bad.status_code == 400
    assert bad.json() == {"pools": ["Pools: “two” is not a whole number from 1 to 64."]}

    applied = api.post(api_url(category))
    assert applied.status_code == 200 and applied.json()["changed"] == 6
    assert applied.json()["entries"][0]["id"] == field[-1].pk
    assert Entry.objects.get(pk=field[-1].pk).seed == 1


def test_the_step_is_declared_for_the_organizers(organizer, category):
    rated_field(category, 2)
    assert apply_seeds_from_ratings.refusal(organizer, category) is None
    player = UserFactory()
    assert apply_seeds_from_ratings.refusal(player, category).text == WHO
