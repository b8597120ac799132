"""Nobody rules on a game they play in (audit M3 of 2026-11-28).

At a club night most staff also play. Given a staff role, Greta (the small event's player, whose
card it is) used to enter her own row from "paper" already validated, correct it after her
opponent validated it, verify and void her own card, settle the dispute on her own game, forfeit
it and change its closed result. Each attack below is made the way the audit made it (the API,
and the page where there is one) and must be refused with the reason in words, leaving the row or
the game as it was; another official then does it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.models import CardRow, ClosedStageChange
from scoring.permissions import ShootoutTakers, conflict_refusal, plays_in
from scoring.progression.services import record_shootout
from scoring.scorecards.services import (
    card_for,
    confirm_paper_row,
    enter_paper_row,
    fill_row,
    resolve_dispute,
    validate_row,
    verify_card,
)
from tests.events import OPPONENT, PLAYER, WIN, SmallEvent
from tests.factories import CategoryFactory, EntryFactory, StageFactory, TeamFactory, UserFactory
from tests.row_versions import disputed, seen_fields, seen_versions
from tournaments.models import Entry, Game, Match, TournamentRole
from tournaments.services.links import link_of

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Status = CardRow.Status

#: The player's 6-2 win (``WIN``) as the opponent's card tells it: the same game.
LOSS = [{"points": [0, 2], "twenties": [1, 3]}] * 3 + [{"points": [2, 0], "twenties": [2, 1]}]
#: The player's "correction": a clean sweep.
SWEEP = [{"points": [2, 0], "twenties": [4, 0]}] * 4
JSON = {"content_type": "application/json"}


def give(event: SmallEvent, who: str, role: str) -> User:
    """``who``'s login (the player or the opponent) now also holds ``role`` at the event."""
    user = event.users[who]
    TournamentRole.objects.create(tournament=event.tournament, user=user, role=role)
    for cached in ("_tournament_roles", "_played_entry_ids"):
        user.__dict__.pop(cached, None)
    return user


def says_why(text: str, act: str = "") -> None:
    """The refusal names the reason (their own game, their own card) and sends them to another
    official."""
    assert "You play in" in text or "your own card" in text, text[:800]
    assert "another official must" in text, text[:800]
    if act:
        assert act in text, text[:800]


def refused_page(response, act: str = "") -> None:
    assert response.status_code == 403, response.status_code
    says_why(response.content.decode(), act)


def refused_api(response, act: str = "") -> None:
    assert response.status_code == 403, response.content[:400]
    says_why(response.json()["detail"], act)


def validated(event: SmallEvent) -> CardRow:
    """The player's row filled by her (a 6-2 win) and validated by the opponent."""
    row = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=WIN,
        user=event.users[PLAYER],
    )
    return validate_row(
        row=row,
        opponent_number=str(event.opponent.player.number),
        initials="OP",
        user=event.users[OPPONENT],
    )


def dispute(event: SmallEvent) -> None:
    """The two cards of the game disagree: each says its owner won 6-2. The opponent saves his,
    which contradicts the row he validated, after the warning: a dispute."""
    validated(event)
    fill_row(
        card=card_for(event.stage, event.opponent),
        game=event.game,
        rounds=WIN,
        user=event.users[OPPONENT],
        confirm_contradiction=True,
    )
    assert len(disputed(event.game)) == 2


def snapshot(row: CardRow) -> tuple:
    row = CardRow.objects.get(pk=row.pk)
    return (row.status, row.rounds, row.version, row.referee_initials, row.verified_by_id)


def paper_body(event: SmallEvent) -> dict:
    return {
        "game": event.game.pk,
        "rounds": WIN,
        "opponent_number": str(event.opponent.player.number),
        "initials": "KN",
    }


# Entering her own row from paper ----------------------------------------------------------------


