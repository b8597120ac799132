"""Closed stages: once a stage has advanced its results are locked; the head referee changes one
with a reason, seeing first what it would change in the next stage, and the change is recorded;
the organizer undoes an advance while the next stage has no result; a shoot-out keeps who
recorded it.

The world: four players, one game each in the preliminary, two go on to a final. The player beats
the opponent with five 20s to one, the other player wins the other game with three 20s to none:
the player is seed 1, the other player seed 2.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from scoring.engine import round_data
from scoring.models import CardRow, ClosedStageChange, ShootOut, StageAdvance
from scoring.progression.closed import (
    change_closed_result,
    describe_impact,
    official_rounds,
    undo_advance,
)
from scoring.progression.locks import closure, stage_closed
from scoring.progression.services import advance, record_shootout
from scoring.results.services import ResultError, record_game
from scoring.scorecards.services import (
    ScorecardError,
    card_for,
    enter_paper_row,
    fill_row,
    resolve_dispute,
    validate_row,
    verify_card,
    void_card,
)
from tests.events import SmallEvent, build_small_event
from tests.factories import StageFactory
from tournaments.models import Game, Match, Stage

pytestmark = pytest.mark.django_db

CLOSED = "Preliminary is closed: it advanced to Final on "
ONLY_HEAD = "Only the head referee can change its results, on the stage's closed results page."


def spread(total: int) -> list[int]:
    out = []
    for _ in range(4):
        out.append(min(8, total))
        total -= out[-1]
    return out


def rounds_of(winner: str, twenties: tuple[int, int]) -> list[dict]:
    """Four rounds in the match's order of sides: ``winner`` ("a"/"b") takes every one."""
    points = {"a": (2, 0), "b": (0, 2)}[winner]
    ta, tb = spread(twenties[0]), spread(twenties[1])
    return [round_data(points=points, twenties=(ta[i], tb[i])) for i in range(4)]


@dataclass
class Closed:
    event: SmallEvent
    final: Stage
    other_game: Game

    @property
    def stage(self) -> Stage:
        return self.event.stage

    @property
    def users(self):
        return self.event.users

    @property
    def slug(self) -> str:
        return self.event.tournament.slug


def build_closed_event(*, advanced: bool = True) -> Closed:
    """The world of this module, the preliminary advanced to the final (unless ``advanced`` is
    False); before that, the player filled their own row of the game (not validated yet)."""
    event = build_small_event(players=4, games_per_entry=1)
    event.stage.advance_count = 2
    event.stage.save()
    final = StageFactory(category=event.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
    other = Match.objects.get(stage=event.stage, entry_a=event.other_player).games.get()
    record_game(event.game, rounds_of("a", (5, 1)))
    record_game(other, rounds_of("a", (3, 0)))
    fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=rounds_of("a", (5, 1)),
        user=event.users["player"],
    )
    if advanced:
        advance(event.stage)
    return Closed(event, final, other)


@pytest.fixture
def closed() -> Closed:
    return build_closed_event()


def final_entries(final: Stage) -> set[int]:
    match = Match.objects.get(stage=final)
    return {match.entry_a_id, match.entry_b_id}


# --- closing -----------------------------------------------------------------------------------


def test_a_stage_is_open_until_it_advances_and_closed_after():
    world = build_closed_event(advanced=False)
    assert not stage_closed(world.stage)
    advance(world.stage)
    found = closure(world.stage)
    assert found is not None and found.into == world.final and found.since is not None
    assert found.message().startswith(CLOSED) and ONLY_HEAD in found.message()
    # said in words: no address, which a player's phone would show as code
    assert reverse("scoring:closed_stage", args=[world.slug, world.stage.id]) not in found.message()
    assert "/" not in found.message()
    assert StageAdvance.objects.filter(stage=world.stage, into=world.final).count() == 1
    # the stage's history says who advanced it and that its results are closed
    assert "Advanced 2 entries to Final" in world.stage.history.first().history_change_reason
    # the final is not closed: nothing is seeded from a knockout
    assert not stage_closed(world.final)


