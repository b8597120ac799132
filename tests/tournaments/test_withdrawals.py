"""Withdrawals and disqualifications after the draw (``tournaments.services.forfeits``): the
entry's games without a result become walkovers against it, a reinstatement takes them back
unless a later draw used them, and the organizer's pages lead through a confirm step.

WCC Tournament Rules: "Careless or deliberate contravention of the rules may result in the
forfeiture of a round or a game and possible disqualification from the tournament."
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring.results.services import record_game
from tests.events import SmallEvent
from tests.factories import MatchFactory, StageFactory
from tournaments.models import Entry, Game, Stage
from tournaments.services import entries, forfeits, registration

pytestmark = pytest.mark.django_db

#: A 6-2 game for entry A, as official rounds (side a first).
A_WINS = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def games_of(event: SmallEvent, entry: Entry) -> list[Game]:
    plays = Game.objects.filter(match__stage=event.stage)
    return list(
        (plays.filter(match__entry_a=entry) | plays.filter(match__entry_b=entry)).order_by(
            "match__round_of_play", "number"
        )
    )


def side_of(game: Game, entry: Entry) -> str:
    return "a" if game.match.entry_a_id == entry.id else "b"


# --- the service ---------------------------------------------------------------------------


def test_withdrawal_after_the_draw_turns_the_games_left_into_walkovers(small_event):
    opponent = small_event.opponent
    played = small_event.game  # round 1, against the event's player: played before leaving
    record_game(played, A_WINS)
    games = forfeits.withdraw_entry(
        entry=opponent, reason="flight home", user=small_event.users["organizer"]
    )
    drawn = games_of(small_event, opponent)
    assert len(drawn) == 2 and [g.id for g in games] == [drawn[1].id]
    walkover = Game.objects.get(pk=drawn[1].pk)
    assert walkover.forfeited_by == side_of(walkover, opponent)
    assert walkover.forfeit_kind == Game.ForfeitKind.WITHDRAWAL
    assert walkover.forfeit_reason == "flight home"
    assert walkover.forfeit_ruled_by == small_event.users["organizer"]
    assert walkover.forfeit_label == f"Walkover: {opponent.name} withdrew"
    assert walkover.forfeit_refusal == f"Game 1 is a walkover: {opponent.name} withdrew"
    # The game played stays as played.
    assert Game.objects.get(pk=played.pk).forfeited_by == ""
    assert played.rounds.count() == 4
    opponent.refresh_from_db()
    assert opponent.withdrawn and not opponent.checked_in
    assert opponent.withdrawal_kind == Entry.WithdrawalKind.WITHDRAWAL
    # Told in the game's history, with the reason.
    assert "flight home" in walkover.history.first().history_change_reason


def test_the_plan_lists_what_a_withdrawal_would_do(small_event):
    opponent = small_event.opponent
    record_game(small_event.game, A_WINS)
    plan = forfeits.withdrawal_plan(opponent)
    assert [g.id for g in plan.kept] == [small_event.game.id]
    assert len(plan.walkovers) == 1 and plan.walkovers[0].match.round_of_play == 2
    assert plan.three_player == []


def test_a_disqualification_needs_its_reason_and_the_head_referee(small_event):
    player = small_event.player
    with pytest.raises(ValidationError) as refused:
        forfeits.withdraw_entry(
            entry=player, kind="disqualification", user=small_event.users["head-referee"]
        )
    assert refused.value.field == "reason"
    assert (
        refused.value.text == f"Say why {player.name} is disqualified (the rule that was broken)."
    )
    with pytest.raises(PermissionDenied, match="Only the head referee or the tournament's"):
        forfeits.withdraw_entry(
            entry=player,
            kind="disqualification",
            reason="coaching",
            user=small_event.users["referee"],
        )
    games = forfeits.withdraw_entry(
        entry=player,
        kind="disqualification",
        reason="coaching after a warning",
        user=small_event.users["head-referee"],
    )
    assert {g.forfeit_kind for g in games} == {Game.ForfeitKind.DISQUALIFICATION}
    assert Game.objects.get(pk=games[0].pk).forfeit_label == (
        f"Walkover: {player.name} was disqualified"
    )
    player.refresh_from_db()
    assert player.withdrawal_kind == "disqualification"
    assert player.withdrawal_reason == "coaching after a warning"


def test_only_the_organizers_withdraw_an_entry(small_event):
    for role in ("head-referee", "referee", "scoring-table", "player"):
        with pytest.raises(PermissionDenied, match="Only the tournament's organizers may withdraw"):
            forfeits.withdraw_entry(entry=small_event.opponent, user=small_event.users[role])
    assert not Entry.objects.get(pk=small_event.opponent.pk).withdrawn
    assert not Game.objects.exclude(forfeited_by="").exists()


def test_an_unknown_kind_and_a_second_withdrawal_are_refused(small_event):
    with pytest.raises(ValidationError, match="not a kind of withdrawal"):
        forfeits.withdraw_entry(entry=small_event.opponent, kind="holiday")
    forfeits.withdraw_entry(entry=small_event.opponent)
    with pytest.raises(ValidationError, match="has withdrawn already; reinstate the entry first"):
        forfeits.withdraw_entry(entry=small_event.opponent)


def test_a_withdrawal_before_the_draw_makes_no_walkover(small_event):
    undrawn = StageFactory(category__tournament=small_event.tournament).category
    spare = Entry.objects.create(category=undrawn, player=small_event.player.player)
    assert forfeits.withdraw_entry(entry=spare) == []
    spare.refresh_from_db()
    assert spare.withdrawn


def test_a_plain_edit_of_an_entry_never_withdraws_it(small_event):
    """Withdrawing is a ruling (who may, the walkovers it makes), never a field of a change:
    the entry's change takes no ``withdrawn``, and the rulings' service withdraws and
    reinstates."""
    opponent = small_event.opponent
    with pytest.raises(TypeError, match="withdrawn"):
        entries.update_entry(entry=opponent, withdrawn=True)
    assert not opponent.withdrawn and not forfeits.walkovers_against(opponent)
    registration.set_withdrawn(entry=opponent, withdrawn=True)
    assert len(forfeits.walkovers_against(opponent)) == 2
    assert opponent.withdrawn and opponent.withdrawal_kind == "withdrawal"
    registration.set_withdrawn(entry=opponent, withdrawn=False)
    assert not opponent.withdrawn and opponent.withdrawal_kind == ""
    assert not Game.objects.exclude(forfeited_by="").exists()


def test_reinstating_takes_the_walkovers_back(small_event):
    opponent = small_event.opponent
    games = forfeits.withdraw_entry(entry=opponent, reason="ill")
    back = forfeits.reinstate_entry(entry=opponent, user=small_event.users["organizer"])
    assert {g.id for g in back} == {g.id for g in games}
    assert not Game.objects.filter(pk__in=[g.id for g in games]).exclude(forfeited_by="").exists()
    opponent.refresh_from_db()
    assert not opponent.withdrawn and opponent.withdrawal_reason == ""


def test_reinstating_is_refused_once_the_next_stage_is_drawn_from_the_standings(small_event):
    opponent = small_event.opponent
    forfeits.withdraw_entry(entry=opponent)
    following = StageFactory(
        category=small_event.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2
    )
    MatchFactory(stage=following, entry_a=small_event.player, entry_b=small_event.other_player)
    with pytest.raises(ValidationError) as refused:
        forfeits.reinstate_entry(entry=opponent)
    assert refused.value.messages[0].startswith(f"{opponent.name} cannot be reinstated: ")
    assert "from which Final is drawn; undo that draw first." in refused.value.messages[0]
    opponent.refresh_from_db()
    assert opponent.withdrawn and len(forfeits.walkovers_against(opponent)) == 2


def test_the_database_keeps_a_forfeit_whole(small_event):
    game = small_event.game
    game.forfeited_by = "a"  # no kind: refused by the constraint
    with pytest.raises(IntegrityError), transaction.atomic():
        game.save()
    entry = small_event.player
    entry.withdrawal_kind = "withdrawal"  # not withdrawn: refused
    with pytest.raises(IntegrityError), transaction.atomic():
        entry.save()


# --- the organizer's pages ------------------------------------------------------------------


def test_the_check_in_toggle_leads_to_the_confirm_step_after_the_draw(client, small_event):
    slug = small_event.tournament.slug
    opponent = small_event.opponent
    small_event.login(client, "organizer")
    url = reverse("tournaments:manage-entry-withdraw", args=[slug, opponent.id])
    back = reverse("tournaments:manage-checkin", args=[slug])
    response = client.post(url, {"withdrawn": "1", "next": back})
    confirm = reverse("scoring:rulings:entry", args=[slug, opponent.id])
    assert response.status_code == 302 and response["Location"].startswith(confirm)
    assert not Entry.objects.get(pk=opponent.pk).withdrawn  # nothing done yet
    # With htmx the browser is sent there too.
    response = client.post(url, {"withdrawn": "1"}, headers={"HX-Request": "true"})
    assert response["HX-Redirect"].startswith(confirm)
    page = client.get(response["HX-Redirect"])
    assert page.status_code == 200
    text = page.content.decode()
    assert "These games become walkovers" in text
    assert text.count("<strong>W/O</strong>") == 2
    response = client.post(
        reverse("scoring:rulings:withdraw", args=[slug, opponent.id]),
        {"kind": "withdrawal", "reason": "injured", "next": back},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == back
    assert f"{opponent.name} has withdrawn from {small_event.category.name} (injured): " in (
        response.content.decode()
    )
    assert len(forfeits.walkovers_against(opponent)) == 2


def test_the_confirm_step_says_what_is_wrong(client, small_event):
    slug = small_event.tournament.slug
    small_event.login(client, "organizer")
    response = client.post(
        reverse("scoring:rulings:withdraw", args=[slug, small_event.player.id]),
        {"kind": "disqualification", "reason": ""},
    )
    assert response.status_code == 400
    assert "is disqualified (the rule that was broken)." in response.content.decode()
    assert not Entry.objects.get(pk=small_event.player.pk).withdrawn


def test_a_refused_reinstatement_shows_on_the_check_in_row(client, small_event):
    slug = small_event.tournament.slug
    opponent = small_event.opponent
    forfeits.withdraw_entry(entry=opponent)
    following = StageFactory(category=small_event.category, name="Final", order=2)
    MatchFactory(stage=following, entry_a=small_event.player, entry_b=small_event.other_player)
    small_event.login(client, "organizer")
    url = reverse("tournaments:manage-entry-withdraw", args=[slug, opponent.id])
    response = client.post(url, {"withdrawn": "0"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "cannot be reinstated" in response.content.decode()
    assert Entry.objects.get(pk=opponent.pk).withdrawn


def test_before_the_draw_the_toggle_withdraws_at_once(client, small_event):
    slug = small_event.tournament.slug
    spare = Entry.objects.create(
        category=StageFactory(category__tournament=small_event.tournament).category,
        player=small_event.player.player,
    )
    small_event.login(client, "organizer")
    url = reverse("tournaments:manage-entry-withdraw", args=[slug, spare.id])
    assert client.post(url, {"withdrawn": "1"}).status_code == 302
    assert Entry.objects.get(pk=spare.pk).withdrawn
