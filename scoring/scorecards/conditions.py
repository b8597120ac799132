"""The state the scorecard steps need, each with the words of its refusal: one home, read by the
declarations of the steps (``scoring.scorecards.actions`` for a row at the board,
``scoring.scorecards.table_actions`` for the scoring table's: paper rows, verifying, voiding,
re-opening a voided row), for the pages' buttons, and by the services under the game's lock
(``scoring.scorecards.services``)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from scoring import engine
from scoring.models import CardRow, ScoreCard
from scoring.progression.locks import closure
from scoring.results.outcomes import match_outcome
from scoring.results.rules import game_rules
from scoring.templatetags.scoring_labels import dashed
from tournaments.actions import Kind, Refused
from tournaments.models import Entry

Status = CardRow.Status
#: Rows a referee may correct: signed by the opponent (or disputed, or already verified).
CORRECTABLE = (Status.VALIDATED, Status.DISPUTED, Status.VERIFIED)


def where(game, number: int | None = None) -> str:
    """Where on the card a refusal is about: the game, and the round when one is at fault.

    A match of one game (every preliminary game) is named by its players alone: "game 1" would
    only make the reader look for a game 2."""
    values = {
        "number": game.number,
        "match": game.match,
        "round_of_play": game.match.round_of_play,
    }
    if game.match.best_of == 1:
        found = _("%(match)s in round of play %(round_of_play)s") % values
    else:
        found = _("game %(number)s (%(match)s) in round of play %(round_of_play)s") % values
    if not number:
        return found
    return _("%(where)s, round %(round)s") % {"where": found, "round": number}


def sides_of(game, owner=None) -> list[str]:
    """The names of a row's sides in the order its rounds give them: the card owner first, then
    the others as the match lists them (``services.row_order``), or the match's order without an
    owner (the official result, a ruling). The engine's complaints about a round's figures name
    each figure's side with them (``EngineInputError.named``), in the card owner's terms."""
    entries = list(game.match.entries)
    if owner is not None:
        entries.sort(key=lambda entry: entry.id != owner.id)
    return [entry.name for entry in entries]


def _status(row: CardRow) -> str:
    return row.get_status_display().lower()


def forfeited(game) -> Refused | None:
    """A forfeited game (a walkover, the head referee's ruling) takes nothing more: no row, no
    result, no second ruling. The one wording of that refusal, for the card's steps, the
    scorecard services and the rulings (``scoring.rulings.services``)."""
    if not game.forfeited_by:
        return None
    return Refused(
        _(
            "%(refusal)s (%(match)s, round of play %(round_of_play)s); nothing more is "
            "written on its cards."
        )
        % {
            "refusal": game.forfeit_refusal,
            "match": game.match,
            "round_of_play": game.match.round_of_play,
        },
        kind=Kind.CONFLICT,
    )


def in_dispute(game) -> Refused | None:
    """The head referee rules on a game whose cards disagree: one of its rows is disputed. A
    game without a dispute keeps its result, changed by a referee's correction. The dispute
    queue, which read the disputed rows of every game it shows, says so on the game
    (``rows_disputed``), so that asking every game of the queue costs no query."""
    known = getattr(game, "rows_disputed", None)
    if known is None:
        known = CardRow.objects.filter(game_id=game.pk, status=Status.DISPUTED).exists()
    if known:
        return None
    return Refused(
        _(
            "%(where)s: there is no dispute on this game (settled already, or its cards "
            "agree). A result that stands is changed by a referee's initialled correction."
        )
        % {"where": capfirst(where(game))},
        kind=Kind.CONFLICT,
    )


def game_is_played(row: CardRow) -> Refused | str | None:
    """A bye has no row; a forfeited game (a walkover, a ruling) takes nothing more."""
    game = row.game if row.game_id else None
    if game is None:
        return _("A bye is not played: it has no row to write.")
    return forfeited(game)


#: A stage whose closure was not read yet (see :func:`stage_closure`).
_UNREAD = object()


def stage_closure(stage):
    """The stage's closure (``scoring.progression.locks.closure``), or None while open, read once
    per stage object: a card page asks each step of each of its rows, which all share their
    stage, and a page is drawn from one read of the state."""
    found = getattr(stage, "closure_read", _UNREAD)
    if found is _UNREAD:
        found = closure(stage)
        stage.closure_read = found
    return found


def stage_open(row: CardRow) -> Refused | None:
    """A closed stage's rows are read only: nothing is filled, signed or corrected on them from
    the card (the head referee changes a closed result on the stage's closed results page). The
    services refuse the write itself (``locks.ensure_open``) with the same words."""
    game = row.game if row.game_id else None
    if game is None:
        return None
    found = stage_closure(game.match.stage)
    if found is None:
        return None
    return Refused(found.message(), kind=Kind.CONFLICT)


def card_stage_open(card) -> Refused | None:
    """A closed stage's cards are not verified, voided or written on at the table either: the
    head referee changes a closed result on the stage's closed results page (the services
    refuse the write itself with the same words)."""
    found = stage_closure(card.stage)
    if found is None:
        return None
    return Refused(found.message(), kind=Kind.CONFLICT)


def not_needed(game, outcome) -> str:
    """Why ``game`` is not played: the games before it decided its match (game 3 of a best of 3
    won 2-0), as the one judge says it (``outcome``, a ``scoring.results.outcomes.MatchOutcome``,
    which ``engine.judge_match`` decided); "" while the match needs the game."""
    if outcome.bye or not outcome.complete or outcome.winner is None or game.forfeited_by:
        return ""
    score = next((s for s in outcome.games if s.number == game.number), None)
    if score is None or score.rounds or score.finished:
        return ""
    entries = game.match.entries
    winner = entries["abc".index(outcome.winner)]
    return _(
        "Game %(number)s is not needed: %(winner)s won the match %(wins)s (%(match)s, round of "
        "play %(round_of_play)s), so it is not played and nothing is written on it."
    ) % {
        "number": game.number,
        "winner": winner.name,
        "wins": dashed(sorted(outcome.wins, reverse=True)),
        "match": game.match,
        "round_of_play": game.match.round_of_play,
    }


def game_needed(row: CardRow) -> Refused | None:
    """A game its match no longer needs takes no row: the card says so instead of offering the
    form. The card page reads every match's outcome at once and says it on each game
    (``not_needed``, words or ""), so that asking a card's games costs no query."""
    game = row.game if row.game_id else None
    if game is None or game.forfeited_by:
        return None
    words = getattr(game, "not_needed", None)
    if words is None:
        words = not_needed(game, match_outcome(game.match))
    return Refused(words, kind=Kind.CONFLICT) if words else None


def open_to_its_player(row: CardRow) -> str | None:
    """Before validation the row is its player's to change; after, a change is a correction."""
    if row.pk is None or row.status == Status.FILLED:
        return None
    if row.status == Status.AWAITING:
        return _(
            "This row was entered from the paper card and awaits a second staff member's "
            "confirmation."
        )
    if row.status in CORRECTABLE:
        return _(
            "This row is %(status)s: a change now is a correction, which a referee makes with "
            "their initials."
        ) % {"status": _status(row)}
    if row.status == Status.VOIDED:
        return _("This row was voided (%(reason)s): re-open it to write it again.") % {
            "reason": row.void_reason
        }
    return _("This row is %(status)s.") % {"status": _status(row)}


def earlier_rows_signed(row: CardRow) -> Refused | None:
    """WCC: the opponent "records their ID number and initials before moving to the next
    game". Where the tournament keeps its cards in order (``Tournament.cards_in_order``), a
    game's row is written once every earlier row of the card (in the order of play) is signed:
    the refusal names the row waiting. A row of an earlier game never written (decided from the
    opponent's card, or on paper) waits for nothing."""
    game = row.game if row.game_id else None
    if game is None or not game.match.stage.category.tournament.cards_in_order:
        return None
    if row.pk is not None and row.status != Status.FILLED:
        return None  # a signed row's change is a correction, not the next game
    match = game.match
    earlier = (
        CardRow.objects.filter(card_id=row.card_id, status=Status.FILLED)
        .exclude(game_id=game.pk)
        .filter(
            Q(game__match__round_of_play__lt=match.round_of_play)
            | Q(game__match_id=match.pk, game__number__lt=game.number)
        )
        .select_related("game__match__entry_a__player", "game__match__entry_b__player")
        .order_by("game__match__round_of_play", "game__number")
        .first()
    )
    if earlier is None:
        return None
    return Refused(
        _(
            "%(where)s must be validated first: the opponent signs each game on the card "
            "before the next one is written (WCC)."
        )
        % {"where": capfirst(where(earlier.game))},
        kind=Kind.CONFLICT,
    )


def change_needs_initials(row: CardRow) -> str | None:
    """WCC: "Any corrections made on your score card must be initialled by a referee." A row
    not yet signed is its player's to change only until someone else has seen it (its opponent
    opened it to sign, or staff entered the game's paper card): after that, the change is a
    correction and a referee initials it. The words say so; None while the player may still
    change it freely."""
    if row.pk is None or row.status != Status.FILLED or row.seen_at is None:
        return None
    return _(
        "%(where)s: this row has been seen by the opponent or the scoring table since it was "
        "saved, so a change now is a correction: a referee initials it (WCC: any correction on "
        "a scorecard is initialled by a referee)."
    ) % {"where": where(row.game)}


def validated_already(row: CardRow) -> str | None:
    """A correction is for a row the opponent has signed (or disputed, or the table verified)."""
    if row.pk is not None and row.status in CORRECTABLE:
        return None
    if row.pk is None:
        return _("Nothing has been filled on this row yet.")
    return _("This row is %(status)s: a correction is for a row the opponent has validated.") % {
        "status": _status(row)
    }


def waiting_for_validation(row: CardRow) -> Refused | None:
    if row.pk is None:
        return Refused(_("Nothing has been filled on this row yet."), kind=Kind.CONFLICT)
    if row.status != Status.FILLED:
        words = _("%(where)s: this row is %(status)s, not waiting for validation.")
        return Refused(
            words % {"where": where(row.game), "status": _status(row)}, kind=Kind.INVALID
        )
    return None


def game_over_on_the_row(row: CardRow) -> Refused | None:
    """A row short of the game's end cannot be signed: the judge says what is missing."""
    try:
        engine.check_complete(row.rounds, game_rules(row.game))
    except engine.EngineInputError as exc:
        exc = exc.named(sides_of(row.game, row.card.entry))
        return Refused(
            _("%(where)s: %(error)s.") % {"where": where(row.game), "error": exc},
            kind=Kind.INVALID,
            round=exc.round,
        )
    return None


# The scoring table's steps --------------------------------------------------------------------


def paper_enterable(row: CardRow) -> Refused | None:
    """A paper card's row is typed in while the row is not signed on the board: not written yet,
    filled on a phone, or entered from paper before and awaiting confirmation (typed again). A
    signed row is changed by a referee's correction; a voided one is re-opened first."""
    if row.pk is None or row.status in (Status.FILLED, Status.AWAITING):
        return None
    if row.status == Status.VOIDED:
        return Refused(
            _("%(where)s: this row was voided (%(reason)s); re-open it, then enter it again.")
            % {"where": where(row.game), "reason": row.void_reason},
            kind=Kind.CONFLICT,
        )
    return Refused(
        _("%(where)s: this row is already %(status)s; a change now is a referee's correction.")
        % {"where": where(row.game), "status": _status(row)},
        kind=Kind.CONFLICT,
    )


def awaiting_confirmation(row: CardRow) -> Refused | None:
    """Only a row entered from paper where the event asks for a second staff member is
    confirmed."""
    if row.pk is not None and row.status == Status.AWAITING:
        return None
    if row.pk is None:
        return Refused(_("Nothing has been filled on this row yet."), kind=Kind.CONFLICT)
    return Refused(
        _("%(where)s: this row is %(status)s, not awaiting confirmation.")
        % {"where": where(row.game), "status": _status(row)},
        kind=Kind.CONFLICT,
    )


def voided(row: CardRow) -> Refused | None:
    """Only a voided row is re-opened: any other is written, signed or corrected as it is."""
    if row.pk is not None and row.status == Status.VOIDED:
        return None
    if row.pk is None:
        return Refused(_("Nothing has been filled on this row yet."), kind=Kind.CONFLICT)
    return Refused(
        _("%(where)s: this row is %(status)s, not voided: there is nothing to re-open.")
        % {"where": where(row.game), "status": _status(row)},
        kind=Kind.CONFLICT,
    )


def rows_shown(card: ScoreCard) -> list[CardRow]:
    """The card's rows the table acts on: those its page read with the card (``rows_shown``,
    set by the table's queue, so that asking every card of the queue costs no query), else its
    rows not voided, read now."""
    shown = getattr(card, "rows_shown", None)
    if shown is not None:
        return list(shown)
    return list(
        CardRow.objects.filter(card_id=card.pk)
        .exclude(status=Status.VOIDED)
        .only("id", "card_id", "status")
    )


def header_problems(entry: Entry) -> list[str]:
    """What the WCC lets the table void a card for, as far as the data can tell: a player's
    full name or ID number missing from its header (the one home of that check: the table's
    list of problems and the verification's refusal both read it)."""
    problems = []
    for person in entry.people:
        if not (person.first_name.strip() and person.last_name.strip()):
            problems.append(
                _("full name of player %(number)s missing") % {"number": person.number or "?"}
            )
        if not person.number:
            problems.append(
                _("ID number of %(player)s missing") % {"player": person.full_name or _("a player")}
            )
    return problems


def header_complete(card: ScoreCard) -> Refused | None:
    """WCC: a card missing the full name or ID number of its player may be voided, so the table
    does not verify one."""
    if not header_problems(card.entry):
        return None
    return Refused(
        _("%(card)s: the player's full name or ID number is missing.") % {"card": card},
        kind=Kind.CONFLICT,
    )


def rows_to_verify(card: ScoreCard, rows: list[CardRow] | None = None) -> Refused | None:
    """The table verifies the card's validated rows: one at least must wait for it."""
    found = rows_shown(card) if rows is None else rows
    if any(row.status == Status.VALIDATED for row in found):
        return None
    return Refused(
        _("%(card)s: no validated row is waiting for verification.") % {"card": card},
        kind=Kind.CONFLICT,
    )


def rows_to_void(card: ScoreCard, rows: list[CardRow] | None = None) -> Refused | None:
    """The table voids rows that still count for something: none left, nothing to void."""
    found = rows_shown(card) if rows is None else rows
    if any(row.status != Status.VOIDED for row in found):
        return None
    return Refused(
        _("%(card)s: every row of this card is voided already; nothing is left to void.")
        % {"card": card},
        kind=Kind.CONFLICT,
    )
