"""Scorecard permissions: who fills, validates, corrects, verifies, voids and settles disputes.

WCC: players mark their own scorecards and hand them to their opponents for validation; any
correction must be initialled by a referee; the scoring table may void a card. The head referee
rules on what the rules do not cover, here the disputes between two cards.
"""

import rules

from tournaments.permissions import is_head_referee, is_organizer, is_referee, is_scoring_table
from tournaments.private_links import linked_entry_ids


@rules.predicate
def is_card_owner(user, row) -> bool:
    """The player (or either partner) whose card it is: by their login, or in a browser that
    opened the entry's private link (``tournaments.private_links``)."""
    if row is None:
        return False
    return _acts_for(user, row.card.entry)


@rules.predicate
def is_opponent(user, row) -> bool:
    """The player (or either partner) on the other side of the row's game (either of the two
    others in a three-player game)."""
    if row is None:
        return False
    others = [e for e in row.game.match.entries if e.id != row.card.entry_id]
    return any(_acts_for(user, other) for other in others)


def _acts_for(user, entry) -> bool:
    """Whether ``user`` plays for ``entry``: its player's account, or the entry's private link
    held by this browser (carried on the user object by the private-link middleware)."""
    if entry.id in linked_entry_ids(user):
        return True
    return user.is_authenticated and user.pk in _entry_user_ids(entry)


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


# Validation is the opponent's act: on their own login or their own private link, never the
# card owner's (whatever ID they type, the opponent's number is printed on their own card).
# Simulated rows are signed by the referee account that played them. Staff enter paper rows.
rules.add_perm("scoring.validate_row", is_opponent | (is_simulated_row & is_referee))
rules.add_perm("scoring.correct_row", is_referee)
# WCC cards are paper: a referee or the scoring table types a paper card's row in, with the
# opponent's ID and initials as written on it; a second one confirms it where the event asks.
rules.add_perm("scoring.enter_paper_row", is_referee | is_scoring_table)
rules.add_perm("scoring.confirm_paper_row", is_referee | is_scoring_table)
rules.add_perm("scoring.verify_card", is_scoring_table | is_head_referee)
rules.add_perm("scoring.void_card", is_scoring_table | is_head_referee)
rules.add_perm("scoring.resolve_dispute", is_head_referee)
# WCC: "Careless or deliberate contravention of the rules may result in the forfeiture of a round
# or a game": the head referee's ruling, with its reason.
rules.add_perm("scoring.forfeit", is_head_referee)
# The organizers run the event, so they see the queue of its disputes (ruling stays the head
# referee's).
rules.add_perm(
    "scoring.view_disputes", is_organizer | is_head_referee | is_referee | is_scoring_table
)
rules.add_perm("scoring.print_cards", is_organizer | is_scoring_table | is_head_referee)
rules.add_perm("scoring.record_shootout", is_scoring_table | is_referee)
# Closed stages (``scoring.progression.locks``): once a stage has advanced, only the head referee
# changes one of its results, with a reason, seeing first what it would change in the next stage;
# the organizers, who run the draws, may undo the advance while the next stage has no result.
rules.add_perm("scoring.change_closed_result", is_head_referee)
rules.add_perm("scoring.undo_advance", is_organizer)