# --- every write of a closed stage's results is refused -----------------------------------------


def test_the_player_cannot_rewrite_a_row_of_an_advanced_stage(closed, client):
    e = closed.event
    card = card_for(e.stage, e.player)
    with pytest.raises(ScorecardError, match=CLOSED):
        fill_row(card=card, game=e.game, rounds=rounds_of("b", (1, 5)), user=e.users["player"])
    # the page: the same words, the row untouched
    client.force_login(e.users["player"])
    data = {"version": 1}
    for n, r in enumerate(rounds_of("b", (1, 5)), start=1):
        data |= {f"r{n}_points_own": r["points"][0], f"r{n}_points_opp": r["points"][1]}
    url = reverse("scoring:cards:fill_row", args=[closed.slug, e.stage.id, e.player.id, e.game.id])
    response = client.post(url, {f"g{e.game.id}-{k}": v for k, v in data.items()})
    assert response.status_code == 200
    assert CLOSED in response.content.decode()
    assert "/closed/" not in response.content.decode()  # no raw path on the player's phone
    row = CardRow.objects.get(card=card, game=e.game)
    assert row.version == 1 and row.rounds == rounds_of("a", (5, 1))
    # the card itself says why, before anyone types
    page = client.get(reverse("scoring:cards:card", args=[closed.slug, e.stage.id, e.player.id]))
    assert CLOSED in page.content.decode()


def test_the_opponent_cannot_validate_a_row_of_an_advanced_stage(closed):
    e = closed.event
    row = CardRow.objects.get(card__entry=e.player, game=e.game)
    with pytest.raises(ScorecardError, match=CLOSED):
        validate_row(
            row=row,
            opponent_number=str(e.opponent.player.number),
            initials="OP",
            user=e.users["opponent"],
        )
    assert CardRow.objects.get(pk=row.pk).status == CardRow.Status.FILLED


def test_officials_are_refused_too_except_through_the_head_referees_change(closed):
    e = closed.event
    card = card_for(e.stage, e.player)
    theirs = card_for(e.stage, e.opponent)
    refused = [
        lambda: fill_row(
            card=card, game=e.game, rounds=rounds_of("b", (0, 2)), user=e.users["referee"]
        ),
        lambda: enter_paper_row(
            card=theirs,
            game=e.game,
            rounds=rounds_of("b", (1, 5)),
            opponent_number=str(e.player.player.number),
            initials="PL",
            user=e.users["scoring-table"],
        ),
        lambda: verify_card(card=card, user=e.users["scoring-table"]),
        lambda: void_card(card=card, reason="illegible", user=e.users["scoring-table"]),
        lambda: resolve_dispute(
            game=e.game,
            rounds_a=rounds_of("b", (1, 5)),
            user=e.users["head-referee"],
            initials="HR",
        ),
    ]
    for attempt in refused:
        with pytest.raises(ScorecardError, match=CLOSED):
            attempt()
    with pytest.raises(ResultError, match=CLOSED):
        record_game(e.game, rounds_of("b", (1, 5)))
    with pytest.raises(ValidationError, match=CLOSED):
        record_shootout(e.stage, {e.player: 3, e.other_player: 2}, user=e.users["referee"])
    assert official_rounds(e.game) == rounds_of("a", (5, 1))
    assert not CardRow.objects.filter(card=theirs).exists()


def test_the_tables_steps_say_a_closed_stage_is_closed_before_any_button_is_offered(closed):
    """The table's pages ask its steps which buttons apply: on a closed stage none does, and
    each says why in the closure's words (the services refuse the write in the same words)."""
    from scoring.scorecards import table_actions as table

    e = closed.event
    card = card_for(e.stage, e.player)
    row = CardRow.objects.get(card=card, game=e.game)
    probe = CardRow(card=card_for(e.stage, e.opponent), game=e.game)
    table_user = e.users["scoring-table"]
    for step, target in (
        (table.enter_paper_row, probe),
        (table.confirm_paper_row, row),
        (table.reopen_row, row),
        (table.verify_card, card),
        (table.void_card, card),
    ):
        refused = step.refusal(table_user, target)
        assert refused is not None and CLOSED in refused.text, step.name


