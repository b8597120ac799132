"""The card's row steps at the board (``scoring.scorecards.actions``): fill, validate, correct.

Who may is the matrix's ``ALLOWED`` and ``CONFLICTS`` for the same actions, taken through the
pages by ``test_pages``: a step's own refusal must say the same.
"""

from __future__ import annotations

from scoring.models import CardRow

from . import Row

#: The player's side of the card, whatever staff role they hold too; a referee who does not
#: play in the game.
FILL = frozenset(
    {
        "head-referee",
        "referee",
        "owner",
        "owner-link",
        "organizer-who-plays",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
        "owner-link-referee",
    }
)
#: Who holds a referee's rights while playing in the card's game.
REFEREES_WHO_PLAY = frozenset(
    {"head-referee-who-plays", "referee-who-plays", "head-referee-opponent", "owner-link-referee"}
)

ROWS = {
    "scoring.fill_row": Row(
        FILL,
        lambda world: CardRow(card=world.card, game=world.game),
        conflicts=frozenset({"head-referee-opponent"}),
    ),
    # the opponent's act, on their own login or link: never the owner's
    "scoring.validate_row": Row(
        frozenset({"opponent", "opponent-link", "head-referee-opponent"}),
        lambda world: world.filled(),
    ),
    # nobody rules on a game they play in
    "scoring.correct_row": Row(
        frozenset({"head-referee", "referee"}),
        lambda world: world.validated(),
        conflicts=REFEREES_WHO_PLAY,
    ),
}
