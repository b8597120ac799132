"""A change to a closed stage that unsettles a shoot-out (browser audit, major M4).

The world: four players, one game each in the preliminary, two go on to a playoff. The player
beats the opponent; the other player and the fourth draw every round with the same 20s, so they
tie for the last place that advances, and a shoot-out sends the other player on. Then the head
referee changes a result of the closed preliminary:

- the fourth wins a round of their game after all: the two are no longer tied, the shoot-out
  settles nothing any more, and the fourth, not the other player, belongs in the playoff;
- the opponent wins two rounds of theirs: the opponent joins the tie, so the shoot-out between
  two of the three no longer counts and a new one among the three is asked for, and the playoff
  waits for it.

Before, the preview said "could not be ranked" with entry ids, the change went through, the
standings silently dropped the shoot-out and nothing told the organizer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.engine import round_data
from scoring.models import ShootOut
from scoring.progression.closed import change_closed_result
from scoring.progression.locks import ShootoutPendingError, stage_closed
from scoring.progression.selectors import next_stage_drifts, shootout_sheet
from scoring.progression.services import (
    CutLineTieError,
    advance,
    draw_next_swiss_round,
    record_shootout,
)
from scoring.results.services import record_game
from scoring.standings.selectors import stage_standings
from tests.events import SmallEvent, build_small_event
from tests.factories import StageFactory
from tournaments.models import Entry, Game, Match, Stage

pytestmark = pytest.mark.django_db


def spread(total: int) -> list[int]:
    out = []
    for _ in range(4):
        out.append(min(8, total))
        total -= out[-1]
    return out


def rounds_of(points: list[tuple[int, int]], twenties: tuple[int, int]) -> list[dict]:
    """Four rounds in the match's order of sides, with ``twenties`` spread over them."""
    ta, tb = spread(twenties[0]), spread(twenties[1])
    return [round_data(points=points[i], twenties=(ta[i], tb[i])) for i in range(4)]


A_WINS = rounds_of([(2, 0)] * 4, (5, 1))
DRAWN = rounds_of([(1, 1)] * 4, (2, 2))
#: The fourth wins round 1 of the drawn game: 5 points to the other player's 3.
FOURTH_WINS_A_ROUND = rounds_of([(0, 2), (1, 1), (1, 1), (1, 1)], (2, 2))
#: The opponent wins two rounds: 4 points each, the player keeps five 20s to the opponent's two,
#: so the opponent is level with the other two on points and 20s.
OPPONENT_WINS_TWO = rounds_of([(2, 0), (2, 0), (0, 2), (0, 2)], (5, 2))
#: The player makes four 20s instead of five: nothing changes for who goes on.
FOUR_TWENTIES = rounds_of([(2, 0)] * 4, (4, 1))


@dataclass
class World:
    event: SmallEvent
    playoff: Stage
    fourth: Entry
    drawn_game: Game

    @property
    def stage(self) -> Stage:
        return self.event.stage

    @property
    def slug(self) -> str:
        return self.event.tournament.slug

    @property
    def head(self):
        return self.event.users["head-referee"]

    def change(self, game: Game, rounds: list[dict], *, preview: bool = False):
        return change_closed_result(
            game=game,
            rounds=rounds,
            user=self.head,
            reason="" if preview else "Card misread",
            initials="" if preview else "HR",
            preview=preview,
        )


def build_world(playoff_kind: str = Stage.Kind.ROUND_ROBIN) -> World:
    """The preliminary advanced to the playoff after the shoot-out (the other player 5, the
    fourth 3); a round-robin playoff advances both to a final, a Swiss one plays two rounds."""
    event = build_small_event(players=4, games_per_entry=1)
    event.stage.advance_count = 2
    event.stage.save()
    swiss = playoff_kind == Stage.Kind.SWISS
    playoff = StageFactory(
        category=event.category,
        name="Playoff",
        kind=playoff_kind,
        order=2,
        advance_count=None if swiss else 2,
        games_per_entry=2 if swiss else None,
    )
    if not swiss:
        StageFactory(category=event.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=3)
    drawn = Match.objects.get(stage=event.stage, entry_a=event.other_player)
    record_game(event.game, A_WINS)
    record_game(drawn.games.get(), DRAWN)
    with pytest.raises(CutLineTieError):
        advance(event.stage)
    record_shootout(
        event.stage, {event.other_player: 5, drawn.entry_b: 3}, user=event.users["referee"]
    )
    advance(event.stage)
    playoff.refresh_from_db()
    return World(event, playoff, drawn.entry_b, drawn.games.get())


@pytest.fixture
def world() -> World:
    return build_world()


def no_ids(text: str) -> None:
    """The words name players, never the ids the engine keys them by ("shoot-out 1 (14, 5)
    does not settle a tie; at that point the groups tied are [10, 23, 28]")."""
    assert "could not be ranked" not in text and "does not settle a tie" not in text
    assert "[" not in text and not re.search(r"\(\d+(, \d+)+\)", text), text