# --- the head referee's change -------------------------------------------------------------------


def test_a_change_across_the_cut_says_who_would_no_longer_advance_and_is_recorded(closed):
    e = closed.event
    head = e.users["head-referee"]
    flipped = rounds_of("b", (1, 5))
    preview = change_closed_result(game=e.game, rounds=flipped, user=head, preview=True)
    assert preview.record is None
    assert preview.impact.text.startswith(
        f"{e.player.name} would no longer advance to Final; {e.opponent.name} would."
    )
    assert "the organizer may undo the advance" in preview.impact.text
    assert preview.impact.leaving == [e.player] and preview.impact.joining == [e.opponent]
    # a preview writes nothing
    assert official_rounds(e.game) == rounds_of("a", (5, 1))
    assert not ClosedStageChange.objects.exists()

    done = change_closed_result(
        game=e.game, rounds=flipped, user=head, reason="Card totals misread", initials="hr"
    )
    record = ClosedStageChange.objects.get()
    assert done.record == record
    assert (record.stage, record.into, record.changed_by) == (e.stage, closed.final, head)
    assert record.reason == "Card totals misread" and record.initials == "HR"
    assert record.before == rounds_of("a", (5, 1)) and record.after == flipped
    assert record.impact == preview.impact.text
    assert official_rounds(e.game) == flipped
    rows = CardRow.objects.filter(game=e.game)
    assert {r.status for r in rows} == {CardRow.Status.VERIFIED} and rows.count() == 2
    # the next stage is not redrawn silently: the final still holds who was seeded
    assert final_entries(closed.final) == {e.player.id, e.other_player.id}
    # and the stage stays closed for everyone else
    with pytest.raises(ResultError, match=CLOSED):
        record_game(e.game, rounds_of("a", (5, 1)))


def test_a_change_that_swaps_seeds_or_changes_nothing_says_so(closed):
    e = closed.event
    head = e.users["head-referee"]
    # the player still wins, with two 20s instead of five: the other player's three rank higher
    swap = change_closed_result(game=e.game, rounds=rounds_of("a", (2, 1)), user=head, preview=True)
    assert swap.impact.text.startswith(
        f"No change to who advances to Final, but seeds 1 and 2 swap: {e.other_player.name} "
        f"would be seed 1, {e.player.name} seed 2."
    )
    assert not swap.impact.crosses_cut
    # four 20s instead of five: still ahead of three
    same = change_closed_result(game=e.game, rounds=rounds_of("a", (4, 1)), user=head, preview=True)
    assert same.impact.text == "No change to who advances to Final, nor to their seeds."


def test_a_change_needs_the_head_referee_a_reason_and_a_closed_stage(closed):
    e = closed.event
    flipped = rounds_of("b", (1, 5))
    for role in ("referee", "scoring-table", "organizer", "player"):
        with pytest.raises(PermissionDenied, match="Only the head referee"):
            change_closed_result(game=e.game, rounds=flipped, user=e.users[role], preview=True)
    head = e.users["head-referee"]
    with pytest.raises(ValidationError, match="say why"):
        change_closed_result(game=e.game, rounds=flipped, user=head, initials="HR")
    with pytest.raises(ValidationError, match="already recorded"):
        change_closed_result(
            game=e.game, rounds=rounds_of("a", (5, 1)), user=head, reason="x", initials="HR"
        )
    with pytest.raises(ScorecardError, match="round 1"):
        bad = [round_data(points=(2, 2)), *flipped[1:]]
        change_closed_result(game=e.game, rounds=bad, user=head, reason="x", initials="HR")
    final_game = Match.objects.get(stage=closed.final).games.get()
    with pytest.raises(ValidationError, match="Final is not closed"):
        change_closed_result(game=final_game, rounds=flipped, user=head, preview=True)
    assert not ClosedStageChange.objects.exists()


