"""Validating by the phone's identity: the opponent reads the rounds and agrees; their ID and
initials come from the login or private link that acts for them, and paper's typed way stays
for everyone else. What looks wrong on a row is shown before signing, and never stops it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import CardRow
from scoring.scorecards.implied import initials_of
from scoring.scorecards.plausible import records_of, row_doubts
from scoring.scorecards.services import ScorecardError, card_for, fill_row, validate_row
from tests.events import OPPONENT, PLAYER, WIN
from tests.factories import RoundFactory
from tournaments.actions import Forbidden
from tournaments.models import Game, Match, Player
from tournaments.services.links import link_of

pytestmark = pytest.mark.django_db
Status = CardRow.Status

#: Round 2 won with no 20s against six: more than 8 discs without a 20 can make.
IMPOSSIBLE = [
    {"points": [2, 0], "twenties": [2, 1]},
    {"points": [2, 0], "twenties": [0, 6]},
    {"points": [0, 2], "twenties": [1, 2]},
    {"points": [2, 0], "twenties": [3, 1]},
]


def _link(event, entry) -> str:
    return reverse("scoring:private_link", args=[event.tournament.slug, link_of(entry).token])


def _card(event, name: str = "card", game=None) -> str:
    args = [event.tournament.slug, event.stage.id, event.player.id]
    if game is not None:
        args.append(game.id)
    return reverse(f"scoring:cards:{name}", args=args)


def _filled(event, rounds=WIN, game=None) -> CardRow:
    card = card_for(event.stage, event.player)
    return fill_row(card=card, game=game or event.game, rounds=rounds, user=event.users[PLAYER])


def _agree(event, client, row: CardRow, **extra):
    data = {f"v{row.game_id}-version": row.version, **extra}
    return client.post(_card(event, "validate_row", row.game), data)


def _initials(player: Player) -> str:
    return (player.first_name[0] + player.last_name[0]).upper()


def test_the_opponents_private_link_signs_with_one_agree(small_event, client):
    event = small_event
    row = _filled(event)
    client.get(_link(event, event.opponent))
    page = client.get(_card(event)).content.decode()
    assert "Agree · sign as" in page and f"(ID {event.opponent.player.number})" in page
    assert _agree(event, client, row).status_code == 302
    row.refresh_from_db()
    assert row.status == Status.VALIDATED
    assert row.validated_how == CardRow.ValidatedHow.PHONE
    assert row.validated_entry_id == event.opponent.id and row.validated_by is None
    assert row.validated_number == str(event.opponent.player.number)
    assert row.validated_initials == _initials(event.opponent.player)


def test_the_opponents_login_signs_with_one_agree_too(small_event, client):
    event = small_event
    row = _filled(event)
    event.login(client, OPPONENT)
    assert _agree(event, client, row).status_code == 302
    row.refresh_from_db()
    assert row.status == Status.VALIDATED
    assert row.validated_by == event.users[OPPONENT]
    assert row.validated_initials == _initials(event.opponent.player)


def test_the_typed_way_stays_and_half_a_signature_is_refused_in_words(small_event, client):
    event = small_event
    row = _filled(event)
    client.get(_link(event, event.opponent))
    prefix = f"v{row.game_id}"
    half = _agree(event, client, row, **{f"{prefix}-opponent_number": "999"})
    assert half.status_code == 200
    assert "The opponent&#x27;s initials are missing." in half.content.decode()
    typed = _agree(
        event,
        client,
        row,
        **{
            f"{prefix}-opponent_number": str(event.opponent.player.number),
            f"{prefix}-initials": "zz",
        },
    )
    assert typed.status_code == 302
    row.refresh_from_db()
    assert row.status == Status.VALIDATED and row.validated_initials == "ZZ"


def test_nobody_else_signs_without_typing(small_event):
    """The owner has no opponent's identity: refused for who they are; a referee signing a
    simulated row types the opponent's ID and initials, as before."""
    event = small_event
    row = _filled(event)
    with pytest.raises(Forbidden):
        validate_row(row=row, user=event.users[PLAYER], version=row.version)
    row.simulated = True
    row.save(update_fields=["simulated"])
    with pytest.raises(ScorecardError, match="sign with the opponent's player ID and initials"):
        validate_row(row=row, user=event.users["referee"], version=row.version)
    signed = validate_row(
        row=row,
        opponent_number=str(event.opponent.player.number),
        initials="SIM",
        user=event.users["referee"],
        version=row.version,
    )
    assert signed.status == Status.VALIDATED