def play_playoff(world: World) -> None:
    game = Game.objects.filter(match__stage=world.playoff).order_by("id").first()
    record_game(game, A_WINS)


# --- the shoot-out no longer settles a tie: the entries differ ---------------------------------


def test_a_change_that_unties_a_shootout_says_so_in_names_and_the_organizer_is_warned(
    world, client
):
    e = world.event
    other, fourth = e.other_player, world.fourth
    preview = world.change(world.drawn_game, FOURTH_WINS_A_ROUND, preview=True)
    text = preview.impact.text
    assert text.startswith(f"{other.name} would no longer advance to Playoff; {fourth.name} would.")
    assert (
        f"Shoot-out 1 ({fourth.name} and {other.name}) would no longer count: {fourth.name} and "
        f"{other.name} would no longer be tied." in text
    )
    no_ids(text)

    done = world.change(world.drawn_game, FOURTH_WINS_A_ROUND)
    assert done.impact.text == text and done.record.impact == text
    # the shoot-out stays on record, but no longer counts
    assert ShootOut.objects.filter(stage=world.stage).count() == 1
    standings = stage_standings(world.stage)
    assert [line.entry for line in standings.lines[:2]] == [e.player, fourth]
    assert not standings.shootouts_required and not standings.problem
    assert [s.text for s in standings.set_aside] == [
        f"Shoot-out 1 ({fourth.name} and {other.name}) no longer counts: the results changed "
        f"after it, and {fourth.name} and {other.name} are no longer tied."
    ]

    # the dashboard and the category page: the playoff no longer matches, and who differs
    warning = (
        f"Playoff no longer matches the standings of Preliminary. In Playoff but no longer "
        f"among those who advance: {other.name}. Among those who advance but not in Playoff: "
        f"{fourth.name}."
    )
    [drift] = next_stage_drifts(stage__category__tournament=e.tournament)
    assert drift.text.startswith(warning) and drift.leaving == [other]
    client.force_login(e.users["organizer"])
    for url in (
        reverse("tournaments:manage", args=[world.slug]),
        reverse("tournaments:manage-category", args=[world.slug, e.category.id]),
    ):
        page = client.get(url).content.decode()
        assert warning in page, url
        assert reverse("scoring:closed_stage", args=[world.slug, world.stage.id]) in page

    # nothing waits for a shoot-out: the playoff goes on as before such a change
    play_playoff(world)
    assert advance(world.playoff).name == "Final"


# --- the tied set changed: a new shoot-out is asked for, and the playoff waits -----------------


