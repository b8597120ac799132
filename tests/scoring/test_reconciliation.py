"""Reconciliation per round: when both players' rows of a game are in (from phones at different
times, or from paper), identical rows confirm each other and differing rounds go to the head
referee's queue, with a per-round diff that names the round.

WCC: the opponent reviews the scorecard and records their ID and initials. A row the opponent
entered on their own card, saying the same round by round, is the opponent asserting the same
result: the two rows validate each other (``ValidatedHow.AGREEMENT``); the scoring table still
verifies them.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring.models import CardRow
from scoring.scorecards.diffs import canonical, contradictions, identical, round_diffs
from scoring.scorecards.services import (
    card_for,
    enter_paper_row,
    fill_row,
    validate_row,
    verify_card,
)
from tests.events import OPPONENT, PLAYER, WIN, SmallEvent
from tests.factories import CategoryFactory, EntryFactory, StageFactory, UserFactory
from tournaments.models import Category
from tournaments.services.draws import draw_stage
from tournaments.services.links import link_of

Status = CardRow.Status
How = CardRow.ValidatedHow
DASH = "\u2013"


def mirror(rounds):
    return [{"points": r["points"][::-1], "twenties": r["twenties"][::-1]} for r in rounds]


#: The opponent's claim: the same game, but he says he won round 4 with one 20 less.
CLAIM = [*mirror(WIN[:3]), {"points": [2, 0], "twenties": [1, 1]}]


def _own_rows(event: SmallEvent, mine=WIN, theirs=None) -> tuple[CardRow, CardRow]:
    """Each player enters their own row of the game on their own login."""
    ra = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=mine,
        user=event.users[PLAYER],
    )
    rb = fill_row(
        card=card_for(event.stage, event.opponent),
        game=event.game,
        rounds=mirror(mine) if theirs is None else theirs,
        user=event.users[OPPONENT],
    )
    return CardRow.objects.get(pk=ra.pk), CardRow.objects.get(pk=rb.pk)


# Two phones ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_identical_rows_from_both_players_validate_each_other(small_event):
    e = small_event
    ra, rb = _own_rows(e)
    assert (ra.status, ra.validated_how) == (Status.VALIDATED, How.AGREEMENT)
    assert (rb.status, rb.validated_how) == (Status.VALIDATED, How.AGREEMENT)
    # Each row names the other card's entry as its signer, with the ID and initials paper asks.
    assert ra.validated_entry == e.opponent and ra.validated_number == str(e.opponent.number)
    assert rb.validated_entry == e.player and rb.validated_number == str(e.player.number)
    assert ra.validated_initials and ra.validated_by == e.users[OPPONENT]
    assert ra.history.first().history_change_reason.startswith("validated:")
    # Only verified cards count at this event: nothing is official before the table verifies.
    assert not e.game.rounds.exists()
    verify_card(card=ra.card, user=e.users["scoring-table"])
    assert list(e.game.rounds.values_list("points_a", "points_b")) == [(2, 0)] * 3 + [(0, 2)]


@pytest.mark.django_db
def test_the_card_and_the_table_say_the_row_was_validated_by_agreement(small_event, client):
    e = small_event
    ra, _ = _own_rows(e)
    slug = e.tournament.slug
    client.force_login(e.users[PLAYER])
    card = client.get(reverse("scoring:cards:card", args=[slug, e.stage.id, e.player.id]))
    text = card.content.decode()
    assert f"Validated by ID <strong>{e.opponent.number}</strong>" in text
    assert ": both cards agree, their own card says the same" in text
    client.force_login(e.users["scoring-table"])
    table = client.get(reverse("scoring:cards:table", args=[slug])).content.decode()
    said = f"both cards agree (ID {e.opponent.number}, initials {ra.validated_initials}): "
    assert said + f"{e.opponent.name}&#x27;s own card says the same" in table


@pytest.mark.django_db
def test_where_validated_cards_count_the_agreement_makes_the_result_official(small_event):
    e = small_event
    e.tournament.count_validated_cards = True
    e.tournament.save()
    fill_row(card=card_for(e.stage, e.player), game=e.game, rounds=WIN, user=e.users[PLAYER])
    assert not e.game.rounds.exists()  # one card alone says nothing official
    fill_row(
        card=card_for(e.stage, e.opponent),
        game=e.game,
        rounds=mirror(WIN),
        user=e.users[OPPONENT],
    )
    assert list(e.game.rounds.values_list("points_a", "twenties_a")) == [(2, 3)] * 3 + [(0, 1)]


@pytest.mark.django_db
def test_rows_that_agree_so_far_but_stop_short_wait(small_event):
    """Two rows of the first two rounds: nothing to validate yet (the game is not over on them),
    nothing to dispute."""
    ra, rb = _own_rows(small_event, mine=WIN[:2])
    assert (ra.status, rb.status) == (Status.FILLED, Status.FILLED)
    assert ra.validated_how == "" and not small_event.game.rounds.exists()


@pytest.mark.django_db
def test_differing_rows_from_both_players_go_to_the_dispute_queue(small_event, client):
    e = small_event
    e.tournament.count_validated_cards = True
    e.tournament.save()
    ra, rb = _own_rows(e, theirs=CLAIM)
    assert (ra.status, rb.status) == (Status.DISPUTED, Status.DISPUTED)
    assert not e.game.rounds.exists()
    assert rb.history.first().history_change_reason == "the cards of this game disagree"

    client.force_login(e.users["head-referee"])
    body = client.get(reverse("scoring:cards:disputes", args=[e.tournament.slug])).content
    text = body.decode().replace("&#x27;", "'")
    # The per-round diff names the round and what each card says of it (the match's order).
    a, b = e.player.name, e.opponent.name
    expected = f"Round 4: {a}'s card 0{DASH}2, 20s 1{DASH}2; {b}'s card 0{DASH}2, 20s 1{DASH}1"
    block = re.search(r'<div class="differences".*?</div>', text, re.S).group(0)
    assert "The cards differ in one round:" in block
    assert re.findall(r"<li>(.*?)</li>", block) == [expected]


@pytest.mark.django_db
def test_a_row_a_referee_typed_for_the_player_waits_for_the_signature(small_event):
    """Only a row its own side entered takes part: one a referee typed waits, as before, for
    the opponent's signature, which then compares it."""
    e = small_event
    ra = fill_row(
        card=card_for(e.stage, e.player), game=e.game, rounds=WIN, user=e.users["referee"]
    )
    rb = fill_row(
        card=card_for(e.stage, e.opponent),
        game=e.game,
        rounds=mirror(WIN),
        user=e.users[OPPONENT],
    )
    assert (rb.status, CardRow.objects.get(pk=ra.pk).status) == (Status.FILLED, Status.FILLED)
    signed = validate_row(
        row=ra, opponent_number=str(e.opponent.number), initials="OP", user=e.users[OPPONENT]
    )
    assert (signed.status, signed.validated_how) == (Status.VALIDATED, How.PHONE)
    # The opponent's own row agrees with the player's row he signed... but the player's row was
    # typed by a referee: it is not the player's word, so it validates nothing.
    assert CardRow.objects.get(pk=rb.pk).status == Status.FILLED