def test_paper_entry_of_her_own_row_through_the_api_is_refused(small_event, client):
    """M3: ``POST /api/scorecards/{her card}/paper/`` entered her row filled and validated in
    one step (201 validated)."""
    event = small_event
    client.force_login(give(event, PLAYER, Role.REFEREE))
    card = card_for(event.stage, event.player)
    response = client.post(f"/api/scorecards/{card.pk}/paper/", paper_body(event), **JSON)
    refused_api(response, "enter its paper card")
    assert event.player.name in response.json()["detail"]  # which game, by its players
    assert not CardRow.objects.filter(game=event.game).exists()
    # Nor her opponent's card of the same game: she would sign for him.
    theirs = card_for(event.stage, event.opponent)
    body = {**paper_body(event), "opponent_number": str(event.player.player.number)}
    refused_api(client.post(f"/api/scorecards/{theirs.pk}/paper/", body, **JSON))
    assert not CardRow.objects.filter(game=event.game).exists()
    # Another official enters it.
    client.force_login(event.users["referee"])
    response = client.post(f"/api/scorecards/{card.pk}/paper/", paper_body(event), **JSON)
    assert response.status_code == 201, response.content[:400]


def test_paper_entry_of_her_own_row_through_the_page_is_refused(small_event, client):
    event = small_event
    client.force_login(give(event, PLAYER, Role.SCORING_TABLE))
    slug = event.tournament.slug
    url = reverse(
        "scoring:cards:paper_row", args=[slug, event.stage.pk, event.player.pk, event.game.pk]
    )
    # The page shows why instead of the boxes...
    page = client.get(url)
    assert page.status_code == 200
    says_why(page.content.decode(), "enter its paper card")
    assert b'name="paper-initials"' not in page.content
    # ... and a post made anyway is refused.
    data = {
        "paper-version": 0,
        "paper-opponent_number": event.opponent.player.number,
        "paper-initials": "KN",
    }
    for n, r in enumerate(WIN, start=1):
        data[f"paper-r{n}_points_own"], data[f"paper-r{n}_points_opp"] = r["points"]
        data[f"paper-r{n}_twenties_own"], data[f"paper-r{n}_twenties_opp"] = r["twenties"]
    refused_page(client.post(url, data), "enter its paper card")
    assert not CardRow.objects.filter(game=event.game).exists()
    # Another game of the round is hers to enter: she plays in neither side of it.
    other = Match.objects.filter(stage=event.stage, round_of_play=1).exclude(pk=event.match.pk)
    game = Game.objects.filter(match__in=other, match__entry_b__isnull=False).first()
    other_url = reverse(
        "scoring:cards:paper_row",
        args=[slug, event.stage.pk, game.match.entry_a_id, game.pk],
    )
    other_page = client.get(other_url)
    assert b'name="paper-initials"' in other_page.content
    assert b"another official must" not in other_page.content


def test_confirming_the_paper_entry_of_her_own_game_is_refused(small_event, client):
    event = small_event
    event.tournament.paper_rows_need_confirmation = True
    event.tournament.save()
    row = enter_paper_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=WIN,
        opponent_number=str(event.opponent.player.number),
        initials="KN",
        user=event.users["referee"],
    )
    assert row.status == Status.AWAITING
    greta = give(event, PLAYER, Role.REFEREE)
    with pytest.raises(PermissionDenied) as refused:
        confirm_paper_row(row=row, user=greta, version=row.version)
    says_why(str(refused.value), "confirm its paper entry")
    client.force_login(greta)
    url = reverse("scoring:cards:confirm_paper_row", args=[event.tournament.slug, row.pk])
    refused_page(client.post(url, {"version": row.version}))
    response = client.post(f"/api/card-rows/{row.pk}/confirm/", {"version": row.version}, **JSON)
    refused_api(response, "confirm its paper entry")
    assert CardRow.objects.get(pk=row.pk).status == Status.AWAITING
    # The table page offers her no button for it, and says why.
    table = client.get(reverse("scoring:cards:table", args=[event.tournament.slug]))
    assert b"Confirm paper entry" not in table.content
    assert b"another official must confirm its paper entry" in table.content


# Correcting her own row after validation --------------------------------------------------------