def test_initials_come_from_the_names_and_a_teams_are_both_partners():
    dan = Player(first_name="Dan", last_name="Zhu")
    marc = Player(first_name="Marc-André", last_name="Dubois Lavoie")
    assert initials_of(dan) == "DZ"
    assert initials_of(marc) == "MADL"
    assert initials_of(dan, marc) == "DZMAD"  # at most 5 letters, as the card has room for


def test_the_private_link_page_shows_the_rounds_and_agrees_back_to_itself(small_event, client):
    event = small_event
    row = _filled(event)
    link = _link(event, event.opponent)
    page = client.get(link).content.decode()
    assert "Waiting for your signature" in page
    assert 'class="rounds-view"' in page and "Agree · sign as" in page
    row.refresh_from_db()
    assert row.seen_at is not None  # in front of the opponent: a change is a correction now
    answer = client.post(
        _card(event, "validate_row", row.game),
        {f"v{row.game_id}-version": row.version, "next": link},
    )
    assert answer.status_code == 302 and answer["Location"] == link
    row.refresh_from_db()
    assert row.status == Status.VALIDATED
    assert "Waiting for your signature" not in client.get(link).content.decode()


def test_what_looks_wrong_is_shown_before_signing_and_does_not_stop_it(small_event, client):
    event = small_event
    row = _filled(event, rounds=IMPOSSIBLE)
    client.get(_link(event, event.opponent))
    for path in (_link(event, event.opponent), _card(event)):
        page = client.get(path).content.decode()
        assert 'class="doubts"' in page, path
        assert f"Round 2: {event.player.name} won it, but with 0 20s" in page, path
    assert _agree(event, client, row).status_code == 302
    row.refresh_from_db()
    assert row.status == Status.VALIDATED


def test_the_owners_own_page_shows_no_doubts_nor_agree(small_event, client):
    event = small_event
    _filled(event, rounds=IMPOSSIBLE)
    event.login(client, PLAYER)
    page = client.get(_card(event)).content.decode()
    assert "Agree · sign as" not in page and 'class="doubts"' not in page


legal_round = st.builds(
    lambda winner, own, opp: {"points": winner, "twenties": [own, opp]},
    st.sampled_from([[2, 0], [1, 1], [0, 2]]),
    st.integers(0, 8),
    st.integers(0, 8),
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(rounds=st.lists(legal_round, min_size=4, max_size=4))
def test_doubts_never_block_a_legal_row(small_event, rounds):
    """Whatever looks wrong on a row the engine takes, its opponent's one Agree validates it."""
    event = small_event
    match = Match.objects.create(
        stage=event.stage, entry_a=event.player, entry_b=event.opponent, round_of_play=1
    )
    game = Game.objects.create(match=match, number=1)
    row = _filled(event, rounds=rounds, game=game)
    signed = validate_row(row=row, user=event.users[OPPONENT], version=row.version)
    assert signed.status == Status.VALIDATED
    assert signed.validated_number == str(event.opponent.player.number)


def test_the_scoring_table_sees_what_looks_wrong_before_verifying(small_event, client):
    event = small_event
    row = _filled(event, rounds=IMPOSSIBLE)
    validate_row(row=row, user=event.users[OPPONENT], version=row.version)
    event.login(client, "scoring-table")
    page = client.get(reverse("scoring:cards:table", args=[event.tournament.slug]))
    text = page.content.decode()
    assert "Look again before verifying:" in text
    assert f"Round 2: {event.player.name} won it, but with 0 20s" in text


def test_a_game_far_beyond_the_players_record_in_the_event_is_flagged(small_event, client):
    """The player made one 20 in each of two earlier games; 16 in this one is far beyond it."""
    event = small_event
    for round_of_play in (7, 8):
        match = Match.objects.create(
            stage=event.stage,
            entry_a=event.player,
            entry_b=event.opponent,
            round_of_play=round_of_play,
        )
        game = Game.objects.create(match=match, number=1)
        for number in range(1, 5):
            RoundFactory(game=game, number=number, twenties_a=int(number == 1), twenties_b=1)
    many = [{"points": [2, 0], "twenties": [4, 1]}] * 3 + [{"points": [0, 2], "twenties": [4, 5]}]
    row = _filled(event, rounds=many)
    records = records_of(event.game, [event.player, event.opponent])
    assert [(r.twenties, r.rounds, r.games) for r in records] == [(2, 8, 2), (8, 8, 2)]
    words = [d.text for d in row_doubts(row, [event.opponent])]
    assert any(w.startswith(f"The game: {event.player.name} has 16 20s, far beyond") for w in words)
    assert not any(event.opponent.name + " has" in w for w in words)  # 8: their usual game