@pytest.mark.django_db
def test_a_row_entered_by_private_link_takes_part(small_event):
    """A phone holding the entry's private link, no login: the row is its side's own."""
    e = small_event
    fill_row(card=card_for(e.stage, e.player), game=e.game, rounds=WIN, user=e.users[PLAYER])
    phone = AnonymousUser()
    phone.entry_links = [(e.opponent.id, link_of(e.opponent).token)]
    rb = fill_row(card=card_for(e.stage, e.opponent), game=e.game, rounds=mirror(WIN), user=phone)
    assert rb.filled_by is None
    assert (rb.status, rb.validated_how) == (Status.VALIDATED, How.AGREEMENT)


# Paper and phone -------------------------------------------------------------------------------


def _paper(event: SmallEvent, rounds) -> CardRow:
    """The player's paper card, entered by the table, signed on paper by the opponent."""
    return enter_paper_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=rounds,
        opponent_number=str(event.opponent.number),
        initials="OP",
        user=event.users["scoring-table"],
    )


@pytest.mark.django_db
def test_a_paper_card_agreeing_with_the_opponents_phone_row_validates_it(small_event):
    e = small_event
    phone = fill_row(
        card=card_for(e.stage, e.opponent),
        game=e.game,
        rounds=mirror(WIN),
        user=e.users[OPPONENT],
    )
    paper = _paper(e, WIN)
    phone.refresh_from_db()
    assert (paper.status, paper.validated_how) == (Status.VALIDATED, How.PAPER)
    assert (phone.status, phone.validated_how) == (Status.VALIDATED, How.AGREEMENT)
    # Signed by the player's paper card: the player's ID, no login (staff typed it).
    assert phone.validated_entry == e.player and phone.validated_by is None


