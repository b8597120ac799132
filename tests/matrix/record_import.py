"""Imports of past results into the record (``scoring.record.import_actions``): previewing a
file and confirming it are the site's record keepers' (its staff accounts,
``tournaments.permissions.MANAGE_RECORD``), and no tournament role reaches them: every role of
the matrix, the organizer first, is refused in the same words (the pages, the API and
``tests/scoring/test_record_import.py`` show the record keeper allowed)."""

from __future__ import annotations

from scoring.record import importing

from . import Row

#: No role of a tournament: the record is the site's.
NOBODY: frozenset[str] = frozenset()

#: A one-game file, previewed and not confirmed yet: the state confirming applies to.
ONE_GAME = (
    "date,event,stage,pool,game,player_a,player_b,first_in_round_1,"
    "points_a,points_b,twenties_a,twenties_b\n"
    "2010-01-02,Club night,,,1,Ann Lee,Bob Roy,,2 2 0 1,0 0 2 1,1 0 0 0,0 0 1 0\n"
)


def _previewed(world):
    return importing.preview(content=ONE_GAME, filename="one.csv")


ROWS = {
    "scoring.preview_record_import": Row(NOBODY, lambda world: None),
    "scoring.confirm_record_import": Row(NOBODY, _previewed),
}
