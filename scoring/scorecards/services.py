"""The scorecard workflow, as the WCC runs it.

Players fill their row after each game; the opponent validates it with their player ID and
initials; the scoring table verifies the card or voids it with a reason. A correction after
validation needs a referee's initials and becomes a new version. The sides' rows of a game are
reconciled round by round as they arrive (:func:`_after_change`): rows each entered by its own
player that say the same validate each other; rows that disagree all go to the head referee's
dispute queue. A row that counts (verified, or
validated where the event counts validated cards) writes the official result that standings read.

Writes meet at the end of a game (both players validate at once, the table verifies while a
referee corrects), so each one locks the games it changes first (``lock_games``: one order, no
deadlock) and checks the version of every row as its writer read it: a row changed since is
refused (``StaleRowError``), never overwritten.

Every function here checks permissions and input before writing, raises ``ScorecardError`` with a
message that says what is wrong and where, and leaves stored data untouched on error.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import engine
from scoring.engine import RoundData
from scoring.models import CardRow, ScoreCard
from scoring.permissions import (
    acts_for,
    confirmation_refusal,
    conflict_refusal,
    plays_in,
    validation_refusal,
)
from scoring.progression.locks import ensure_open
from scoring.progression.services import advance_knockout
from scoring.results.rules import game_rules
from scoring.results.services import official_rounds, record_locked_game
from scoring.scorecards import conditions, diffs
from scoring.scorecards.conditions import where
from scoring.scorecards.diff_words import card_of, diff_lines
from scoring.scorecards.implied import implied_signature, initials_of, signer_player
from scoring.scorecards.signatures import signer_words
from tournaments.actions import Forbidden, Kind, Refused
from tournaments.models import Entry, Game, Stage
from tournaments.private_links import device_of
from tournaments.services.game_locks import lock_games

Status = CardRow.Status

#: What the checks of a write on a row read of its game and card (see :func:`validate_row`).
ROW_CONTEXT = (
    "game__match__stage__category__tournament",
    "game__match__entry_a__player",
    "game__match__entry_b__player",
    "card__entry",
)
#: The same, of a game.
GAME_CONTEXT = tuple(p.removeprefix("game__") for p in ROW_CONTEXT if p.startswith("game__"))


class ScorecardError(Refused):
    """A refused scorecard action, with the reason in words and, as data, the round at fault
    (``round``, 1-based, or None), so that a page can mark that round without reading words."""

    def __init__(self, message: str, *, round: int | None = None, kind: Kind = Kind.INVALID):
        super().__init__(message, kind=kind, round=round)


class ContradictionError(ScorecardError):
    """The row about to be saved contradicts what stands of its game (the other side's validated
    or verified row, or the official result), or a paper card would replace a phone row that
    says otherwise: refused once, with the differing rounds named, until the person saving says
    so (``confirm_contradiction``, ``confirm_replace``). ``against`` holds the other version's
    rounds in the card owner's order, so that a page shows both side by side; ``diffs`` the
    differing rounds (``diffs.RoundDiff``, the row's version first); ``label`` names the other
    version ("Ben's card (validated by the opponent)", "the phone row")."""

    def __init__(
        self,
        message: str,
        *,
        against: list[RoundData],
        found: list[diffs.RoundDiff],
        label: str = "",
    ) -> None:
        super().__init__(message, round=found[0].number if found else None, kind=Kind.CONFLICT)
        self.against = against
        self.diffs = found
        self.label = label


class StaleRowError(ScorecardError):
    """Someone saved the row since the form was loaded: reload, nothing was lost."""

    def __init__(self, message: str, *, round: int | None = None) -> None:
        super().__init__(message, round=round, kind=Kind.STALE)


def mark_seen(rows: Sequence[CardRow]) -> None:
    """Someone other than their player has these rows in front of them to sign (the opponent's
    card page, a paper entry of the game): from now on a change of one is a correction, which a
    referee initials (``conditions.change_needs_initials``). A mark, not a change of the row:
    its version stays, so its player's page is not made stale by it."""
    ids = [row.pk for row in rows if row is not None and row.pk and row.seen_at is None]
    if ids:
        now = timezone.now()
        CardRow.objects.filter(pk__in=ids, seen_at__isnull=True).update(seen_at=now)
        for row in rows:
            if row is not None and row.pk in ids:
                row.seen_at = now


def card_for(stage: Stage, entry: Entry) -> ScoreCard:
    card, _ = ScoreCard.objects.get_or_create(stage=stage, entry=entry)
    return card


def denied_words(user, perm: str, obj) -> str | None:
    """Why ``user`` lacks ``perm`` on ``obj`` when their role is not the reason: they play in
    the game (``scoring.permissions.conflict_refusal``: nobody rules on a game they play in), or
    they entered the paper row they would confirm (a second pair of eyes confirms it). What the
    services raise and what the steps' refusals say (``table_actions``)."""
    if perm == "scoring.confirm_paper_row" and isinstance(obj, CardRow):
        words = confirmation_refusal(user, obj)
        if words:
            return words
    return conflict_refusal(user, perm, obj)


def require_permission(user, perm: str, obj, action: str) -> None:
    """``user`` holds ``perm`` on ``obj``, or is refused with the reason (:func:`denied_words`),
    else who may."""
    if not user.has_perm(perm, obj):
        raise Forbidden(
            denied_words(user, perm, obj) or _("You may not %(action)s.") % {"action": action}
        )


def _opponents(game: Game, entry: Entry) -> list[Entry]:
    """Who else is at the board: the opponent, or both others in a three-player game."""
    return [e for e in game.match.entries if e.id != entry.id]


def row_order(game: Game, entry: Entry) -> tuple[int, ...]:
    """The sides of ``entry``'s row in the match's order: the card owner first, then the others
    as the match lists them (``(1, 0)`` for entry B of a two-sided game)."""
    ids = [e.id for e in game.match.entries]
    own = ids.index(entry.id)
    return (own, *(i for i in range(len(ids)) if i != own))


def as_official(rounds: Sequence[RoundData], order: Sequence[int]) -> list[RoundData]:
    """A row's rounds (owner first, see :func:`row_order`) in the match's order of sides."""
    return engine.seen_from(rounds, [order.index(side) for side in range(len(order))])


def normalise_rounds(
    game: Game, rounds: Sequence[Mapping[str, Any]], owner: Entry | None = None
) -> list[RoundData]:
    """Check a row's rounds with the judge and return them in the card's shape.

    Impossible points (2-2), 20s beyond the discs a side had, board scores that are not
    multiples of 5 or too small for their 20s, and rounds after the game was over (a 5th round of
    a game that was not tied, a 7th after a won 6th) are refused with the round named. A row may
    stop before the game is over; it cannot be validated until it is complete (see
    :func:`check_complete`). ``owner`` is the card's entry, whose figures come first (see
    :func:`row_order`); without it the rounds are in the match's order. The refusal names the
    side of each figure in that order ("20s: 9 for Björn, 0 for Joël").
    """
    if not rounds:
        raise ScorecardError(_("%(where)s: the row has no rounds.") % {"where": where(game)})
    rules = game_rules(game)
    try:
        checked = engine.read_rounds(rounds, rules)
        engine.judge_game(checked, rules)
    except engine.EngineInputError as exc:
        error = exc.named(conditions.sides_of(game, owner))
        raise ScorecardError(
            _("%(where)s, %(error)s") % {"where": where(game), "error": error}, round=exc.round
        ) from None
    return [engine.round_to_data(r) for r in checked]


def check_complete(
    game: Game, rounds: Sequence[Mapping[str, Any]], owner: Entry | None = None
) -> engine.GameVerdict:
    """A row counts only once its game is over; otherwise say which round is missing (the
    sides of the rounds as for :func:`normalise_rounds`)."""
    try:
        return engine.check_complete(rounds, game_rules(game))
    except engine.EngineInputError as exc:
        error = exc.named(conditions.sides_of(game, owner))
        raise ScorecardError(
            _("%(where)s: %(error)s.") % {"where": where(game), "error": error}, round=exc.round
        ) from None


def _check_version(row: CardRow, version: int | None) -> None:
    if version is not None and row.version != version:
        raise StaleRowError(
            _(
                "%(where)s: this row was changed by someone else since you opened it (now "
                "version %(now)s, you had %(had)s). Reload it and enter your change again; "
                "nothing has been lost."
            )
            % {"where": where(row.game), "now": row.version, "had": version}
        )


def _refuse_stale(card: ScoreCard, game: Game, version: int | None) -> None:
    """Refuse a change made on a row its writer no longer sees, for a read of one column,
    before taking any lock: a row's version only goes up, so one already past the version read
    is stale whatever happens next. When fifty phones send the same row at once, most of the
    forty-nine late ones are refused here without queueing for the game's lock; those that
    queued meet the version check right after the locked read."""
    if version is None:
        return
    # Ordered by id, not by the model's order, which joins the game and its match to sort.
    current = CardRow.objects.filter(card=card, game=game).order_by("pk")
    found = current.values_list("version", flat=True).first()
    if found is not None and found != version:
        seen = Game.objects.select_related(*GAME_CONTEXT).get(pk=game.pk)
        _check_version(CardRow(card=card, game=seen, version=found), version)


def _save(row: CardRow, reason: str) -> CardRow:
    """Save with an optimistic lock: the update only lands on the version that was read (in the
    same statement that writes the row)."""
    expected = row.version
    row.version = expected + 1
    row._change_reason = reason
    if row.pk is None:
        row.save()
        return row
    try:
        row.save_over(expected)
    except CardRow.StaleVersion:
        row.version = expected
        raise StaleRowError(
            _(
                "%(where)s: this row was saved by someone else a moment ago. Reload it and "
                "enter your change again; nothing has been lost."
            )
            % {"where": where(row.game)}
        ) from None
    return row


def _read_for_write(
    card: ScoreCard, game: Game, version: int | None
) -> tuple[Game, CardRow | None, list[CardRow]]:
    """The game locked and read again, with its rows (what the checks of a write read), this
    card's among them when it has one: a row changed while the write waited for the lock is
    refused before anything else is looked at, and so is a write of a forfeited game or of a
    closed stage."""
    _refuse_stale(card, game, version)
    lock_games([game])
    game_rows = _locked_rows([game.pk])
    row = next((r for r in game_rows if r.card_id == card.pk), None)
    if row is not None:
        _check_version(row, version)
    if game_rows:
        game = game_rows[0].game
    else:
        game = Game.objects.select_related(*GAME_CONTEXT).get(pk=game.pk)
    _refuse_forfeited(game)
    ensure_open(game.match.stage, error=ScorecardError)
    _check_scheduled(card, game)
    if row is not None:
        row.game, row.card = game, card  # as loaded above, with what the checks read
    return game, row, game_rows


@transaction.atomic
def fill_row(
    *,
    card: ScoreCard,
    game: Game,
    rounds: Sequence[RoundData],
    user,
    version: int | None = None,
    referee_initials: str = "",
    simulated: bool = False,
    confirm_contradiction: bool = False,
) -> CardRow:
    """Fill (or correct) the card's row for ``game``.

    A row not yet validated is the owner's to change. Once validated, a change is a correction
    (:func:`correct_row`): only a referee may make it, with their initials, and it is kept as a
    new version. One entry for both, for the API's one endpoint: which of the two this write is
    waits for the row's status, read under the lock.

    The card's own side (its player, on their login or private link) saving a row that
    contradicts what stands of the game (the other side's validated or verified row, or the
    official result) is refused once with the differing rounds named
    (:class:`ContradictionError`); with ``confirm_contradiction`` the row is saved and the game
    goes to the head referee's dispute queue. Saved, the row is compared with the game's other
    rows (:func:`_after_change`): the other card saying the same validates it.
    """
    # Whoever may not write the card's rows learns nothing about them, not even that the version
    # moved on (the API answers them 404). Filling covers correcting: the referees who correct
    # rows may fill them too (``scoring.permissions``).
    require_permission(
        user, "scoring.fill_row", CardRow(card=card, game=game), _("fill this scorecard")
    )
    game, row, game_rows = _read_for_write(card, game, version)
    if row is not None and row.status == Status.VOIDED:
        raise ScorecardError(str(conditions.open_to_its_player(row)), kind=Kind.CONFLICT)
    if row is not None and row.status in conditions.CORRECTABLE:
        # After validation (or in a dispute, or once verified) a change is a correction.
        clean = normalise_rounds(game, rounds, card.entry)
        return _correct(row, clean, user, referee_initials, game_rows)
    probe = row or CardRow(card=card, game=game)
    clean = normalise_rounds(game, rounds, card.entry)
    # Not the next game while an earlier one waits for its signature; nor a game not needed.
    unmet = conditions.earlier_rows_signed(probe) or conditions.game_needed(probe)
    if unmet is not None:
        raise ScorecardError(unmet.text, kind=unmet.kind)
    own_side = not simulated and acts_for(user, card.entry)
    contradiction = _contradiction(game, card, clean, game_rows) if own_side else None
    if contradiction is not None and not confirm_contradiction:
        raise contradiction
    if row is None:
        require_permission(user, "scoring.fill_row", probe, _("fill this scorecard"))
        row = CardRow(
            card=card,
            game=game,
            rounds=clean,
            filled_by=user if user.is_authenticated else None,
            simulated=simulated,
            version=0,
        )
        return _after_fill(_save(row, _("filled")), game_rows, contradiction)
    if row.status == Status.AWAITING:
        raise ScorecardError(
            _(
                "%(where)s: this row was entered from the paper card and awaits a second staff "
                "member's confirmation; confirm it, or enter the paper card again."
            )
            % {"where": where(game)}
        )
    # Not validated yet: the owner (or a referee on their behalf) may still change it, and it
    # still needs the opponent's validation whoever typed it.
    require_permission(user, "scoring.fill_row", row, _("fill this scorecard"))
    seen = conditions.change_needs_initials(row)
    # Who wrote the row last: its own side, or a referee on its behalf (whose row waits for the
    # opponent's signature, see :func:`_stated`).
    row.filled_by = user if user.is_authenticated else None
    if seen is not None and clean != row.rounds:
        initials = referee_initials.strip().upper()[:5]
        if not initials:
            raise ScorecardError(seen)
        row.rounds = clean
        row.referee_initials = initials
        reason = _("changed after it was seen, initialled %(initials)s") % {"initials": initials}
        return _after_fill(_save(row, reason), game_rows, contradiction)
    row.rounds = clean
    return _after_fill(_save(row, _("refilled")), game_rows, contradiction)


def _contradiction(
    game: Game, card: ScoreCard, clean: list[RoundData], game_rows: Sequence[CardRow]
) -> ContradictionError | None:
    """What the row about to be saved (``clean``, its owner's order) contradicts of what stands
    of its game: the other sides' validated or verified rows, else (when none is) the official
    result. The first such version found, with its differing rounds in the owner's order; None
    when the row says nothing against them (a row still short of the end contradicts nothing
    by that alone: ``diffs.contradictions``)."""
    order = row_order(game, card.entry)
    standing: list[tuple[str, str, list[RoundData | None]]] = []
    for other in game_rows:
        if other.card_id == card.pk or other.status not in (Status.VALIDATED, Status.VERIFIED):
            continue
        official = as_official(other.rounds, row_order(game, other.card.entry))
        label = card_of(other.card.entry.name)
        what = _("%(card)s (%(status)s)") % {
            "card": label,
            "status": other.get_status_display().lower(),
        }
        standing.append((label, what, official))
    if not standing:
        official = official_rounds(game, ruled_out=True)
        if official:
            standing.append((_("the official result"), _("the official result"), official))
    for label, what, official in standing:
        theirs: list[RoundData | None] = [
            None if r is None else engine.seen_from([r], order)[0] for r in official
        ]
        found = diffs.contradictions([clean, theirs])
        if not found:
            continue
        lines = diff_lines(found, [_("your row"), label])
        return ContradictionError(
            _(
                "%(where)s: your row contradicts %(what)s. %(lines)s. Check your rounds; if "
                "your row is right, save it anyway: that opens a dispute, and the head referee "
                "rules on the game."
            )
            % {"where": where(game), "what": what, "lines": "; ".join(lines)},
            against=[r for r in theirs if r is not None],
            found=found,
            label=what,
        )
    return None


def _after_fill(
    row: CardRow, game_rows: Sequence[CardRow], contradiction: ContradictionError | None
) -> CardRow:
    """A row filled or refilled: compared with the game's other rows (:func:`_after_change`).
    Saved against a contradiction the player confirmed, it is in dispute whatever the
    comparison found (the official result it contradicts may rest on no other row): the
    official result is withdrawn and the head referee rules."""
    row = _after_change(row, others=_compared_with(row, game_rows))
    if contradiction is not None and row.status != Status.DISPUTED:
        _open_dispute([row], row.game, _("saved against the game's result: disputed"))
    return row


@transaction.atomic
def correct_row(
    *,
    card: ScoreCard,
    game: Game,
    rounds: Sequence[RoundData],
    user,
    version: int | None = None,
    referee_initials: str = "",
) -> CardRow:
    """A referee corrects the card's row for ``game`` once the opponent has signed it (WCC: any
    correction is initialled by a referee): a new version, which waits to be verified again.

    The step's state (``conditions.validated_already``) is asked here, once, on the row as read
    under the game's lock."""
    probe = CardRow(card=card, game=game)
    require_permission(
        user, "scoring.correct_row", probe, _("correct a validated scorecard (ask a referee)")
    )
    game, row, game_rows = _read_for_write(card, game, version)
    unmet = conditions.validated_already(row or CardRow(card=card, game=game))
    if unmet is not None or row is None:
        raise ScorecardError(str(unmet), kind=Kind.CONFLICT)
    clean = normalise_rounds(game, rounds, card.entry)
    return _correct(row, clean, user, referee_initials, game_rows)


def _correct(
    row: CardRow,
    clean: list[RoundData],
    user,
    referee_initials: str,
    game_rows: list[CardRow],
) -> CardRow:
    """The correction of a signed row (read under the game's lock, with the game's rows), its
    rounds already checked: a referee's, initialled, complete; the row is validated again."""
    game = row.game
    require_permission(
        user, "scoring.correct_row", row, _("correct a validated scorecard (ask a referee)")
    )
    if not referee_initials.strip():
        raise ScorecardError(
            _("%(where)s: a correction after validation must be initialled by a referee.")
            % {"where": where(game)}
        )
    check_complete(game, clean, row.card.entry)
    row.rounds = clean
    row.referee_initials = referee_initials.strip().upper()[:5]
    row.status = Status.VALIDATED
    # The table verified other rounds than these: the corrected row waits to be verified again.
    row.verified_by = None
    row.verified_at = None
    return _after_change(
        _save(row, _("corrected, initialled %(initials)s") % {"initials": row.referee_initials}),
        others=_compared_with(row, game_rows),
    )


@transaction.atomic
def validate_row(
    *,
    row: CardRow,
    opponent_number: str = "",
    initials: str = "",
    user,
    version: int | None = None,
) -> CardRow:
    """The opponent checks the row and signs it with their player ID and initials.

    Two ways, as the step declares (``actions.validate_row``): typed, as paper asks them; or,
    with neither given, implied by the identity of the phone or login that signs, when it acts
    for exactly one of the row's opponents (``implied.implied_signature``: "Agree")."""
    lock_games([row.game_id])
    # Everything the checks below read, in one query: the stage and its category (is it open,
    # the rules of the game), the tournament (does a validated row count) and the players at
    # the board (whose ID may sign); with the game's other rows, which the signed row is then
    # compared with.
    game_rows = _locked_rows([row.game_id])
    row = next((r for r in game_rows if r.pk == row.pk), None) or CardRow.objects.get(pk=row.pk)
    _refuse_forfeited(row.game)
    ensure_open(row.game.match.stage, error=ScorecardError)
    opponents = _opponents(row.game, row.card.entry)
    if not str(opponent_number).strip() and not initials.strip():
        opponent_number, initials = _implied(row, opponents, user)
    allowed = {n for e in opponents for n in _entry_numbers(e)}
    number = str(opponent_number).strip()
    if number not in allowed:
        raise ScorecardError(
            _(
                "%(where)s: only the opponent may validate this row; ID %(number)s is not the "
                "opponent's."
            )
            % {"where": where(row.game), "number": repr(opponent_number)}
        )
    if not user.has_perm("scoring.validate_row", row):
        raise Forbidden(validation_refusal(user, row))
    _check_version(row, version)  # after the permission: nobody else learns the version
    # The signature is the signer's own: the ID typed is one of the entries this login or
    # browser acts for (a simulated row is signed by the referee account that played it).
    signer = next((e for e in opponents if number in _entry_numbers(e)), None)
    if not row.simulated and not acts_for(user, signer):
        raise ScorecardError(
            _(
                "%(where)s: ID %(number)s is not yours; sign with your own player ID (this "
                "phone or login acts for %(you)s)."
            )
            % {
                "where": where(row.game),
                "number": number,
                "you": _(" or ").join(str(e) for e in opponents if acts_for(user, e)),
            }
        )
    if not initials.strip():
        raise ScorecardError(
            _("%(where)s: the opponent's initials are missing.") % {"where": where(row.game)}
        )
    for unmet in (conditions.waiting_for_validation(row), conditions.game_over_on_the_row(row)):
        if unmet is not None:
            raise ScorecardError(unmet.text, round=unmet.round, kind=unmet.kind)
    row.status = Status.VALIDATED
    row.validated_number = number
    row.validated_initials = initials.strip().upper()[:5]
    row.validated_at = timezone.now()
    row.validated_how = (
        CardRow.ValidatedHow.SIMULATED if row.simulated else CardRow.ValidatedHow.PHONE
    )
    # Who signed, as the app knew them: the table and the dispute queue show it.
    row.validated_entry = None if row.simulated else signer
    row.validated_by = user if user.is_authenticated else None
    row.validated_device = device_of(user)
    reason = (
        _("validated") if row.simulated else _("validated by %(who)s") % {"who": signer_words(row)}
    )
    return _after_change(_save(row, reason), others=_compared_with(row, game_rows))


def _implied(row: CardRow, opponents: list[Entry], user) -> tuple[str, str]:
    """The ID and initials a signature without them stands for: the one opponent this phone or
    login acts for (asked after the permission: nobody else learns whom it acts for)."""
    if not user.has_perm("scoring.validate_row", row):
        raise Forbidden(validation_refusal(user, row))
    signature = implied_signature(user, row, opponents)
    if signature is None:
        raise ScorecardError(
            _(
                "%(where)s: sign with the opponent's player ID and initials; this phone or "
                "login does not stand for exactly one opponent of the row."
            )
            % {"where": where(row.game)}
        )
    return signature.number, signature.initials


def _check_scheduled(card: ScoreCard, game: Game) -> None:
    entry = card.entry
    if game.match.stage_id != card.stage_id or entry.id not in (
        game.match.entry_a_id,
        game.match.entry_b_id,
        game.match.entry_c_id,
    ):
        raise ScorecardError(
            _(
                "%(where)s is not scheduled for %(entry)s in %(stage)s; check the round of play "
                "and the opponent."
            )
            % {"where": where(game), "entry": entry, "stage": card.stage.name}
        )


def _check_signature(game: Game, entry: Entry, opponent_number: str, initials: str) -> str:
    """The opponent's ID number as written on the card: one of the others at the board."""
    number = str(opponent_number).strip()
    if not number:
        raise ScorecardError(
            _("%(where)s: the opponent's ID number is missing.") % {"where": where(game)}
        )
    if not initials.strip():
        raise ScorecardError(
            _("%(where)s: the opponent's initials are missing.") % {"where": where(game)}
        )
    others = _opponents(game, entry)
    if number not in {n for e in others for n in _entry_numbers(e)}:
        expected = _(" or ").join(
            _("%(entry)s (ID %(number)s)") % {"entry": e, "number": e.number} for e in others
        )
        raise ScorecardError(
            _(
                "%(where)s: ID %(number)s written on the card is not the opponent's; the "
                "opponent is %(expected)s. Check the card, or ask the head referee."
            )
            % {"where": where(game), "number": repr(number), "expected": expected}
        )
    return number


@transaction.atomic
def enter_paper_row(
    *,
    card: ScoreCard,
    game: Game,
    rounds: Sequence[RoundData],
    opponent_number: str,
    initials: str,
    user,
    version: int | None = None,
    confirm_replace: bool = False,
) -> CardRow:
    """A referee or the scoring table types in a paper card's row, signed on paper.

    Filling and validation happen in one step under the staff member's login: the rounds go
    through the same checks as a row filled on a phone, the row must be complete (a tied game
    needs its deciding round like any row), and the opponent's ID must be one of the others at
    the board. Where the event asks for it, the row then awaits a second staff member's
    confirmation (:func:`confirm_paper_row`) and counts only after it. A row already validated
    another way is not overwritten: a change to it is a referee's correction.

    A row the card holds already from a phone (filled, not signed) that says otherwise than the
    paper card is not replaced unseen: the entry is refused once (:class:`ContradictionError`,
    the differing rounds named, the phone row's rounds to show beside the paper's) until
    ``confirm_replace`` says to replace it; its history keeps the phone row. Saved, the paper row
    is reconciled with the other sides' rows (:func:`_after_change`): the opponent's own phone
    row saying the same is validated by agreement, one saying otherwise is a dispute.
    """
    lock_games([game])
    game = Game.objects.select_related(*GAME_CONTEXT).get(pk=game.pk)
    _refuse_forfeited(game)
    ensure_open(game.match.stage, error=ScorecardError)
    _check_scheduled(card, game)
    row = CardRow.objects.select_for_update().filter(card=card, game=game).order_by("pk").first()
    # Asked of this game's row (typed in or not): staff who play in the game never enter it.
    probe = row or CardRow(card=card, game=game)
    require_permission(user, "scoring.enter_paper_row", probe, _("enter paper scorecards"))
    if row is not None:
        _check_version(row, version)
        row.game = game
        unmet = conditions.paper_enterable(row)
        if unmet is not None:
            raise ScorecardError(unmet.text, kind=unmet.kind)
    clean = normalise_rounds(game, rounds, card.entry)
    check_complete(game, clean, card.entry)
    number = _check_signature(game, card.entry, opponent_number, initials)
    if row is not None and row.status == Status.FILLED and not confirm_replace:
        found = diffs.contradictions([row.rounds, clean])
        if found:
            lines = diff_lines(found, [_("the phone row"), _("the paper card")])
            raise ContradictionError(
                _(
                    "%(where)s: %(card)s already holds a row entered on the phone that says "
                    "otherwise than the paper card. %(lines)s. Compare the two; to keep the "
                    "paper card's, replace the phone row with it (its history keeps the phone "
                    "row)."
                )
                % {
                    "where": where(game),
                    "card": card_of(card.entry.name),
                    "lines": "; ".join(lines),
                },
                against=list(row.rounds),
                found=found,
                label=_("the phone row"),
            )
    if row is None:
        row = CardRow(card=card, game=game, filled_by=user, version=0)
    row.rounds = clean
    row.validated_number = number
    row.validated_initials = initials.strip().upper()[:5]
    row.validated_how = CardRow.ValidatedHow.PAPER
    row.entered_by = user
    row.confirmed_by = None
    row.confirmed_at = None
    row.referee_initials = ""
    # Staff have the game's paper card in front of them: the players' phone rows of the game
    # are seen, and a change of one is a correction from now on.
    mark_seen(list(CardRow.objects.filter(game=game, status=Status.FILLED).exclude(card=card)))
    if game.match.stage.category.tournament.paper_rows_need_confirmation:
        row.status = Status.AWAITING
        row.validated_at = None
        return _save(
            row, _("entered from paper by %(user)s, awaiting confirmation") % {"user": user}
        )
    row.status = Status.VALIDATED
    row.validated_at = timezone.now()
    return _after_change(_save(row, _("entered from paper by %(user)s") % {"user": user}))


@transaction.atomic
def confirm_paper_row(*, row: CardRow, user, version: int | None = None) -> CardRow:
    """A second staff member confirms a row entered from paper: it is validated from now and
    may count. Whoever entered the row cannot confirm it (the permission says so:
    ``scoring.permissions.confirmation_refusal``)."""
    lock_games([row.game_id])
    row = (
        CardRow.objects.select_for_update()
        .select_related("game__match__stage__category__tournament", "card")
        .get(pk=row.pk)
    )
    require_permission(user, "scoring.confirm_paper_row", row, _("confirm paper scorecards"))
    _refuse_forfeited(row.game)
    ensure_open(row.card.stage, error=ScorecardError)
    _check_version(row, version)
    unmet = conditions.awaiting_confirmation(row)
    if unmet is not None:
        raise ScorecardError(unmet.text, kind=unmet.kind)
    check_complete(row.game, row.rounds, row.card.entry)
    row.status = Status.VALIDATED
    row.confirmed_by = user
    row.confirmed_at = timezone.now()
    row.validated_at = row.confirmed_at
    return _after_change(_save(row, _("paper entry confirmed by %(user)s") % {"user": user}))


def _refuse_own_games(user, perm: str, rows: Sequence[CardRow]) -> None:
    """The rows a card ruling is about to change, as read under the lock, asked again: a row of a
    game ``user`` plays in, validated since the permission on the card was asked, is refused
    like the card (nobody rules on a game they play in)."""
    for row in rows:
        if plays_in.test(user, row):
            raise Forbidden(
                conflict_refusal(user, perm, row) or _("You may not rule on your own game.")
            )


def _lock_card_games(card: ScoreCard) -> list[int]:
    """Every game the card can hold a row for (the entry's games in the card's stage), locked
    in one go: a row validated or entered from paper a moment ago is among them. Returns their
    ids."""
    entry = card.entry_id
    return lock_games(
        Game.objects.filter(match__stage_id=card.stage_id)
        .filter(
            Q(match__entry_a_id=entry) | Q(match__entry_b_id=entry) | Q(match__entry_c_id=entry)
        )
        .values_list("pk", flat=True)
    )


def _check_versions(
    rows: Sequence[CardRow], versions: Mapping[int, int] | None, subject: str, undone: str
) -> None:
    """The rows as the person acting saw them: ``versions`` maps each row's id to the version
    on their screen, and must name exactly ``rows`` at exactly those versions.

    None is for callers that read and write in the same transaction (the simulation's table):
    nobody can have changed what they read.
    """
    if versions is None:
        return
    now = {row.pk: row.version for row in rows}
    seen = {int(pk): int(v) for pk, v in versions.items()}
    if now == seen:
        return
    labels = {row.pk: where(row.game) for row in rows}
    changed = [labels[pk] for pk in sorted(now) if pk in seen and seen[pk] != now[pk]]
    new = [labels[pk] for pk in sorted(now) if pk not in seen]
    gone = len([pk for pk in seen if pk not in now])
    parts = []
    if changed:
        parts.append(_("changed since you opened it: %(rows)s") % {"rows": ", ".join(changed)})
    if new:
        parts.append(_("new since you opened it: %(rows)s") % {"rows": ", ".join(new)})
    if gone:
        parts.append(
            ngettext(
                "%(count)s row you saw no longer waiting here",
                "%(count)s rows you saw no longer waiting here",
                gone,
            )
            % {"count": gone}
        )
    raise StaleRowError(
        _("%(where)s: %(what)s. Reload it and check again; %(undone)s, nothing has been lost.")
        % {"where": subject, "what": "; ".join(parts), "undone": undone}
    )


@transaction.atomic
def verify_card(
    *, card: ScoreCard, user, versions: Mapping[int, int] | None = None
) -> list[CardRow]:
    """The scoring table verifies every validated row of the card, as it saw them.

    ``versions`` (row id to version) are the validated rows the table had on screen: a row
    corrected, signed or added since is refused with ``StaleRowError``, so the table never
    verifies rounds it did not see.
    """
    require_permission(user, "scoring.verify_card", card, _("verify scorecards"))
    ensure_open(card.stage, error=ScorecardError)
    check_card_header(card)
    games = _lock_card_games(card)
    # Locked through the model, not ``card.rows``: a card read for the API carries prefetched
    # rows whose joins (nullable staff fields) PostgreSQL cannot lock. Every row of the card's
    # games in one query: this card's validated rows, and the others each is compared with.
    game_rows = _locked_rows(games)
    rows = [r for r in game_rows if r.card_id == card.pk and r.status == Status.VALIDATED]
    _refuse_own_games(user, "scoring.verify_card", rows)
    _check_versions(rows, versions, str(card), _("nothing was verified"))
    unmet = conditions.rows_to_verify(card, rows)
    if unmet is not None:
        raise ScorecardError(unmet.text, kind=unmet.kind)
    for row in rows:
        check_complete(row.game, row.rounds, card.entry)
    done = []
    for row in rows:
        row.status = Status.VERIFIED
        row.verified_by = user
        row.verified_at = timezone.now()
        done.append(_after_change(_save(row, _("verified")), others=_compared_with(row, game_rows)))
    return done


@transaction.atomic
def void_card(
    *,
    card: ScoreCard,
    reason: str,
    user,
    rows: Sequence[CardRow | int] | None = None,
    versions: Mapping[int, int] | None = None,
) -> list[CardRow]:
    """WCC: cards missing full name, ID or category, or not legible, may be voided.

    ``rows`` (rows or ids of this card) limits the voiding to them; by default every row not
    voided yet goes. ``versions`` (row id to version) are those rows as the table saw them: a
    row changed since is refused with ``StaleRowError``.
    """
    require_permission(user, "scoring.void_card", card, _("void scorecards"))
    ensure_open(card.stage, error=ScorecardError)
    if not reason.strip():
        raise ScorecardError(_("%(card)s: say why the card is voided.") % {"card": card})
    _lock_card_games(card)
    targets_q = (
        CardRow.objects.select_for_update(of=("self",))
        .filter(card=card)
        .exclude(status=Status.VOIDED)
        .select_related(*ROW_CONTEXT)
        .order_by("pk")
    )
    if rows is not None:
        targets_q = targets_q.filter(pk__in=[r if isinstance(r, int) else r.pk for r in rows])
    targets = list(targets_q)
    _refuse_own_games(user, "scoring.void_card", targets)
    _check_versions(targets, versions, str(card), _("nothing was voided"))
    unmet = conditions.rows_to_void(card, targets)
    if unmet is not None:
        raise ScorecardError(unmet.text, kind=unmet.kind)
    for row in targets:
        row.status = Status.VOIDED
        row.void_reason = reason.strip()[:200]
        _save(row, _("voided: %(reason)s") % {"reason": row.void_reason})
        _withdraw_official(row.game)
    return targets


@transaction.atomic
def reopen_row(*, row: CardRow, user, version: int | None = None) -> CardRow:
    """A voided row is written again: its player (on the phone) or staff (from the paper card)
    re-open it, and it is filled anew, waiting for the opponent's signature like any row.

    The row keeps its rounds as a start, and its history keeps both the voided version (with
    its reason) and this one: nothing of what was voided is lost. Its signature, paper entry
    and verification go with the void, so the row counts again only once signed and, where the
    event asks for it, verified."""
    lock_games([row.game_id])
    game_rows = _locked_rows([row.game_id])
    found = next((r for r in game_rows if r.pk == row.pk), None)
    if found is None:
        raise ScorecardError(_("This row no longer exists; reload the card."), kind=Kind.NOT_FOUND)
    row = found
    require_permission(user, "scoring.reopen_row", row, _("re-open this row"))
    _check_version(row, version)
    _refuse_forfeited(row.game)
    ensure_open(row.game.match.stage, error=ScorecardError)
    unmet = conditions.voided(row)
    if unmet is not None:
        raise ScorecardError(unmet.text, kind=unmet.kind)
    reason = row.void_reason
    row.status = Status.FILLED
    row.void_reason = ""
    for signed in ("validated_number", "validated_initials", "validated_how", "validated_device"):
        setattr(row, signed, "")
    row.validated_at = row.validated_entry = row.validated_by = None
    row.entered_by = row.confirmed_by = row.confirmed_at = None
    row.verified_by = row.verified_at = row.seen_at = None
    row.referee_initials = ""
    return _save(row, _("re-opened after it was voided (%(reason)s)") % {"reason": reason})


@transaction.atomic
def resolve_dispute(
    *,
    game: Game,
    rounds_a: Sequence[RoundData],
    user,
    initials: str,
    why: str = "",
    versions: Mapping[int, int] | None = None,
    require_dispute: bool = True,
) -> None:
    """The head referee rules on a disputed game: every row takes the ruling, verified.

    ``rounds_a`` are in the match's order of sides (entry A first); ``why`` is what each row's
    history says. A game without a dispute is refused: its result is changed by a referee's
    correction, or, in a closed stage, by the head referee's change of a closed result, which
    comes through here with ``require_dispute=False`` and its own words. ``versions`` (row id
    to version) are the disputed rows as the head referee saw them side by side.
    """
    lock_games([game])
    # Read again under the lock: a forfeit recorded since the caller read it is seen.
    game = Game.objects.select_related(*GAME_CONTEXT).get(pk=game.pk)
    current = list(
        CardRow.objects.select_for_update(of=("self",))
        .filter(game=game)
        .select_related("card")
        .order_by("pk")
    )
    probe = current[0] if current else None
    require_permission(user, "scoring.resolve_dispute", probe or game.match, _("settle disputes"))
    _refuse_forfeited(game)
    ensure_open(game.match.stage, error=ScorecardError)
    if require_dispute:
        game.rows_disputed = any(r.status == Status.DISPUTED for r in current)
        unmet = conditions.in_dispute(game)
        if unmet is not None:
            raise ScorecardError(unmet.text, kind=unmet.kind)
    disputed = [r for r in current if r.status == Status.DISPUTED]
    _check_versions(disputed, versions, where(game), _("no ruling was recorded"))
    if not initials.strip():
        raise ScorecardError(
            _("%(where)s: the head referee's initials are missing.") % {"where": where(game)}
        )
    clean = normalise_rounds(game, rounds_a)
    check_complete(game, clean)
    match = game.match
    by_card = {row.card_id: row for row in current}
    for entry in match.entries:
        rounds = engine.seen_from(clean, row_order(game, entry))
        card = card_for(match.stage, entry)
        row = by_card.get(card.pk) or CardRow(card=card, game=game, version=0)
        row.rounds = rounds
        row.status = Status.VERIFIED
        row.referee_initials = initials.strip().upper()[:5]
        row.verified_by = user
        row.verified_at = timezone.now()
        _save(
            row,
            why
            or _("dispute settled by the head referee (%(initials)s)")
            % {"initials": row.referee_initials},
        )
    _record_official(game, clean)


def check_card_header(card: ScoreCard) -> None:
    """The card's header refusal (``conditions.header_complete``), raised: for writers that
    verify cards in bulk."""
    unmet = conditions.header_complete(card)
    if unmet is not None:
        raise ScorecardError(unmet.text, kind=unmet.kind)


def _entry_numbers(entry: Entry) -> set[str]:
    if entry.player_id:
        return {str(entry.player.number)}
    return {str(entry.team.player_one.number), str(entry.team.player_two.number)}


def _counts(row: CardRow) -> bool:
    # The game's stage is the card's (a row is only ever written for a game of its card's
    # stage), and the writers load it with the game.
    tournament = row.game.match.stage.category.tournament
    if row.status == Status.VERIFIED:
        return True
    return row.status == Status.VALIDATED and tournament.count_validated_cards


def _locked_rows(games: Sequence[int]) -> list[CardRow]:
    """Every row of ``games`` (whose locks the caller holds), locked, with what the checks of a
    write read (``ROW_CONTEXT``), in one query."""
    return list(
        CardRow.objects.select_for_update(of=("self",))
        .filter(game_id__in=games)
        .select_related(*ROW_CONTEXT)
        .order_by("pk")
    )


def _compared_with(row: CardRow, rows: Sequence[CardRow]) -> list[CardRow]:
    """The rows ``row`` is compared with, among ``rows`` read under the game's lock: the other
    sides' rows of its game that are not voided (what :func:`_after_change` reads itself when
    not given them)."""
    return [
        r for r in rows if r.game_id == row.game_id and r.pk != row.pk and r.status != Status.VOIDED
    ]


#: The rows that state their side's result for good: signed by the opponent (on a phone, on
#: paper, or by the other card agreeing), verified, or in dispute.
SIGNED = (Status.VALIDATED, Status.VERIFIED, Status.DISPUTED)


def _own_side_wrote(row: CardRow) -> bool:
    """The row was last written by its own side: its player's login, or the entry's private link
    (a browser without a login, ``filled_by`` empty: only the entry's own people hold the link).
    A referee typing it on the player's behalf, or the simulation, is not its side."""
    if row.simulated:
        return False
    if row.filled_by_id is None:
        return True
    return row.filled_by_id in {person.user_id for person in row.card.entry.people}


def _stated(row: CardRow) -> bool:
    """The row is its side's own statement of the game: signed (:data:`SIGNED`), or filled by
    its own side (:func:`_own_side_wrote`), which is what reconciliation compares."""
    if row.status in SIGNED:
        return True
    return row.status == Status.FILLED and _own_side_wrote(row)


def _own_card(row: CardRow) -> bool:
    """The row is its player's own account of the game: written by its own side
    (:func:`_own_side_wrote`), or typed in from the player's own paper card. Only such a row
    validates another by agreement: a row a referee typed for the player, though signed, is the
    opponent's signature on someone else's typing, not the player's word."""
    return row.validated_how == CardRow.ValidatedHow.PAPER or _own_side_wrote(row)


def _agree(row: CardRow, signer: CardRow) -> None:
    """``row`` validated by ``signer``, the other side's own row of the game saying the same,
    round by round: the signer's entry, the ID and initials of its player who entered that row
    (what a paper card would carry, implied by the identity: ``implied``), and their login."""
    entry = signer.card.entry
    on_phone = signer.validated_how != CardRow.ValidatedHow.PAPER and signer.filled_by_id
    person = signer_player(signer.filled_by if on_phone else None, entry)
    row.status = Status.VALIDATED
    row.validated_how = CardRow.ValidatedHow.AGREEMENT
    row.validated_entry = entry
    row.validated_number = str(person.number or "")
    row.validated_initials = initials_of(person) or "?"
    row.validated_by = signer.filled_by if on_phone else None
    row.validated_device = ""
    row.validated_at = timezone.now()
    _save(row, _("validated: %(card)s says the same") % {"card": card_of(entry.name)})


def _open_dispute(rows: Sequence[CardRow], game: Game, reason: str) -> None:
    """The rows go to the head referee's dispute queue and the game's official result is
    withdrawn until the ruling."""
    for r in rows:
        if r.status != Status.DISPUTED:
            r.status = Status.DISPUTED
            _save(r, reason)
    _withdraw_official(game)


def _after_change(row: CardRow, others: list[CardRow] | None = None) -> CardRow:
    """Reconcile the row with the other sides' rows of its game; record the official result
    when the row counts.

    Rows are compared in the match's order of sides, so two cards agree when they say the same
    thing from their own sides of the board (three cards in a three-player game). A row takes
    part once it states its side's result (:func:`_stated`): signed, or filled by its own
    side, on a phone (each player's login or private link) or on paper (entered by staff from
    the player's own card).

    - A round that two stated rows both have and tell differently is a dispute: both rows (and
      any other that differs) go to the head referee's queue, and the official result is
      withdrawn, whichever of them were signed.
    - A filled row, complete, that another stated row says exactly the same as, is validated by
      agreement (``ValidatedHow.AGREEMENT``), the other card's entry as its signer, and so is
      the other row when it was only filled. WCC: the player marks their card and "hand[s]
      their scorecard to their opponents for validation. The opponent reviews the scorecard to
      ensure it's correct and records their ID number and initials." What the opponent's
      signature asserts is that the row is the result; the opponent's own card, entered by
      the opponent, saying the same round by round, asserts exactly that, in the opponent's
      hand: both players assert the same result. It is still a validation, not a
      verification: the scoring table verifies it as any validated row (where the event
      counts only verified rows), and a later change is a referee's correction.
    - A row filled by a referee on the player's behalf, or by the simulation, states nothing
      yet: it waits for the opponent's signature, as before.
    - A row still short of the game's end is compared (a differing round is a dispute however
      early) but never validated by agreement.

    ``others``, the game's other rows not voided, locked and with their cards' entries, when
    the caller read them already.
    """
    game = row.game
    if others is None:
        others = list(
            CardRow.objects.select_for_update()
            .filter(game=game)
            .exclude(pk=row.pk)
            .exclude(status=Status.VOIDED)
            .select_related("card__entry")
        )
    if not _stated(row):
        return row
    official = as_official(row.rounds, row_order(game, row.card.entry))
    stated = [
        (other, as_official(other.rounds, row_order(game, other.card.entry)))
        for other in others
        if _stated(other)
    ]
    disagreeing = [other for other, said in stated if diffs.contradictions([official, said])]
    if disagreeing:
        _open_dispute([row, *disagreeing], game, _("the cards of this game disagree"))
        return row
    agreeing = [other for other, said in stated if diffs.identical(official, said)]
    if row.status == Status.FILLED:
        signers = [other for other in agreeing if _own_card(other)]
        if not signers or conditions.game_over_on_the_row(row) is not None:
            return row  # nothing else says the same yet, or the game is not over on the row
        _agree(row, signers[0])
    for other in agreeing:
        if other.status == Status.FILLED and _own_card(row):
            _agree(other, row)
        elif other.status == Status.DISPUTED and row.status != Status.DISPUTED:
            # The rows agree again after a correction: the dispute is over.
            other.status = Status.VALIDATED
            _save(other, _("agrees with the other card again"))
    if _counts(row):
        _record_official(game, official)
    return row


def _record_official(game: Game, rounds_a: Sequence[RoundData]) -> None:
    """Write the official result; in a knockout, open the matches it decides (the winner's next
    match, the third-place match)."""
    _write_official(game, rounds_a)
    stage = game.match.stage
    if stage.kind == Stage.Kind.KNOCKOUT:
        advance_knockout(stage)


def _write_official(game: Game, rounds_a: Sequence[RoundData]) -> None:
    """Every writer here read ``game`` under its lock and checked its stage is open first, so
    what it says of a forfeit is current."""
    if game.forfeited_by:
        return  # forfeited since the row was signed: the ruling stands, the row stays as written
    record_locked_game(game, rounds_a)


def _refuse_forfeited(game: Game) -> None:
    """Nothing more is written on a forfeited game's rows (a walkover, or the head referee's
    ruling), in the one wording of ``conditions.forfeited``."""
    unmet = conditions.forfeited(game)
    if unmet is not None:
        raise ScorecardError(unmet.text, kind=unmet.kind)


def _withdraw_official(game: Game) -> None:
    game.rounds.all().delete()