@pytest.mark.django_db
def test_a_paper_card_differing_from_the_opponents_phone_row_is_a_dispute(small_event):
    e = small_event
    phone = fill_row(
        card=card_for(e.stage, e.opponent), game=e.game, rounds=CLAIM, user=e.users[OPPONENT]
    )
    paper = _paper(e, WIN)
    phone.refresh_from_db()
    assert (paper.status, phone.status) == (Status.DISPUTED, Status.DISPUTED)


# Three players at a board ----------------------------------------------------------------------

#: A three-player game from entry A's side, won 8-4-3.
TRIO = [
    {"points": [2, 1, 0], "twenties": [2, 1, 0]},
    {"points": [2, 0, 1], "twenties": [1, 0, 0]},
    {"points": [0, 1, 2], "twenties": [0, 0, 1]},
    {"points": [2, 1, 0], "twenties": [1, 0, 0]},
    {"points": [2, 1, 0], "twenties": [2, 1, 0]},
]


def seen_by(rounds, order):
    return [{key: [r[key][i] for i in order] for key in ("points", "twenties")} for r in rounds]


@pytest.fixture
def trio():
    category = CategoryFactory(
        scoring_system=Category.ScoringSystem.THREE_PLAYER, discs_per_player=12
    )
    stage = StageFactory(category=category, games_per_entry=3, name="Triples", bye_points=0)
    for _ in range(7):
        EntryFactory(category=category)
    draw_stage(stage)
    match = stage.matches.filter(round_of_play=1, entry_b__isnull=False).first()
    for entry in match.entries:
        entry.player.user = UserFactory()
        entry.player.save()
    return stage, match


@pytest.mark.django_db
def test_three_cards_reconcile_two_by_two_and_a_third_that_differs_disputes(trio):
    stage, match = trio
    game = match.games.get()
    a, b, c = match.entry_a, match.entry_b, match.entry_c
    ra = fill_row(card=card_for(stage, a), game=game, rounds=TRIO, user=a.player.user)
    assert ra.status == Status.FILLED  # alone at the board so far
    rb = fill_row(
        card=card_for(stage, b), game=game, rounds=seen_by(TRIO, (1, 0, 2)), user=b.player.user
    )
    assert rb.status == Status.VALIDATED and rb.validated_entry == a
    assert CardRow.objects.get(pk=ra.pk).validated_entry == b
    # C says round 2 was his, not A's: his own card contradicts two validated cards. He is
    # warned first (see test_contradictions.py); saved anyway, every card goes to the referee.
    wrong = seen_by(TRIO, (2, 0, 1))
    wrong[1] = {"points": [2, 1, 0], "twenties": [0, 1, 0]}
    rc = fill_row(
        card=card_for(stage, c),
        game=game,
        rounds=wrong,
        user=c.player.user,
        confirm_contradiction=True,
    )
    assert rc.status == Status.DISPUTED
    assert set(CardRow.objects.filter(game=game).values_list("status", flat=True)) == {
        Status.DISPUTED
    }


