"""A signature implied by who holds the phone: the opponent agrees, without typing.

Paper needs the opponent's ID and initials because paper does not know who holds the pen. A
phone does: its login or private link acts for an entry. When it acts for exactly one of the
row's opponents, that entry is the signer, its ID the ID paper would ask for and its player's
initials the initials, so validating is reading the rounds and one "Agree". Everyone else (a
phone acting for both others of a three-player game, a referee signing a simulated row, the
table entering paper) types them as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.models import CardRow
from scoring.permissions import acts_for
from tournaments.models import Entry, Player

#: Initials are at most 5 letters on the card (``CardRow.validated_initials``).
MOST_INITIALS = 5


@dataclass(frozen=True)
class Signature:
    """Who signs, and the ID and initials the row records for them."""

    entry: Entry
    number: str
    initials: str


def initials_of(*players: Player) -> str:
    """The initials of one player ("Marc-André Dubois": "MAD"), or of both partners of a team,
    at most five letters: the first letter of each part of their names."""
    letters = "".join(
        part[0]
        for player in players
        for part in re.split(r"[\s\-]+", f"{player.first_name} {player.last_name}")
        if part
    )
    return letters.upper()[:MOST_INITIALS]


def signer_player(user, entry: Entry) -> Player:
    """The player of ``entry`` who signs: the one whose login this is, else (a private link,
    which acts for the whole entry, or no login: ``user`` None) its player, or a team's first
    partner."""
    people = entry.people
    if user is not None and user.is_authenticated:
        for player in people:
            if player.user_id == user.pk:
                return player
    return people[0]


def implied_signature(user, row: CardRow, opponents: Sequence[Entry]) -> Signature | None:
    """The signature ``user``'s identity implies on ``row``, whose opponents are ``opponents``:
    the one opponent it acts for; None when it acts for none or for more than one, and on a
    simulated row (signed by the referee account that played it, which stands for nobody)."""
    if row.simulated:
        return None
    mine = [entry for entry in opponents if acts_for(user, entry)]
    if len(mine) != 1:
        return None
    entry = mine[0]
    player = signer_player(user, entry)
    linked_alone = not (user.is_authenticated and player.user_id == user.pk)
    # A team on its private link: the phone is the team's, both partners sign.
    signers = entry.people if linked_alone and len(entry.people) > 1 else (player,)
    return Signature(entry=entry, number=str(player.number), initials=initials_of(*signers))
