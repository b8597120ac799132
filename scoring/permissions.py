"""Scorecard permissions: who fills, validates, corrects, verifies, voids and settles disputes.

WCC: players mark their own scorecards and hand them to their opponents for validation; any
correction must be initialled by a referee; the scoring table may void a card. The head referee
rules on what the rules do not cover, here the disputes between two cards.
"""

from dataclasses import dataclass

import rules
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

from scoring.models import CardRow, ScoreCard
from tournaments.permissions import (
    is_head_referee,
    is_organizer,
    is_referee,
    is_scoring_table,
    played_entry_ids,
)
from tournaments.private_links import linked_entry_ids


@rules.predicate
def is_card_owner(user, row) -> bool:
    """The player (or either partner) whose card it is: by their login, or in a browser that
    opened the entry's private link (``tournaments.private_links``)."""
    if row is None:
        return False
    return acts_for(user, row.card.entry)


@rules.predicate
def is_opponent(user, row) -> bool:
    """The player (or either partner) on the other side of the row's game (either of the two
    others in a three-player game)."""
    if row is None:
        return False
    others = [e for e in row.game.match.entries if e.id != row.card.entry_id]
    return any(acts_for(user, other) for other in others)


def acts_for(user, entry) -> bool:
    """Whether ``user`` plays for ``entry``: its player's account, or the entry's private link
    held by this browser (carried on the user object by the private-link middleware)."""
    if entry is None:
        return False
    if entry.id in linked_entry_ids(user):
        return True
    return user.is_authenticated and user.pk in _entry_user_ids(entry)


def _entry_user_ids(entry) -> set[int]:
    if entry.player_id:
        return {entry.player.user_id} - {None}
    return {entry.team.player_one.user_id, entry.team.player_two.user_id} - {None}


# Conflicts of interest --------------------------------------------------------------------------
#
# Nobody rules on a game they play in. At a club night most staff also play: a referee, the
# scoring table or the head referee who enters, corrects, verifies, voids, settles, forfeits or
# changes the closed result of their own game (or their doubles team's) makes their own result
# official. Each such permission is the staff role *and not* ``plays_in``; filling one's own row
# stays the player's act, and validating the opponent's row the opponent's.


@dataclass(frozen=True)
class ShootoutTakers:
    """A shoot-out about to be recorded, for the permission check: the stage it settles a tie
    of, and the entries that shot it."""

    stage: object
    entry_ids: frozenset[int]


def _conflict(user, obj) -> tuple[str, object] | None:
    """What of ``obj`` ``user`` plays in: ``("game", match)``, ``("card", entry)`` for their own
    card, ``("card-game", match)`` for a game on someone else's card, ``("shootout", takers)``;
    None when they play in nothing it concerns."""
    mine = played_entry_ids(user)
    if not mine or obj is None:
        return None
    if isinstance(obj, ShootoutTakers):
        return ("shootout", obj) if obj.entry_ids & mine else None
    if isinstance(obj, CardRow):
        if obj.game_id is None:
            return ("card", obj.card.entry) if obj.card.entry_id in mine else None
        obj = obj.game
    if isinstance(obj, ScoreCard):
        if obj.entry_id in mine:
            return ("card", obj.entry)
        # The card's rows that still count for something: one of them of a game they play in
        # makes the card theirs to keep their hands off.
        row = (
            CardRow.objects.filter(card_id=obj.pk)
            .exclude(status=CardRow.Status.VOIDED)
            .filter(
                Q(game__match__entry_a_id__in=mine)
                | Q(game__match__entry_b_id__in=mine)
                | Q(game__match__entry_c_id__in=mine)
            )
            .select_related("game__match")
            .first()
        )
        return ("card-game", row.game.match) if row is not None else None
    match = getattr(obj, "match", obj)  # a game, or a match
    ids = {getattr(match, f"entry_{side}_id", None) for side in "abc"} - {None}
    return ("game", match) if ids & mine else None


@rules.predicate
def plays_in(user, obj) -> bool:
    """``user`` plays in the game ``obj`` concerns (a card row's game, a game, a match), in a
    game on the card ``obj`` (their own card, or a row of another card that is not voided), or in
    the shoot-out: as a player of an entry at the board (either partner of a doubles team, any of
    three), by login or through a private link (``tournaments.permissions.played_entry_ids``)."""
    return _conflict(user, obj) is not None


rules.add_perm("scoring.fill_row", is_card_owner | (is_referee & ~plays_in))


@rules.predicate
def is_simulated_row(user, row) -> bool:
    """A row entered by the simulation (auto-play, dry runs): its opponent is simulated too and
    has no login, so the referee account that entered it signs with the opponent's ID and SIM."""
    return bool(getattr(row, "simulated", False))


# Validation is the opponent's act: on their own login or their own private link, never the
# card owner's (whatever ID they type, the opponent's number is printed on their own card). A
# browser or login that acts for the owner too never signs the owner's row, even holding the
# opponent's link as well: nobody acts for someone else. Simulated rows are signed by the
# referee account that played them. Staff enter paper rows.
rules.add_perm(
    "scoring.validate_row", (is_opponent & ~is_card_owner) | (is_simulated_row & is_referee)
)