# The dry run -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_simulations_rows_still_wait_for_their_signature(small_event):
    """The simulation fills both cards as the referee account: neither row is its player's
    word, so each is signed and then verified as before."""
    e = small_event
    referee = e.users["referee"]
    ra = fill_row(
        card=card_for(e.stage, e.player), game=e.game, rounds=WIN, user=referee, simulated=True
    )
    rb = fill_row(
        card=card_for(e.stage, e.opponent),
        game=e.game,
        rounds=mirror(WIN),
        user=referee,
        simulated=True,
    )
    assert (ra.status, rb.status) == (Status.FILLED, Status.FILLED)


# The diff itself -------------------------------------------------------------------------------

points = st.sampled_from([[2, 0], [1, 1], [0, 2], [0, 0]])
a_round = st.builds(
    lambda p, t, s: {"points": p, "twenties": t, "score": s, "time_expired": p == [0, 0]},
    points,
    st.lists(st.integers(0, 3), min_size=2, max_size=2),
    st.one_of(st.none(), st.lists(st.integers(0, 40).map(lambda n: 5 * n), min_size=2, max_size=2)),
)
a_row = st.lists(a_round, min_size=0, max_size=6)


def _same(first, second) -> bool:
    """The rule, written out: the same points, 20s and time, and board scores equal where both
    rows give them."""
    if first is None or second is None:
        return first is second
    a, b = canonical(first), canonical(second)
    scores_agree = a["score"] is None or b["score"] is None or a["score"] == b["score"]
    rest = ("points", "twenties", "time_expired")
    return scores_agree and all(a[k] == b[k] for k in rest)


@given(first=a_row, second=a_row)
def test_a_diff_is_empty_exactly_when_the_rows_are_the_same(first, second):
    found = round_diffs([first, second])
    same = len(first) == len(second) and all(map(_same, first, second))
    assert (found == []) == same
    assert identical(first, second) == same


@given(row=a_row)
def test_a_board_score_left_off_one_card_is_no_difference(row):
    """Board scores are optional on a card: the opponent who wrote only points and 20s told
    the rounds the same."""
    bare = [{**r, "score": None} for r in row]
    assert round_diffs([row, bare]) == []
    changed = [{**r, "score": [r["score"][0] + 5, r["score"][1]]} for r in row if r["score"]]
    if changed:
        with_scores = [r for r in row if r["score"]]
        assert len(round_diffs([with_scores, changed])) == len(changed)


@given(first=a_row, second=a_row)
def test_a_diff_names_exactly_the_rounds_that_differ(first, second):
    longest = max(len(first), len(second))

    def at(row, i):
        return canonical(row[i]) if i < len(row) else None

    def told(row, i):
        return row[i] if i < len(row) else None

    differing = [i + 1 for i in range(longest) if not _same(told(first, i), told(second, i))]
    found = round_diffs([first, second])
    assert [d.number for d in found] == differing
    for diff in found:
        assert diff.versions == (at(first, diff.number - 1), at(second, diff.number - 1))
    # A contradiction is a differing round both rows have.
    both = [n for n in differing if n <= min(len(first), len(second))]
    assert [d.number for d in contradictions([first, second])] == both


@given(row=a_row)
def test_a_row_written_in_another_shape_is_the_same_row(row):
    """Tuples, blank 20s and missing keys are the same round (what a form, the API and the
    stored JSON each write)."""
    other = []
    for r in row:
        shaped = {"points": tuple(r["points"])}
        if any(r["twenties"]):
            shaped["twenties"] = tuple(r["twenties"])
        if r["score"]:
            shaped["score"] = tuple(r["score"])
        if r["time_expired"]:
            shaped["time_expired"] = True
        other.append(shaped)
    assert round_diffs([row, other]) == []
