"""Drawing a stage: from the pure formats to matches, games and boards in the database."""

from collections.abc import Sequence

from django.db import transaction

from tournaments import formats
from tournaments.models import Board, Entry, Game, Match, Stage


@transaction.atomic
def draw_preliminary(
    stage: Stage, entries: Sequence[Entry] | None = None, *, method: str = "random"
) -> list[Match]:
    """WCC preliminary: ``stage.games_per_entry`` games, a different opponent every time.

    Matches are laid on the tournament's boards in service so that nobody plays twice in a row
    on the same board where that can be avoided. Raises ``ValueError`` with the reason when the
    draw is impossible (too few entries, too many games) or the stage is already drawn.
    """
    if stage.matches.exists():
        raise ValueError(f"{stage} is already drawn; delete its matches to draw again.")
    if entries is None:
        entries = list(stage.category.entries.filter(withdrawn=False).order_by("id"))
    by_id = {str(e.id): e for e in entries}
    rounds = formats.preliminary_rounds(
        list(by_id), stage.games_per_entry or 1, method=method, seed=stage.seed
    )
    boards = list(Board.objects.filter(tournament=stage.category.tournament).order_by("number"))
    if boards:
        # More games than boards in service spill into a second time slot of the same round.
        slots = formats.assign_boards_in_slots(
            rounds,
            [b.number for b in boards],
            out_of_service=[b.number for b in boards if not b.in_service],
        )
        rounds = [[p for slot in round_slots for p in slot] for round_slots in slots]
    board_by_number = {b.number: b for b in boards}
    matches = [
        Match(
            stage=stage,
            round_of_play=number,
            entry_a=by_id[p.a],
            entry_b=by_id[p.b] if p.b is not None else None,
            best_of=stage.best_of,
            board=board_by_number.get(p.board) if p.board is not None else None,
        )
        for number, rnd in enumerate(rounds, start=1)
        for p in rnd
    ]
    Match.objects.bulk_create(matches)
    Game.objects.bulk_create(
        Game(match=m, number=1, is_playoff=False) for m in matches if m.entry_b is not None
    )
    return matches