def test_correcting_her_own_validated_row_is_refused(small_event, client):
    """M3: after Kai validated 0-8, she "corrected" it to 8-0 with her own initials (200)."""
    event = small_event
    row = validated(event)
    before = snapshot(row)
    greta = give(event, PLAYER, Role.REFEREE)
    client.force_login(greta)
    card = card_for(event.stage, event.player)
    body = {"game": event.game.pk, "rounds": SWEEP, "version": row.version}
    response = client.post(
        f"/api/scorecards/{card.pk}/fill/", {**body, "referee_initials": "GG"}, **JSON
    )
    refused_api(response, "correct it")
    url = reverse(
        "scoring:cards:correct_row",
        args=[event.tournament.slug, event.stage.pk, event.player.pk, event.game.pk],
    )
    g = event.game.pk
    data = {f"g{g}-version": row.version, f"g{g}-referee_initials": "GG"}
    for n, r in enumerate(SWEEP, start=1):
        data[f"g{g}-r{n}_points_own"], data[f"g{g}-r{n}_points_opp"] = r["points"]
        data[f"g{g}-r{n}_twenties_own"], data[f"g{g}-r{n}_twenties_opp"] = r["twenties"]
    refused_page(client.post(url, data), "correct it")
    with pytest.raises(PermissionDenied):
        fill_row(
            card=card,
            game=event.game,
            rounds=SWEEP,
            user=greta,
            version=row.version,
            referee_initials="GG",
        )
    assert snapshot(row) == before
    # Her card page offers her no correction form.
    card_url = reverse(
        "scoring:cards:card", args=[event.tournament.slug, event.stage.pk, event.player.pk]
    )
    box = f'name="g{g}-referee_initials"'.encode()
    page = client.get(card_url)
    assert page.status_code == 200 and box not in page.content
    client.force_login(event.users["referee"])
    assert box in client.get(card_url).content  # a referee who does not play is offered it
    # Another referee corrects it.
    fill_row(
        card=card,
        game=event.game,
        rounds=SWEEP,
        user=event.users["referee"],
        version=row.version,
        referee_initials="RF",
    )
    assert CardRow.objects.get(pk=row.pk).referee_initials == "RF"


def test_filling_her_own_row_stays_hers(small_event):
    """Filling one's own row is the player's act, whatever role they hold too; filling the
    opponent's row of the same game (which she would then sign) is not."""
    event = small_event
    greta = give(event, PLAYER, Role.REFEREE)
    row = fill_row(
        card=card_for(event.stage, event.player), game=event.game, rounds=WIN, user=greta
    )
    assert row.status == Status.FILLED
    with pytest.raises(PermissionDenied) as refused:
        fill_row(
            card=card_for(event.stage, event.opponent), game=event.game, rounds=LOSS, user=greta
        )
    says_why(str(refused.value), "fill this row")


# Verifying and voiding her own card -------------------------------------------------------------


@pytest.mark.parametrize("whose", ["her own card", "the opponent's card"])
def test_verifying_a_card_of_her_own_game_is_refused(small_event, client, whose):
    """M3: as scoring table she verified her own card (200 verified). The opponent's card of
    the same game is hers to keep her hands off too: it makes the same game official."""
    event = small_event
    row = validated(event)
    entry = event.player if whose == "her own card" else event.opponent
    if entry == event.opponent:
        row = fill_row(
            card=card_for(event.stage, entry),
            game=event.game,
            rounds=LOSS,  # the same game seen from his side: she won it 6-2
            user=event.users[OPPONENT],
        )
        # Her own card, which he validated, says the same: his row is validated by it.
        assert row.status == Status.VALIDATED
    card = card_for(event.stage, entry)
    before = snapshot(row)
    greta = give(event, PLAYER, Role.SCORING_TABLE)
    client.force_login(greta)
    body = {"versions": seen_versions([row])}
    refused_api(client.post(f"/api/scorecards/{card.pk}/verify/", body, **JSON), "verify")
    url = reverse("scoring:cards:verify_card", args=[event.tournament.slug, card.pk])
    refused_page(client.post(url, seen_fields([row])), "verify this card")
    assert snapshot(row) == before
    # The table shows her the card with the reason instead of its buttons.
    table = client.get(reverse("scoring:cards:table", args=[event.tournament.slug]))
    html = table.content.decode()
    card_html = html[html.index(f'id="card-{card.pk}"') :]
    card_html = card_html[: card_html.index("</article>")]
    assert "Verify card" not in card_html and "Void card" not in card_html
    says_why(card_html.replace("&#x27;", "'"), "verify this card")
    # The scoring table who does not play verifies it.
    verify_card(card=card, user=event.users["scoring-table"], versions={row.pk: row.version})
    assert CardRow.objects.get(pk=row.pk).status == Status.VERIFIED


def test_voiding_her_own_card_is_refused(small_event, client):
    event = small_event
    row = validated(event)
    before = snapshot(row)
    card = card_for(event.stage, event.player)
    client.force_login(give(event, PLAYER, Role.HEAD_REFEREE))
    body = {"reason": "illegible", "versions": seen_versions([row])}
    refused_api(client.post(f"/api/scorecards/{card.pk}/void/", body, **JSON), "void this card")
    url = reverse("scoring:cards:void_card", args=[event.tournament.slug, card.pk])
    refused_page(client.post(url, {"reason": "illegible", **seen_fields([row])}))
    assert snapshot(row) == before


