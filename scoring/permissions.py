"""Scorecard permissions: who fills, validates, corrects, verifies, voids and settles disputes.

WCC: players mark their own scorecards and hand them to their opponents for validation; any
correction must be initialled by a referee; the scoring table may void a card. The head referee
rules on what the rules do not cover, here the disputes between two cards.
"""

import rules

from tournaments.permissions import is_head_referee, is_organizer, is_referee, is_scoring_table


@rules.predicate
def is_card_owner(user, row) -> bool:
    """The player (or either partner) whose card it is."""
    if not user.is_authenticated or row is None:
        return False
    return user.pk in _entry_user_ids(row.card.entry)


@rules.predicate
def is_opponent(user, row) -> bool:
    """The player (or either partner) on the other side of the row's game (either of the two
    others in a three-player game)."""
    if not user.is_authenticated or row is None:
        return False
    others = [e for e in row.game.match.entries if e.id != row.card.entry_id]
    return any(user.pk in _entry_user_ids(other) for other in others)


def _entry_user_ids(entry) -> set[int]:
    if entry.player_id:
        return {entry.player.user_id} - {None}
    return {entry.team.player_one.user_id, entry.team.player_two.user_id} - {None}


rules.add_perm("scoring.fill_row", is_card_owner | is_referee)


@rules.predicate
def is_simulated_row(user, row) -> bool:
    """A row entered by the simulation (auto-play, dry runs): its opponent is simulated too and
    has no login, so the referee account that entered it signs with the opponent's ID and SIM."""
    return bool(getattr(row, "simulated", False))


# The opponent validates, on their own login or on the card owner's phone handed across the
# board; the opponent's ID number and initials are checked either way.
rules.add_perm(
    "scoring.validate_row", is_opponent | is_card_owner | (is_simulated_row & is_referee)
)
rules.add_perm("scoring.correct_row", is_referee)
rules.add_perm("scoring.verify_card", is_scoring_table | is_head_referee)
rules.add_perm("scoring.void_card", is_scoring_table | is_head_referee)
rules.add_perm("scoring.resolve_dispute", is_head_referee)
rules.add_perm("scoring.view_disputes", is_head_referee | is_referee | is_scoring_table)
rules.add_perm("scoring.print_cards", is_organizer | is_scoring_table | is_head_referee)
rules.add_perm("scoring.record_shootout", is_scoring_table | is_head_referee)