def validation_refusal(user, row) -> str:
    """Why ``user`` may not validate ``row``, in words (the pages and the API say the same)."""
    if row is not None and is_card_owner.test(user, row) and is_opponent.test(user, row):
        return gettext(
            "This phone or login acts for %(owner)s, whose card it is, as well as for their "
            "opponent: the opponent validates on their own phone (their own private link or "
            "login), or staff enter the paper card."
        ) % {"owner": row.card.entry}
    return gettext(
        "Only the opponent validates a row, on their own phone: with their own private link "
        "or their own login."
    )


rules.add_perm("scoring.correct_row", is_referee & ~plays_in)


@rules.predicate
def entered_the_row(user, row) -> bool:
    """``user`` typed this row in from its paper card: a second staff member confirms it."""
    entered = getattr(row, "entered_by_id", None)
    return entered is not None and user.is_authenticated and entered == user.pk


def confirmation_refusal(user, row) -> str | None:
    """Why ``user`` may not confirm the paper row ``row`` when it is not their role: they
    entered it themselves (the pages and the API say the same); None otherwise."""
    if not entered_the_row.test(user, row):
        return None
    return gettext(
        "You entered this row from the paper card (%(row)s): another staff member must confirm it."
    ) % {"row": row}


# WCC cards are paper: a referee or the scoring table types a paper card's row in, with the
# opponent's ID and initials as written on it; a second one confirms it where the event asks.
rules.add_perm("scoring.enter_paper_row", (is_referee | is_scoring_table) & ~plays_in)
rules.add_perm(
    "scoring.confirm_paper_row", (is_referee | is_scoring_table) & ~plays_in & ~entered_the_row
)
rules.add_perm("scoring.verify_card", (is_scoring_table | is_head_referee) & ~plays_in)
rules.add_perm("scoring.void_card", (is_scoring_table | is_head_referee) & ~plays_in)
rules.add_perm("scoring.resolve_dispute", is_head_referee & ~plays_in)
# A voided row is written again: its player re-opens it to fill it on the phone, or staff who
# enter paper cards re-open it to type the card in again (not in a game they play in).
rules.add_perm("scoring.reopen_row", is_card_owner | ((is_referee | is_scoring_table) & ~plays_in))
# WCC: "Careless or deliberate contravention of the rules may result in the forfeiture of a round
# or a game": the head referee's ruling, with its reason.
rules.add_perm("scoring.forfeit", is_head_referee & ~plays_in)
# The organizers run the event, so they see the queue of its disputes (ruling stays the head
# referee's).
rules.add_perm(
    "scoring.view_disputes", is_organizer | is_head_referee | is_referee | is_scoring_table
)
rules.add_perm("scoring.print_cards", is_organizer | is_scoring_table | is_head_referee)
rules.add_perm("scoring.record_shootout", (is_scoring_table | is_referee) & ~plays_in)
# Closed stages (``scoring.progression.locks``): once a stage has advanced, only the head referee
# changes one of its results, with a reason, seeing first what it would change in the next stage;
# the organizers, who run the draws, may undo the advance while the next stage has no result.
rules.add_perm("scoring.change_closed_result", is_head_referee & ~plays_in)
rules.add_perm("scoring.undo_advance", is_organizer)

#: Each ruling's staff predicate, before ``plays_in`` is taken out, with what another official
#: must do instead, as the refusal says it.
RULINGS = {
    "scoring.fill_row": (is_referee, gettext_lazy("fill this row (or its own player)")),
    "scoring.correct_row": (is_referee, gettext_lazy("correct it")),
    "scoring.enter_paper_row": (
        is_referee | is_scoring_table,
        gettext_lazy("enter its paper card"),
    ),
    "scoring.confirm_paper_row": (
        is_referee | is_scoring_table,
        gettext_lazy("confirm its paper entry"),
    ),
    "scoring.verify_card": (is_scoring_table | is_head_referee, gettext_lazy("verify this card")),
    "scoring.void_card": (is_scoring_table | is_head_referee, gettext_lazy("void this card")),
    "scoring.resolve_dispute": (is_head_referee, gettext_lazy("settle its dispute")),
    "scoring.reopen_row": (is_referee | is_scoring_table, gettext_lazy("re-open it")),
    "scoring.forfeit": (is_head_referee, gettext_lazy("rule on its forfeits")),
    "scoring.record_shootout": (is_scoring_table | is_referee, gettext_lazy("record it")),
    "scoring.change_closed_result": (is_head_referee, gettext_lazy("change its result")),
}


def conflict_refusal(user, perm: str, obj) -> str | None:
    """Why ``user``, who holds the staff role ``perm`` needs, is refused it on ``obj``: they play
    in the game (or on the card, or in the shoot-out) it concerns. None when that is not why:
    they may, or they lack the role (the usual refusal then says who may).

    The pages (the 403 page, the reason beside a button not offered) and the API (``detail``)
    say these words; the services raise them.
    """
    ruling = RULINGS.get(perm)
    if ruling is None or user.has_perm(perm, obj):
        return None
    staff, act = ruling
    if not staff.test(user, obj):
        return None
    found = _conflict(user, obj)
    if found is None:
        return None
    kind, what = found
    if kind == "card":
        words = gettext("This is your own card (%(entry)s): another official must %(act)s.")
        return words % {"entry": what.name, "act": act}
    if kind == "card-game":
        words = gettext(
            "You play in a game on this card (%(match)s): another official must %(act)s."
        )
        return words % {"match": what, "act": act}
    if kind == "shootout":
        words = gettext("You play in this shoot-out: another official must %(act)s.")
        return words % {"act": act}
    words = gettext("You play in this game (%(match)s): another official must %(act)s.")
    return words % {"match": what, "act": act}