# Settling the dispute on her own game -----------------------------------------------------------


def test_settling_the_dispute_on_her_own_game_is_refused(small_event, client):
    """M3: as head referee she settled the dispute on her own game in her favour (200)."""
    event = small_event
    dispute(event)
    rows = disputed(event.game)
    before = [snapshot(r) for r in rows]
    greta = give(event, PLAYER, Role.HEAD_REFEREE)
    client.force_login(greta)
    body = {"rounds": WIN, "initials": "GG", "versions": seen_versions(rows)}
    response = client.post(f"/api/games/{event.game.pk}/resolve-dispute/", body, **JSON)
    refused_api(response, "settle its dispute")
    url = reverse("scoring:cards:resolve_dispute", args=[event.tournament.slug, event.game.pk])
    g = event.game.pk
    data = {f"d{g}-initials": "GG", **seen_fields(rows)}
    for n, r in enumerate(WIN, start=1):
        data[f"d{g}-r{n}_points_own"], data[f"d{g}-r{n}_points_opp"] = r["points"]
        data[f"d{g}-r{n}_twenties_own"], data[f"d{g}-r{n}_twenties_opp"] = r["twenties"]
    refused_page(client.post(url, data), "settle its dispute")
    assert [snapshot(r) for r in rows] == before
    # The queue shows her the dispute, without the ruling's form, and says why.
    queue = client.get(reverse("scoring:cards:disputes", args=[event.tournament.slug]))
    assert queue.status_code == 200
    assert f'name="d{g}-initials"'.encode() not in queue.content
    says_why(queue.content.decode().replace("&#x27;", "'"), "settle its dispute")
    # The head referee who does not play settles it.
    resolve_dispute(
        game=event.game,
        rounds_a=WIN,
        user=event.users["head-referee"],
        initials="HR",
        versions={r.pk: r.version for r in rows},
    )
    assert {r.status for r in CardRow.objects.filter(game=event.game)} == {Status.VERIFIED}


def test_a_doubles_partner_is_refused_too(small_event):
    """Either partner of a team plays in its games: the partner who is head referee does not
    settle (nor verify) the team's game."""
    event = small_event
    category = CategoryFactory(tournament=event.tournament, name="Doubles", doubles=True)
    stage = StageFactory(category=category, name="Doubles prelim", games_per_entry=1, order=1)
    partner = UserFactory(username="partner")
    team = TeamFactory(tournament=event.tournament, player_two__user=partner)
    ours = EntryFactory(category=category, player=None, team=team)
    theirs = EntryFactory(doubles=True, category=category)
    match = Match.objects.create(stage=stage, entry_a=ours, entry_b=theirs)
    game = Game.objects.create(match=match, number=1)
    TournamentRole.objects.create(tournament=event.tournament, user=partner, role=Role.HEAD_REFEREE)
    assert plays_in.test(partner, game)
    assert not partner.has_perm("scoring.resolve_dispute", match)
    assert not partner.has_perm("scoring.forfeit", match)
    says_why(conflict_refusal(partner, "scoring.resolve_dispute", match), "settle its dispute")
    assert partner.has_perm("scoring.resolve_dispute", event.match)  # not his game


def test_a_private_link_held_by_a_referee_counts_as_playing(small_event):
    """A referee whose browser holds the player's private link acts for her: the link's game is
    theirs to keep their hands off."""
    event = small_event
    referee = User.objects.get(pk=event.users["referee"].pk)
    referee.entry_links = [(event.player.id, link_of(event.player).token)]
    row = validated(event)
    assert not referee.has_perm("scoring.correct_row", row)
    says_why(conflict_refusal(referee, "scoring.correct_row", row), "correct it")


# Forfeits, withdrawals, disqualifications -------------------------------------------------------