def test_a_change_that_widens_the_tie_asks_for_the_shootout_again_before_the_playoff_goes_on(
    world, client
):
    e = world.event
    opponent, other, fourth = e.opponent, e.other_player, world.fourth
    preview = world.change(e.game, OPPONENT_WINS_TWO, preview=True)
    text = preview.impact.text
    no_ids(text)
    # Who surely advances leaves out the three tied on the cut, whom a shoot-out would decide.
    assert {x.pk for x in preview.impact.undecided} == {opponent.pk, other.pk, fourth.pk}
    assert not {x.pk for x in preview.impact.after} & {opponent.pk, other.pk, fourth.pk}
    assert len(preview.impact.after) == 1

    # confirmed on the page: the message says it too
    client.force_login(world.head)
    url = reverse("scoring:closed_change", args=[world.slug, world.stage.id, e.game.id])
    data = {"change-initials": "HR", "change-reason": "Card misread", "action": "confirm"}
    for n, r in enumerate(OPPONENT_WINS_TWO, start=1):
        for what in ("points", "twenties"):
            data[f"change-r{n}_{what}_own"], data[f"change-r{n}_{what}_opp"] = r[what]
    response = client.post(url, data, follow=True)
    page = response.content.decode()
    assert response.status_code == 200

    # kept, set aside with its reason in its history, and the standings ask for a shoot-out
    shootout = ShootOut.objects.get(stage=world.stage)
    assert "No longer counts after the head referee's change of" in (
        shootout.history.first().history_change_reason
    )
    standings = stage_standings(world.stage)
    assert [set(g) for g in standings.shootouts_required] == [{opponent, other, fourth}]
    assert [s.order for s in standings.set_aside] == [1]
    # the words name them as the standings list them (tied entries share a rank)
    tied = [line.entry for line in standings.lines[1:]]
    listed = ", ".join(entry.name for entry in tied)
    first = standings.lines[1].rank
    # the places the tie spans (2 to 4 of a stage that sends 2 on), not "tied for 1 place"
    places = f"tied on places {first} to {first + 2}, of whom 1 goes on"
    assert first == 2
    three = f"{tied[0].name}, {tied[1].name} and {tied[2].name}"
    pair = " and ".join(entry.name for entry in tied if entry != opponent)
    assert (
        f"A tie would sit on the cut line ({listed} {places}): a shoot-out would decide "
        "who advances to Playoff." in text
    )
    assert f"Shoot-out 1 ({pair}) would no longer count: the tie would be among {three}." in text
    assert "Until that shoot-out is recorded, Playoff could not be advanced" in text
    assert f"would no longer count: the tie would be among {three}." in page
    public = client.get(reverse("scoring:standings", args=[world.slug, world.stage.id]))
    public_text = public.content.decode()
    assert "Shoot-out required between:" in public_text
    assert f"Shoot-out 1 ({pair}) no longer counts" in public_text
    sheet = shootout_sheet(world.stage)
    assert [set(t.entries) for t in sheet.waiting] == [{opponent, other, fourth}]
    assert "no longer counts" in sheet.recorded[0].no_longer_counts

    # the playoff does not go on: refused with words, on the page with the way to the shoot-out
    play_playoff(world)
    with pytest.raises(ShootoutPendingError) as refused:
        advance(world.playoff)
    assert refused.value.messages == [
        "A change of the closed results of Preliminary left a tie that a shoot-out must settle "
        f"({three}): Playoff cannot go on until that shoot-out is recorded (from the standings "
        "of Preliminary)."
    ]
    client.force_login(e.users["organizer"])
    answer = client.post(
        reverse("tournaments:manage-stage-advance", args=[world.slug, world.playoff.id]),
        follow=True,
    )
    answer_text = answer.content.decode()
    assert "Playoff cannot go on until that shoot-out is recorded" in answer_text
    assert reverse("scoring:shootout", args=[world.slug, world.stage.id]) in answer_text
    assert not Match.objects.filter(stage__name="Final").exists()
    dashboard = client.get(reverse("tournaments:manage", args=[world.slug])).content.decode()
    assert "Playoff no longer matches the standings of Preliminary." in dashboard
    assert (
        f"A shoot-out must settle a tie first ({listed} {places}): until it is recorded, "
        "Playoff cannot be advanced nor its next round drawn."
    ) in dashboard

    # the new shoot-out is taken although the preliminary is closed; then the playoff goes on
    assert stage_closed(world.stage)
    record_shootout(world.stage, {opponent: 6, other: 4, fourth: 2}, user=e.users["referee"])
    assert ShootOut.objects.filter(stage=world.stage).count() == 2
    standings = stage_standings(world.stage)
    assert standings.lines[1].entry == opponent and not standings.shootouts_required
    [drift] = next_stage_drifts(stage__category=e.category)
    assert drift.leaving == [other] and drift.joining == [opponent] and not drift.ties
    assert advance(world.playoff).name == "Final"


def test_a_closed_stage_still_refuses_a_shootout_nobody_asks_for(world):
    """Only the tie the standings ask for again is taken; any other shoot-out stays closed."""
    e = world.event
    world.change(e.game, OPPONENT_WINS_TWO)
    with pytest.raises(ValidationError, match="Preliminary is closed"):
        record_shootout(world.stage, {world.fourth: 4, e.other_player: 2}, user=e.users["referee"])
    assert ShootOut.objects.filter(stage=world.stage).count() == 1


def test_a_swiss_playoff_draws_no_next_round_until_the_shootout_is_recorded():
    world = build_world(Stage.Kind.SWISS)
    e = world.event
    world.change(e.game, OPPONENT_WINS_TWO)
    play_playoff(world)
    rounds = set(Match.objects.filter(stage=world.playoff).values_list("round_of_play", flat=True))
    with pytest.raises(
        ShootoutPendingError, match="Playoff cannot go on until that shoot-out is recorded"
    ):
        draw_next_swiss_round(world.playoff)
    after = set(Match.objects.filter(stage=world.playoff).values_list("round_of_play", flat=True))
    assert after == rounds == {1}


# --- a change that unsettles nothing: as before ---------------------------------------------------


def test_a_change_that_leaves_the_shootout_settling_its_tie_changes_nothing_else(world, client):
    e = world.event
    done = world.change(e.game, FOUR_TWENTIES)
    assert done.impact.text == "No change to who advances to Playoff, nor to their seeds."
    assert not done.impact.set_aside
    standings = stage_standings(world.stage)
    assert not standings.set_aside and standings.lines[1].entry == e.other_player
    assert standings.lines[1].tiebreak == "shoot-out"
    assert next_stage_drifts(stage__category__tournament=e.tournament) == []
    shootout = ShootOut.objects.get(stage=world.stage)
    assert shootout.history.count() == 1  # recorded, never noted since
    client.force_login(e.users["organizer"])
    dashboard = client.get(reverse("tournaments:manage", args=[world.slug])).content.decode()
    assert "no longer matches" not in dashboard
    play_playoff(world)
    assert advance(world.playoff).name == "Final"
