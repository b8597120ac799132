"""Check-in feeds the first draw; a draw undone, redrawn and two entries swapped; bulk
check-in; every correction told in the history."""

import pytest
from django.core.exceptions import ValidationError

from tests.factories import (
    CardRowFactory,
    CategoryFactory,
    EntryFactory,
    RoundFactory,
    ScoreCardFactory,
    StageFactory,
    TournamentFactory,
)
from tournaments.models import Board, Entry, Match, Pool, Stage
from tournaments.services import registration
from tournaments.services.draws import (
    NotCheckedInError,
    draw_knockout,
    draw_stage,
    not_checked_in,
    swap_entries,
    undo_draw,
)
from tournaments.services.people import update_player

pytestmark = pytest.mark.django_db


def _field(size, *, kind=Stage.Kind.PRELIMINARY, **stage):
    tournament = TournamentFactory()
    Board.objects.bulk_create(Board(tournament=tournament, number=n) for n in range(1, 5))
    category = CategoryFactory(tournament=tournament)
    entries = [
        EntryFactory(category=category, player__number=i + 1, player__last_name=f"P{i:02d}")
        for i in range(size)
    ]
    stage = StageFactory(
        category=category, kind=kind, games_per_entry=stage.pop("games_per_entry", 2), **stage
    )
    return stage, entries


def _entries_in(stage):
    return {e for m in Match.objects.filter(stage=stage) for e in (m.entry_a_id, m.entry_b_id) if e}


# --- check-in feeds the draw -------------------------------------------------------------------


def test_the_first_draw_refuses_while_someone_is_neither_checked_in_nor_withdrawn():
    stage, entries = _field(6)
    late = entries[2]
    late.checked_in = False
    late.save()
    with pytest.raises(NotCheckedInError) as refused:
        draw_stage(stage)
    assert refused.value.entries == [late]
    assert "P02" in refused.value.messages[0] and "not checked in" in refused.value.messages[0]
    assert not Match.objects.filter(stage=stage).exists()
    # Withdrawn, the entry is left out; everyone else is drawn.
    registration.set_withdrawn(entry=late, withdrawn=True)
    draw_stage(stage)
    assert _entries_in(stage) == {e.id for e in entries} - {late.id}


@pytest.mark.parametrize("kind", [Stage.Kind.ROUND_ROBIN, Stage.Kind.KNOCKOUT, Stage.Kind.SWISS])
def test_every_kind_of_first_draw_takes_checked_in_entries_only(kind):
    stage, entries = _field(8, kind=kind)
    Entry.objects.filter(pk=entries[0].pk).update(checked_in=False)
    with pytest.raises(NotCheckedInError):
        draw_stage(stage)
    registration.set_checked_in(entry=entries[0], checked_in=True)
    draw_stage(stage)
    assert Match.objects.filter(stage=stage).exists()
    assert not_checked_in(stage.category) == []


# --- undo and redraw ---------------------------------------------------------------------------


def test_a_draw_is_undone_and_redrawn_while_nothing_is_recorded():
    stage, _entries = _field(6)
    first = draw_stage(stage)
    assert undo_draw(stage) == len(first)
    assert not Match.objects.filter(stage=stage).exists()
    again = draw_stage(stage)
    assert len(again) == len(first)
    reasons = list(stage.history.values_list("history_change_reason", flat=True))
    assert f"Draw undone ({len(first)} matches removed)." in reasons


def test_a_draw_with_a_card_row_or_a_round_is_not_undone():
    stage, _entries = _field(6)
    draw_stage(stage)
    game = Match.objects.filter(stage=stage).first().games.first()
    card = ScoreCardFactory(stage=stage, entry=game.match.entry_a)
    CardRowFactory(card=card, game=game)
    with pytest.raises(ValidationError, match="a scorecard row is filled"):
        undo_draw(stage)
    game.card_rows.all().delete()
    RoundFactory(game=game)
    with pytest.raises(ValidationError, match="an official result is recorded"):
        undo_draw(stage)
    assert Match.objects.filter(stage=stage).count() == 6


def test_an_undrawn_stage_has_nothing_to_undo():
    stage, _ = _field(4)
    with pytest.raises(ValidationError, match="Not drawn: there is nothing to undo"):
        undo_draw(stage)


def test_undoing_the_next_stages_draw_undoes_the_advance():
    """What ``advance`` writes into the next stage (its seeded pools and matches) is what the
    undo clears, so the stage before can advance again."""
    stage, entries = _field(8, kind=Stage.Kind.ROUND_ROBIN)
    following = StageFactory(
        category=stage.category, kind=Stage.Kind.KNOCKOUT, order=stage.order + 1
    )
    draw_stage(stage, pool_count=2)

    draw_knockout(following, entries[:4])
    with pytest.raises(ValidationError, match="undo that draw first"):
        undo_draw(stage)
    undo_draw(following)
    assert not Pool.objects.filter(stage=following).exists()
    assert not Match.objects.filter(stage=following).exists()
    # The pools of the round robin stay (empty) after its own undo, so a redraw makes as many.
    undo_draw(stage)
    assert Pool.objects.filter(stage=stage).count() == 2
    assert not Pool.entries.through.objects.filter(pool__stage=stage).exists()
    draw_stage(stage)
    assert Pool.entries.through.objects.filter(pool__stage=stage).count() == 8


