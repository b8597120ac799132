"""The scoring table's steps on scorecards (``scoring.scorecards.table_actions``) and the head
referee's change of a closed result (``scoring.progression.closed_actions``).

Who may is the matrix's ``ALLOWED`` and ``CONFLICTS`` for the same actions, taken through the
pages by ``test_pages`` (enter-paper, confirm-paper, verify, void): a step's own refusal must
say the same. Re-opening a voided row is new: its card's player, whatever staff role they hold
too, or staff who enter paper cards and do not play in the game.
"""

from __future__ import annotations

from scoring.models import CardRow
from scoring.scorecards.services import void_card

from . import Row
from .cards import REFEREES_WHO_PLAY

#: Staff who type paper cards in (and confirm another's), when they do not play in the game.
PAPER = frozenset({"head-referee", "referee", "scoring-table"})
PAPER_CONFLICTS = REFEREES_WHO_PLAY | {"scoring-table-who-plays"}
#: The scoring table and the head referee rule on cards.
TABLE = frozenset({"head-referee", "scoring-table"})
TABLE_CONFLICTS = frozenset(
    {"head-referee-who-plays", "scoring-table-who-plays", "head-referee-opponent"}
)
#: The card's player, by login or private link, whatever staff role they hold too.
OWNERS = frozenset(
    {
        "owner",
        "owner-link",
        "organizer-who-plays",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
        "owner-link-referee",
    }
)


def validated_card(world):
    """The owner's card with a row the opponent validated, waiting for the table."""
    world.validated()
    return world.card


def voided_row(world) -> CardRow:
    """The owner's validated row, voided by the scoring table."""
    row = world.validated()
    void_card(card=world.card, reason="illegible", user=world.users["scoring-table"])
    row.refresh_from_db()
    return row


def closed_game(world):
    """The owner's game, played, in a preliminary that has advanced to its final."""
    from tests.test_role_matrix import _close_stage

    _close_stage(world)
    return world.game


ROWS = {
    "scoring.enter_paper_row": Row(
        PAPER,
        lambda world: CardRow(card=world.card, game=world.game),
        conflicts=PAPER_CONFLICTS,
    ),
    # never by whoever entered it (a clerk of its own here): a second pair of eyes
    "scoring.confirm_paper_row": Row(
        PAPER, lambda world: world.awaiting(), conflicts=PAPER_CONFLICTS
    ),
    "scoring.verify_card": Row(TABLE, validated_card, conflicts=TABLE_CONFLICTS),
    "scoring.void_card": Row(TABLE, validated_card, conflicts=TABLE_CONFLICTS),
    "scoring.reopen_row": Row(
        OWNERS | PAPER, voided_row, conflicts=frozenset({"head-referee-opponent"})
    ),
    # nobody rules on a game they play in
    "scoring.change_closed_result": Row(
        frozenset({"head-referee"}),
        closed_game,
        conflicts=frozenset({"head-referee-who-plays", "head-referee-opponent"}),
    ),
}