def test_the_impact_names_a_tie_on_the_cut_line(closed):
    """The other player's game changed to exactly the player's result: level on points and 20s
    for places 1 and 2 of 2 is a seeding tie; for the cut it needs a third entry level too."""
    e = closed.event
    same = change_closed_result(
        game=closed.other_game,
        rounds=rounds_of("a", (5, 1)),
        user=e.users["head-referee"],
        preview=True,
    )
    assert "A tie would decide the seeding of Final" in same.impact.text
    assert "tied on places 1 to 2" in same.impact.text


def test_describe_impact_when_the_stage_cannot_be_ranked(closed):
    impact = describe_impact(closed.stage, closed.final, [], "no result", "pool A: a problem")
    assert impact.text == "Preliminary could not be ranked after this change: pool A: a problem"
    assert impact.after is None


def test_the_change_pages_preview_then_confirm_and_the_audit_page_shows_it(closed, client):
    e = closed.event
    url = reverse("scoring:closed_change", args=[closed.slug, e.stage.id, e.game.id])
    client.force_login(e.users["head-referee"])
    page = client.get(reverse("scoring:closed_stage", args=[closed.slug, e.stage.id]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Preliminary is closed: it advanced to <strong>Final</strong>" in text
    assert url in text
    assert client.get(url).status_code == 200

    data = {"change-initials": "HR", "change-reason": "Wrong winner written"}
    for n, r in enumerate(rounds_of("b", (1, 5)), start=1):
        for what in ("points", "twenties"):
            data[f"change-r{n}_{what}_own"], data[f"change-r{n}_{what}_opp"] = r[what]
    preview = client.post(url, {**data, "action": "preview"})
    assert preview.status_code == 200
    assert f"{e.player.name} would no longer advance to Final" in preview.content.decode()
    assert 'value="confirm"' in preview.content.decode()
    assert not ClosedStageChange.objects.exists()

    done = client.post(url, {**data, "action": "confirm"})
    assert done.status_code == 302
    assert ClosedStageChange.objects.get().reason == "Wrong winner written"

    client.force_login(e.users["organizer"])
    audit = client.get(reverse("tournaments:manage-audit", args=[closed.slug]))
    text = audit.content.decode()
    assert "Wrong winner written" in text
    assert f"{e.player.name} would no longer advance to Final" in text
    assert "Advanced 2 entries to Final" in text


def test_the_change_page_refuses_anyone_but_the_head_referee(closed, client):
    e = closed.event
    url = reverse("scoring:closed_change", args=[closed.slug, e.stage.id, e.game.id])
    for role in ("referee", "organizer", "player"):
        client.force_login(e.users[role])
        response = client.get(url)
        assert response.status_code == 403, role
        assert (
            "Only the head referee changes a result of a closed stage" in response.content.decode()
        )


def test_a_bad_change_on_the_page_says_what_is_wrong(closed, client):
    e = closed.event
    url = reverse("scoring:closed_change", args=[closed.slug, e.stage.id, e.game.id])
    client.force_login(e.users["head-referee"])
    data = {"action": "confirm", "change-initials": "HR"}
    for n, r in enumerate(rounds_of("b", (1, 5)), start=1):
        data[f"change-r{n}_points_own"], data[f"change-r{n}_points_opp"] = r["points"]
    response = client.post(url, data)
    assert response.status_code == 400
    assert "say why a result of the closed stage Preliminary is changed" in (
        response.content.decode()
    )
    assert not ClosedStageChange.objects.exists()


# --- undoing an advance ------------------------------------------------------------------------


def test_the_organizer_undoes_an_advance_while_the_next_stage_is_empty(closed, client):
    e = closed.event
    client.force_login(e.users["organizer"])
    url = reverse("scoring:undo_advance", args=[closed.slug, e.stage.id])
    confirm = client.get(url)
    assert confirm.status_code == 200 and "Undo the advance to Final" in confirm.content.decode()
    response = client.post(url)
    assert response.status_code == 302
    assert not Match.objects.filter(stage=closed.final).exists()
    assert not stage_closed(e.stage)
    advance_record = StageAdvance.objects.get()
    assert advance_record.undone_at is not None
    assert advance_record.undone_by == e.users["organizer"]
    assert "Advance to Final undone" in e.stage.history.first().history_change_reason
    # the stage is open again: the player's row can be written, and it advances again
    fill_row(
        card=card_for(e.stage, e.player),
        game=e.game,
        rounds=rounds_of("a", (5, 1)),
        user=e.users["player"],
        version=1,
    )
    advance(e.stage)
    assert stage_closed(e.stage)


def test_undoing_an_advance_is_refused_once_the_next_stage_has_a_result(closed, client):
    e = closed.event
    final_game = Match.objects.get(stage=closed.final).games.get()
    record_game(final_game, rounds_of("a", (5, 1)))
    with pytest.raises(ValidationError, match="cannot be undone: Final has results"):
        undo_advance(e.stage, user=e.users["organizer"])
    client.force_login(e.users["organizer"])
    response = client.post(reverse("scoring:undo_advance", args=[closed.slug, e.stage.id]))
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert "cannot be undone: Final has results" in page.content.decode()
    assert Match.objects.filter(stage=closed.final).exists() and stage_closed(e.stage)


def test_only_the_organizers_undo_an_advance(closed, client):
    e = closed.event
    for role in ("head-referee", "referee", "scoring-table", "player"):
        with pytest.raises(PermissionDenied, match="Only the organizers undo an advance"):
            undo_advance(e.stage, user=e.users[role])
    client.force_login(e.users["head-referee"])
    response = client.post(reverse("scoring:undo_advance", args=[closed.slug, e.stage.id]))
    assert response.status_code == 403 and stage_closed(e.stage)


def test_an_open_stage_has_no_advance_to_undo():
    world = build_closed_event(advanced=False)
    with pytest.raises(ValidationError, match="Not advanced: there is no advance to undo"):
        undo_advance(world.stage, user=world.users["organizer"])


# --- who recorded a shoot-out ------------------------------------------------------------------


def test_a_shootout_keeps_who_recorded_it_and_its_page_and_api_show_it(client):
    event = build_small_event(players=4, games_per_entry=1)
    event.stage.advance_count = 2
    event.stage.save()
    StageFactory(category=event.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
    tie = [round_data(points=(1, 1), twenties=(1, 1))] * 4
    for match in Match.objects.filter(stage=event.stage, entry_b__isnull=False):
        record_game(match.games.get(), tie)
    with pytest.raises(ValidationError):
        advance(event.stage)  # all four tied across the cut
    referee = event.users["referee"]
    made = {e: n for e, n in zip(event.entries, (5, 4, 3, 2), strict=True)}
    record_shootout(event.stage, made, user=referee)
    shot = ShootOut.objects.get()
    assert shot.recorded_by == referee and shot.created_at is not None

    client.force_login(referee)
    page = client.get(reverse("scoring:shootout", args=[event.tournament.slug, event.stage.id]))
    assert f"Recorded by {referee.get_username()} on " in page.content.decode()
    body = client.get(f"/api/stages/{event.stage.id}/shootouts/").json()
    assert body["recorded"][0]["recorded_by"] == referee.get_username()
    assert body["recorded"][0]["recorded_at"]


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "linked"), [("head-referee", True), ("player", False)])
def test_a_closed_cards_notice_links_the_officials_to_the_closed_results(
    closed, client, who, linked
):
    """Above a card of a closed stage, the notice says why nothing more is written; the
    officials (the head referee changes its results) get the link to the stage's closed
    results, a player does not."""
    e = closed.event
    client.force_login(e.users[who])
    card = reverse("scoring:cards:card", args=[closed.slug, closed.stage.id, e.player.id])
    page = client.get(card).content.decode()
    assert CLOSED in page
    link = reverse("scoring:closed_stage", args=[closed.slug, closed.stage.id])
    assert (f'href="{link}"' in page) is linked