# --- swaps -------------------------------------------------------------------------------------


def test_two_entries_of_a_pool_draw_swap_matches_and_pools():
    stage, entries = _field(8, kind=Stage.Kind.ROUND_ROBIN)
    draw_stage(stage, pool_count=2)
    pool_of = dict(
        Pool.entries.through.objects.filter(pool__stage=stage).values_list("entry_id", "pool_id")
    )
    a = entries[0]
    b = next(e for e in entries if pool_of[e.id] != pool_of[a.id])
    opponents_a = {
        (m.entry_b_id if m.entry_a_id == a.id else m.entry_a_id)
        for m in Match.objects.filter(stage=stage)
        if a.id in (m.entry_a_id, m.entry_b_id)
    }
    swap_entries(stage, a, b)
    after = dict(
        Pool.entries.through.objects.filter(pool__stage=stage).values_list("entry_id", "pool_id")
    )
    assert after[a.id] == pool_of[b.id] and after[b.id] == pool_of[a.id]
    opponents_b = {
        (m.entry_b_id if m.entry_a_id == b.id else m.entry_a_id)
        for m in Match.objects.filter(stage=stage)
        if b.id in (m.entry_a_id, m.entry_b_id)
    }
    assert opponents_b == opponents_a
    assert stage.history.first().history_change_reason.startswith("Swapped")


def test_a_swap_brings_in_an_entry_not_drawn_but_refuses_played_matches():
    stage, entries = _field(6)
    late = entries[5]
    registration.set_withdrawn(entry=late, withdrawn=True)
    draw_stage(stage)
    with pytest.raises(ValidationError, match="has withdrawn"):
        swap_entries(stage, entries[0], late)
    registration.set_withdrawn(entry=late, withdrawn=False)
    registration.set_checked_in(entry=late, checked_in=True)
    swap_entries(stage, entries[0], late)
    assert entries[0].id not in _entries_in(stage) and late.id in _entries_in(stage)
    game = (
        Match.objects.filter(stage=stage, entry_a=late).first()
        or Match.objects.filter(stage=stage, entry_b=late).first()
    )
    RoundFactory(game=game.games.first())
    with pytest.raises(ValidationError, match="an official result is recorded"):
        swap_entries(stage, late, entries[0])
    other = EntryFactory()
    with pytest.raises(ValidationError, match="is not an entry of"):
        swap_entries(stage, entries[1], other)


# --- bulk check-in -----------------------------------------------------------------------------


def test_check_in_by_numbers_is_all_or_nothing_and_names_unknown_numbers():
    stage, entries = _field(4)
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(checked_in=False)
    tournament = stage.category.tournament
    with pytest.raises(ValidationError) as refused:
        registration.check_in_numbers(tournament=tournament, numbers=[1, 2, 99, 77])
    assert "99, 77" in refused.value.message_dict["numbers"][0]
    assert not Entry.objects.filter(checked_in=True).exists()
    done = registration.check_in_numbers(tournament=tournament, numbers=[1, 2])
    assert {e.pk for e in done.checked_in} == {entries[0].pk, entries[1].pk}
    assert set(Entry.objects.filter(checked_in=True)) == {entries[0], entries[1]}
    again = registration.check_in_everyone(tournament=tournament)
    assert len(again.checked_in) == 2 and len(again.already) == 2


def test_parse_numbers_refuses_words():
    assert registration.parse_numbers("12, 13\n14 12") == [12, 13, 14]
    with pytest.raises(ValidationError, match="Not an ID number: abc"):
        registration.parse_numbers("12 abc")


def test_a_team_is_checked_in_when_both_partners_are_listed():
    tournament = TournamentFactory()
    doubles = CategoryFactory(tournament=tournament, kind="doubles")
    entry = EntryFactory(category=doubles, doubles=True, checked_in=False)
    one, two = entry.team.player_one.number, entry.team.player_two.number
    half = registration.check_in_numbers(tournament=tournament, numbers=[one])
    assert half.waiting == [entry] and not half.checked_in
    both = registration.check_in_numbers(tournament=tournament, numbers=[one, two])
    assert both.checked_in == [entry]


# --- history -----------------------------------------------------------------------------------


def test_corrections_keep_their_history():

    _stage, entries = _field(2)
    player = entries[0].player
    update_player(player=player, club="New club")
    before, after = player.history.all()[1], player.history.all()[0]
    delta = after.diff_against(before)
    assert [(c.field, c.old, c.new) for c in delta.changes] == [("club", before.club, "New club")]