def test_forfeiting_her_own_game_is_refused(small_event, client):
    from scoring.results.services import record_game

    event = small_event
    record_game(event.game, WIN)
    greta = give(event, PLAYER, Role.HEAD_REFEREE)
    client.force_login(greta)
    body = {"side": "b", "reason": "coaching"}
    response = client.post(f"/api/games/{event.game.pk}/forfeit/", body, **JSON)
    refused_api(response, "rule on its forfeits")
    url = reverse("scoring:rulings:forfeit_game", args=[event.tournament.slug, event.game.pk])
    refused_page(client.post(url, {"game-side": "b", "game-reason": "coaching"}))
    round_url = reverse(
        "scoring:rulings:forfeit_round", args=[event.tournament.slug, event.game.pk]
    )
    data = {"round-round": "1", "round-side": "b", "round-reason": "slow play"}
    refused_page(client.post(round_url, data))
    game = Game.objects.get(pk=event.game.pk)
    assert game.forfeited_by == "" and not game.rounds.filter(forfeited_by__gt="").exists()
    # The game's rulings page shows her why, without the forms.
    page = client.get(reverse("scoring:rulings:game", args=[event.tournament.slug, event.game.pk]))
    assert page.status_code == 200 and b"Forfeit game</button>" not in page.content
    says_why(page.content.decode().replace("&#x27;", "'"), "rule on its forfeits")


def test_disqualifying_her_opponent_or_herself_is_refused(small_event, client):
    """Disqualifying the opponent she still has to play hands her a walkover; disqualifying
    herself is a ruling on her own entry. Withdrawing herself is her own choice (allowed)."""
    event = small_event
    greta = give(event, PLAYER, Role.HEAD_REFEREE)
    client.force_login(greta)
    for entry in (event.opponent, event.player):
        body = {"kind": "disqualification", "reason": "coaching"}
        response = client.post(f"/api/entries/{entry.pk}/withdraw/", body, **JSON)
        assert response.status_code == 403, response.content[:300]
        detail = response.json()["detail"]
        assert "another official must" in detail, detail
        assert not Entry.objects.get(pk=entry.pk).withdrawn
    assert "your own entry" in detail
    # Another player's entry, whom she does not play, is hers to disqualify.
    others = Entry.objects.filter(category=event.category).exclude(
        pk__in=[event.player.pk, event.opponent.pk]
    )
    met = {
        e
        for m in Match.objects.filter(stage=event.stage)
        for e in (m.entry_a_id, m.entry_b_id)
        if event.player.pk in (m.entry_a_id, m.entry_b_id)
    }
    stranger = next(e for e in others if e.pk not in met)
    assert greta.has_perm("tournaments.disqualify_entry", stranger)


# Closed stages, shoot-outs ----------------------------------------------------------------------


def test_changing_a_closed_result_of_her_own_game_is_refused(small_event, client):
    from scoring.progression.closed import official_rounds
    from scoring.progression.locks import stage_closed
    from scoring.results.services import record_game
    from tournaments.models import Stage
    from tournaments.selectors import BRACKET_POOL
    from tournaments.services.draws import store_pool

    event = small_event
    record_game(event.game, WIN)
    final = StageFactory(
        category=event.stage.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2
    )
    store_pool(final, BRACKET_POOL, [event.player, event.opponent])
    assert stage_closed(event.stage)
    before = official_rounds(Game.objects.get(pk=event.game.pk))
    client.force_login(give(event, PLAYER, Role.HEAD_REFEREE))
    body = {"rounds": SWEEP, "reason": "misread", "initials": "GG"}
    response = client.post(f"/api/games/{event.game.pk}/closed-change/", body, **JSON)
    refused_api(response, "change its result")
    url = reverse(
        "scoring:closed_change", args=[event.tournament.slug, event.stage.pk, event.game.pk]
    )
    refused_page(client.get(url), "change its result")
    assert not ClosedStageChange.objects.filter(game=event.game).exists()
    assert official_rounds(Game.objects.get(pk=event.game.pk)) == before
    page = client.get(reverse("scoring:closed_stage", args=[event.tournament.slug, event.stage.pk]))
    assert b"another official must change its result" in page.content


def test_recording_a_shootout_she_shoots_in_is_refused(small_event):
    event = small_event
    greta = give(event, PLAYER, Role.SCORING_TABLE)
    takers = ShootoutTakers(event.stage, frozenset({event.player.id, event.opponent.id}))
    assert not greta.has_perm("scoring.record_shootout", takers)
    with pytest.raises(PermissionDenied) as refused:
        record_shootout(event.stage, {event.player: 5, event.opponent: 3}, user=greta)
    says_why(str(refused.value), "record it")
