"""Registration writes: categories, players and their entries, CSV imports, doubles teams,
check-in and withdrawals; and the organizer's set-up of stages and boards.

Changing or removing what was registered is in ``people`` (players, teams), ``categories``,
``entries``, and here for stages; each rule is written once, where both the organizer pages and
the API reach it.

Every function checks its input first and raises ``ValidationError`` saying what is wrong (and,
as a dict, on which form field) before anything is written, so the organizer pages and the API
can show the message next to the field and nothing already saved is lost.
"""

import base64
import binascii
import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from tournaments import csv_import
from tournaments.actions import Kind, Refused
from tournaments.models import (
    ENTRY_PEOPLE,
    Board,
    Category,
    Entry,
    Match,
    Player,
    Pool,
    Stage,
    Team,
    Tournament,
)
from tournaments.presets import PRESETS
from tournaments.services import forfeits, registry
from tournaments.services.categories import check_name_free, check_settings
from tournaments.services.changes import apply_change
from tournaments.services.errors import StillInUse
from tournaments.services.people import (
    check_number_free,
    check_partners,
    lock_registrations,
    next_free_number,
    partnership,
)

# Categories -------------------------------------------------------------------------------------


@transaction.atomic
def create_categories_from_presets(
    *, tournament: Tournament, keys: Sequence[str]
) -> list[Category]:
    """The WCC categories named by preset key (discs and rounds from the rules), all or none."""
    unknown = [k for k in keys if k not in PRESETS]
    if unknown:
        raise ValidationError(
            {
                "presets": _("Unknown preset(s) %(unknown)s; known: %(known)s.")
                % {"unknown": ", ".join(unknown), "known": ", ".join(PRESETS)}
            }
        )
    if not keys:
        raise ValidationError({"presets": _("Choose at least one category.")})
    existing = set(tournament.categories.values_list("name", flat=True))
    taken = [PRESETS[k].name for k in keys if PRESETS[k].name in existing]
    if taken:
        raise ValidationError(
            {
                "presets": _("The tournament already has %(categories)s; leave it unticked.")
                % {"categories": ", ".join(taken)}
            }
        )
    categories = [Category.from_preset(tournament, key) for key in dict.fromkeys(keys)]
    for category in categories:
        category.full_clean()
        category.save()
    return categories


@transaction.atomic
def create_category(*, tournament: Tournament, **fields: Any) -> Category:
    """A category set up by hand (discs per player, rounds per game, scoring system...)."""
    fields["name"] = check_name_free(tournament, fields.get("name", ""))
    check_settings(fields)
    category = Category(tournament=tournament, **fields)
    category.full_clean()
    category.save()
    return category


# Players and entries ----------------------------------------------------------------------------


def _check_singles(
    tournament: Tournament, categories: Iterable[Category], field: str = "categories"
) -> list[Category]:
    categories = list(categories)
    for category in categories:
        if category.tournament_id != tournament.pk:
            raise ValidationError(
                {
                    field: _("%(category)s is not in %(tournament)s.")
                    % {"category": category.name, "tournament": tournament}
                }
            )
        if category.kind == Category.Kind.DOUBLES:
            raise ValidationError(
                {
                    field: _(
                        "%(category)s is a doubles category: players enter it as "
                        "a team (pair them on the Teams page)."
                    )
                    % {"category": category.name}
                }
            )
    return categories


@transaction.atomic
def register_player(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    number: int | None = None,
    club: str = "",
    country: str = "",
    categories: Iterable[Category] = (),
) -> Player:
    """Register a player (with the next free ID when ``number`` is None) and enter them into
    the given singles categories. No account is linked here: an account comes to act for a
    player only by its owner's act (their private link, or an invitation they accept)."""
    categories = _check_singles(tournament, categories)
    lock_registrations(tournament)
    if number is None:
        number = next_free_number(tournament)
    check_number_free(tournament, number)
    player = Player(
        tournament=tournament,
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        number=number,
        club=club.strip(),
        country=country.strip(),
    )
    player.full_clean()
    player.save()
    bulk_create_with_history([Entry(category=c, player=player) for c in categories], Entry)
    return player


#: The organizer's answer "a new person" to the registry's question (the form's choice, the
#: API's ``new_person``).
NEW_PERSON = "new"


class PersonChoiceNeeded(Refused):
    """The registry may already know the player being registered: the organizer chooses who it
    is (one of ``matches``, or a new person) before anyone new is added. The words ask the
    question ("Is this Anna Müller of Club X (ID 123)? ..."), on the ``person`` field."""

    def __init__(self, matches: list[registry.PersonMatch]) -> None:
        super().__init__(registry.candidates_message(matches), field="person")
        self.matches = matches


@transaction.atomic
def register_player_in_registry(
    *,
    tournament: Tournament,
    person: Any = None,
    federation_id: str = "",
    federation: str = "",
    by: Any = None,
    **fields: Any,
) -> Player:
    """Register a player (``register_player``) and link them to their person in the registry:
    ``person`` chosen by the organizer, ``NEW_PERSON`` for a new one, or None when nobody
    chose: then a new person only when the registry knows nobody like them, and otherwise
    ``PersonChoiceNeeded`` listing the candidates, with nothing written. The player's own
    fields are checked first, so a taken scorecard number is said before the question."""
    player = register_player(tournament=tournament, **fields)
    if person in (None, ""):
        matches = registry.find_matches(
            first_name=player.first_name,
            last_name=player.last_name,
            id_number=federation_id,
            federation=federation,
            club=player.club,
        )
        if matches:
            raise PersonChoiceNeeded(matches)
        person = NEW_PERSON
    if person == NEW_PERSON:
        try:
            return registry.register_person_for(
                player=player, person=None, by=by, id_number=federation_id, federation=federation
            )
        except ValidationError as exc:
            # the registry's words, on the registration form's own box for the number
            if hasattr(exc, "error_dict") and "id_number" in exc.error_dict:
                raise ValidationError({"federation_id": exc.error_dict["id_number"]}) from None
            raise
    registry.fill_blanks(
        registry.kept(person),
        id_number=federation_id,
        federation=federation,
        club=player.club,
        country=player.country,
    )
    return registry.link_player(player=player, person=person, by=by)


def takes_players(category: Category) -> Refused | None:
    """A player is entered alone into a singles category only; a doubles category takes teams
    (``pair_team``). The refusal names the category box, or None."""
    if category.kind != Category.Kind.DOUBLES:
        return None
    return Refused(
        _(
            "%(category)s is a doubles category: players enter it as a team (pair them on the "
            "Teams page)."
        )
        % {"category": category.name},
        field="category",
    )


def takes_teams(category: Category) -> Refused | None:
    """A team is entered into a doubles category only. The refusal names the category box, or
    None."""
    if category.kind == Category.Kind.DOUBLES:
        return None
    return Refused(
        _("%(category)s is a singles category: enter players, not teams.")
        % {"category": category.name},
        field="category",
    )


def has_doubles(tournament: Tournament) -> Refused | None:
    """Teams are paired for a doubles category: the tournament needs one first."""
    if tournament.categories.filter(kind=Category.Kind.DOUBLES).exists():
        return None
    return Refused(
        _(
            "The tournament has no doubles category yet: add one (WCC: Competitive Doubles, Cue "
            "Doubles) to pair teams."
        ),
        kind=Kind.CONFLICT,
    )


@transaction.atomic
def enter_player(*, player: Player, category: Category) -> Entry:
    """Enter a registered player into one more singles category."""
    if player.tournament_id != category.tournament_id:
        raise ValidationError(
            {"player": _("%(player)s is not registered at this tournament.") % {"player": player}}
        )
    refusal = takes_players(category)
    if refusal is not None:
        raise refusal
    if category.entries.filter(player=player).exists():
        raise ValidationError(
            {
                "player": _("%(player)s is already entered in %(category)s.")
                % {"player": player, "category": category.name}
            }
        )
    return Entry.objects.create(category=category, player=player)


# CSV import -------------------------------------------------------------------------------------


def import_preview(*, tournament: Tournament, data: bytes | str) -> csv_import.ImportPreview:
    """Check a registration file against the tournament as it is now; writes nothing.

    Raises ``csv_import.CsvFileError`` when the file as a whole cannot be read.
    """
    categories = [
        csv_import.KnownCategory(name=name, doubles=kind == Category.Kind.DOUBLES)
        for name, kind in tournament.categories.values_list("name", "kind")
    ]
    registered = [
        csv_import.KnownPlayer(number=n, first_name=f, last_name=la)
        for n, f, la in tournament.players.values_list("number", "first_name", "last_name")
    ]
    return csv_import.parse(data, categories=categories, registered=registered)


class ImportChangedError(ValidationError):
    """What the import would write differs from the preview the organizer confirmed."""

    def __init__(self, preview: csv_import.ImportPreview) -> None:
        super().__init__(
            _(
                "The registrations or categories changed since the preview, so the rows to "
                "import changed too. Check the new preview and confirm again."
            )
        )
        self.preview = preview


@dataclass(frozen=True)
class PersonPlan:
    """What an import does in the registry for one row: link the player to ``person`` (found
    ``how``: ``"id-number"`` or ``"name-and-club"``/``"name"`` when that person is the only
    one of the name), or make a new person (``person`` None). An import never asks, so it only
    links when that is safe; anything less sure becomes a new person, whom a record keeper can
    merge later. ``words`` say which, in the preview and after the import."""

    person: Any = None
    how: str = ""
    words: str = ""
    #: Make the new person without the file's ID number (another person holds it here).
    drop_id_number: bool = False

    @property
    def linked(self) -> bool:
        return self.person is not None


def _plan_for(row: csv_import.ImportRow, taken: dict[int, Player]) -> PersonPlan:
    matches = registry.find_matches(
        first_name=row.first_name,
        last_name=row.last_name,
        id_number=row.federation_id,
        federation=row.federation,
        club=row.club,
    )
    person = registry.reusable(matches, club=row.club)
    if person is not None and person.pk in taken:
        holder = taken[person.pk]
        by_number = any(m.how == registry.HOW_ID_NUMBER for m in matches)
        return PersonPlan(
            words=_("A new person in the registry: %(person)s already plays here as %(number)s.")
            % {"person": registry.describe(person), "number": holder.number},
            drop_id_number=by_number,
        )
    if person is not None:
        how = next(m.how for m in matches if m.person.pk == person.pk)
        if how == registry.HOW_ID_NUMBER:
            words = _("Linked to %(person)s in the registry (same ID number).")
        else:
            words = _("Matched to the existing person %(person)s (the one person of this name).")
        return PersonPlan(
            person=person, how=how, words=words % {"person": registry.describe(person)}
        )
    if matches:
        return PersonPlan(
            words=_(
                "A new person in the registry: %(people)s of this name are there already, none "
                "surely this one (a record keeper can merge them later)."
            )
            % {"people": ", ".join(registry.describe(m.person) for m in matches)}
        )
    return PersonPlan(words=_("A new person in the registry."))


def registry_plan(
    *, tournament: Tournament, preview: csv_import.ImportPreview
) -> dict[int, PersonPlan]:
    """Each valid row's :class:`PersonPlan`, by line: the preview shows it, the import does it.
    A person already playing here, or matched by an earlier line, is not linked twice (one human
    is one player of a tournament)."""
    taken = {
        p.person_id: p
        for p in tournament.players.filter(person__isnull=False).only("number", "person")
    }
    plans = {}
    for row in preview.valid_rows:
        plan = _plan_for(row, taken)
        if plan.person is not None:
            taken[plan.person.pk] = Player(number=row.number)
        plans[row.line] = plan
    return plans


@dataclass(frozen=True)
class ImportResult:
    preview: csv_import.ImportPreview
    players: list[Player]
    entries: int
    #: What happened in the registry for each imported row, by line.
    people: dict[int, PersonPlan] = dataclasses.field(default_factory=dict)

    @property
    def linked(self) -> int:
        """Rows linked to a person the registry already knew."""
        return sum(1 for plan in self.people.values() if plan.linked)

    @property
    def new_people(self) -> int:
        return sum(1 for plan in self.people.values() if not plan.linked)


def encode_upload(data: bytes) -> str:
    """The uploaded bytes as text for a hidden form field, so the confirmation re-reads
    exactly the previewed file and nothing needs storing between the two requests."""
    return base64.b64encode(data).decode("ascii")


def decode_upload(token: str) -> bytes:
    try:
        return base64.b64decode(token.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise csv_import.CsvFileError(
            _("The confirmation lost the previewed file; upload it again.")
        ) from None


@transaction.atomic
def import_players(*, tournament: Tournament, data: bytes | str, fingerprint: str) -> ImportResult:
    """Import the valid rows of a registration file; rows with errors are skipped.

    The file is checked again under the tournament's lock; when the rows to import are not
    the ones previewed (``fingerprint`` from ``ImportPreview.fingerprint``), nothing is written
    and ``ImportChangedError`` carries the new preview. Raises ``csv_import.CsvFileError`` for a
    file that cannot be read and ``ValidationError`` when no row can be imported.
    """
    lock_registrations(tournament)
    preview = import_preview(tournament=tournament, data=data)
    if preview.fingerprint != fingerprint:
        raise ImportChangedError(preview)
    rows = preview.valid_rows
    if not rows:
        raise ValidationError(_("No row of the file can be imported: correct the errors first."))
    plans = registry_plan(tournament=tournament, preview=preview)
    players = [
        Player(
            tournament=tournament,
            first_name=r.first_name,
            last_name=r.last_name,
            number=r.number,
            club=r.club,
            country=r.country,
            person=_person_of(r, plans[r.line]),
        )
        for r in rows
    ]
    # PostgreSQL and SQLite (3.35+) return the new ids from one insert; the history rows
    # (who imported whom, for the audit page) go in one more.
    bulk_create_with_history(players, Player)
    category_ids = dict(tournament.categories.values_list("name", "pk"))
    entries = [
        Entry(category_id=category_ids[name], player=player)
        for r, player in zip(rows, players, strict=True)
        for name in r.categories
    ]
    bulk_create_with_history(entries, Entry)
    return ImportResult(preview=preview, players=players, entries=len(entries), people=plans)


def _person_of(row: csv_import.ImportRow, plan: PersonPlan) -> Any:
    """The row's person as its plan says: the one matched (given what they lacked), or new."""
    details = {
        "id_number": "" if plan.drop_id_number else row.federation_id,
        "federation": "" if plan.drop_id_number else row.federation,
        "club": row.club,
        "country": row.country,
    }
    if plan.person is not None:
        registry.fill_blanks(plan.person, **details)
        return plan.person
    return registry.create_person(first_name=row.first_name, last_name=row.last_name, **details)


# Doubles teams ----------------------------------------------------------------------------------


def _check_doubles(category: Category) -> None:
    refusal = takes_teams(category)
    if refusal is not None:
        raise refusal


def _check_not_in_a_team(category: Category, player_one: Player, player_two: Player) -> None:
    """A player plays in one team per doubles category."""
    for field, player in (("player_one", player_one), ("player_two", player_two)):
        taken = (
            category.entries.filter(Q(team__player_one=player) | Q(team__player_two=player))
            .select_related("team__player_one", "team__player_two")
            .first()
        )
        if taken is not None:
            raise ValidationError(
                {
                    field: _("%(player)s already plays in %(category)s in the team %(team)s.")
                    % {"player": player, "category": category.name, "team": taken.team}
                }
            )


@transaction.atomic
def pair_team(
    *, category: Category, player_one: Player, player_two: Player, name: str = ""
) -> Entry:
    """Enter two registered players as a team in a doubles category.

    A partnership already formed for another doubles category is reused, so the same two
    players are one team across categories. Refuses a player who already plays in a team of
    this category.
    """
    _check_doubles(category)
    check_partners(category.tournament_id, player_one, player_two)
    Category.objects.select_for_update().filter(pk=category.pk).first()
    _check_not_in_a_team(category, player_one, player_two)
    team = partnership(category.tournament_id, player_one, player_two)
    if team is None:
        team = Team(
            tournament_id=category.tournament_id,
            player_one=player_one,
            player_two=player_two,
            name=name.strip(),
        )
        team.full_clean()
        team.save()
    elif name.strip() and not team.name:
        team.name = name.strip()
        team.save(update_fields=["name"])
    return Entry.objects.create(category=category, team=team)


@transaction.atomic
def enter_team(*, category: Category, team: Team) -> Entry:
    """Enter a team already paired into one more doubles category."""
    _check_doubles(category)
    if team.tournament_id != category.tournament_id:
        raise ValidationError(
            {"team": _("%(team)s is not registered at this tournament.") % {"team": team}}
        )
    Category.objects.select_for_update().filter(pk=category.pk).first()
    if category.entries.filter(team=team).exists():
        raise ValidationError(
            {
                "team": _("%(team)s is already entered in %(category)s.")
                % {"team": team, "category": category.name}
            }
        )
    _check_not_in_a_team(category, team.player_one, team.player_two)
    return Entry.objects.create(category=category, team=team)


# On the day -------------------------------------------------------------------------------------


def not_withdrawn(entry: Entry) -> Refused | None:
    """The check-in desk is for entries that play: a withdrawn entry (never checked in: the
    withdrawal undid its check-in) is reinstated first. The refusal, or None."""
    if not entry.withdrawn:
        return None
    return Refused(
        _("%(entry)s has withdrawn; reinstate the entry to check it in.") % {"entry": entry},
        kind=Kind.CONFLICT,
        field="checked_in",
    )


def set_checked_in(*, entry: Entry, checked_in: bool) -> Entry:
    """Mark an entry present (or not) at the check-in desk (``not_withdrawn`` to check in)."""
    refusal = not_withdrawn(entry) if checked_in else None
    if refusal is not None:
        raise refusal
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in"])
    return entry


def set_withdrawn(*, entry: Entry, withdrawn: bool) -> Entry:
    """Withdraw an entry (or reinstate it). A withdrawn entry stays in the data, with the games
    it played, and is left out of every draw made from now on; after the draw its games without
    a result become walkovers, and reinstating takes them back (``forfeits``, which says when
    that is refused)."""
    if withdrawn and not entry.withdrawn:
        forfeits.withdraw_entry(entry=entry)
    elif not withdrawn and entry.withdrawn:
        forfeits.reinstate_entry(entry=entry)
    entry.refresh_from_db(
        fields=["withdrawn", "checked_in", "withdrawal_kind", "withdrawal_reason"]
    )
    return entry


# Stages and boards ------------------------------------------------------------------------------


def next_stage_order(category: Category) -> int:
    highest = category.stages.aggregate(highest=Max("order"))["highest"]
    return (highest or 0) + 1


#: What a stage is made of; the category it belongs to is fixed.
STAGE_FIELDS = frozenset(
    {
        "name",
        "kind",
        "order",
        "advance_count",
        "games_per_entry",
        "best_of",
        "match_format",
        "tiebreak_chain",
        "third_place",
        "bye_points",
        "bye_twenties",
        "seed",
    }
)
#: What the draw made the matches from and what the played matches count with: fixed once the
#: stage is drawn. Its name, its tiebreaks and how many go on may still be corrected.
DRAWN_FIELDS = (
    "kind",
    "order",
    "games_per_entry",
    "best_of",
    "match_format",
    "third_place",
    "seed",
    "bye_points",
    "bye_twenties",
)


def _check_stage(category: Category, fields: dict[str, Any], stage: Stage | None = None) -> None:
    """A free place in the category's order, and the games each entry plays where the kind of
    stage needs them; ``fields`` is the stage as it would be saved."""
    unknown = set(fields) - STAGE_FIELDS
    if unknown:
        names = ", ".join(sorted(unknown))
        raise TypeError(f"a stage has no {names}")  # untranslated: a programming error
    others = category.stages.filter(order=fields["order"])
    if stage is not None:
        others = others.exclude(pk=stage.pk)
    if others.exists():
        raise ValidationError(
            {
                "order": _("%(category)s already has a stage number %(order)s.")
                % {"category": category.name, "order": fields["order"]}
            }
        )
    if fields.get("kind") in (Stage.Kind.PRELIMINARY, Stage.Kind.SWISS) and not fields.get(
        "games_per_entry"
    ):
        raise ValidationError(
            {"games_per_entry": _("Preliminary and Swiss stages need the games each entry plays.")}
        )


def is_drawn(stage: Stage) -> bool:
    """Whether the stage has matches, or entries seeded into its pools by a draw or an
    advance."""
    seeded = Pool.entries.through.objects.filter(pool__stage=stage)
    return stage.matches.exists() or seeded.exists()


@transaction.atomic
def add_stage(*, category: Category, **fields: Any) -> Stage:
    """Add a stage to a category; ``order`` defaults to after the last stage."""
    if fields.get("order") is None:
        fields["order"] = next_stage_order(category)
    _check_stage(category, fields)
    stage = Stage(category=category, **fields)
    stage.full_clean()
    stage.save()
    return stage


@transaction.atomic
def update_stage(*, stage: Stage, **fields: Any) -> Stage:
    """Correct a stage; once it is drawn, only its name, tiebreaks and ``advance_count``.

    The values are checked first (an even best-of is refused as such on any stage), then
    whether the stage may still change them.
    """
    if fields.get("order") is None:
        fields.pop("order", None)
    _check_stage(
        stage.category, {name: getattr(stage, name) for name in STAGE_FIELDS} | fields, stage
    )
    return apply_change(
        stage,
        fields,
        locked=DRAWN_FIELDS,
        in_use=lambda: is_drawn(stage),
        refusal=lambda label: (
            _("%(stage)s is drawn already: its %(field)s cannot change now.")
            % {"stage": stage.name, "field": label}
        ),
    )


@transaction.atomic
def delete_stage(*, stage: Stage) -> None:
    """Remove a stage that is not drawn yet (a drawn one holds matches and their results)."""
    if is_drawn(stage):
        raise StillInUse(
            _("%(stage)s is drawn already: deleting it would delete its matches and results.")
            % {"stage": stage.name}
        )
    stage.delete()


@transaction.atomic
def set_board_count(*, tournament: Tournament, count: int) -> list[Board]:
    """Number the boards 1..count: add the missing ones, remove those above ``count``.

    A board that already has matches on it is not removed (its matches would lose their
    board); mark it out of service instead.
    """
    if count < 0:
        raise ValidationError({"count": _("The number of boards cannot be negative.")})
    boards = list(Board.objects.select_for_update().filter(tournament=tournament))
    surplus = [b for b in boards if b.number > count]
    used = sorted(
        set(Match.objects.filter(board__in=surplus).values_list("board__number", flat=True))
    )
    if used:
        raise ValidationError(
            {
                "count": _(
                    "Board %(boards)s already has matches; keep %(keep)s boards or more and mark "
                    "the ones you cannot use out of service."
                )
                % {"boards": ", ".join(map(str, used)), "keep": max(used)}
            }
        )
    Board.objects.filter(pk__in=[b.pk for b in surplus]).delete()
    have = {b.number for b in boards}
    Board.objects.bulk_create(
        Board(tournament=tournament, number=n) for n in range(1, count + 1) if n not in have
    )
    return list(tournament.boards.order_by("number"))


def set_board_in_service(*, board: Board, in_service: bool, note: str | None = None) -> Board:
    """Take a board out of service (or back): draws made from now on leave it empty."""
    board.in_service = in_service
    fields = ["in_service"]
    if note is not None:
        board.note = note.strip()[:200]
        fields.append("note")
    board.save(update_fields=fields)
    return board


# Bulk check-in ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BulkCheckIn:
    """What a bulk check-in did: entries checked in now, those that already were, withdrawn
    entries left alone, and teams waiting for a partner whose number was not listed."""

    checked_in: list[Entry]
    already: list[Entry]
    withdrawn: list[Entry]
    waiting: list[Entry]


def parse_numbers(text: str) -> list[int]:
    """ID numbers typed or pasted one per line, or separated by commas or spaces."""
    tokens = text.replace(",", " ").replace(";", " ").split()
    wrong = [t for t in tokens if not t.isdigit()]
    if wrong:
        raise ValidationError(
            {
                "numbers": _("Not an ID number: %(wrong)s. Type numbers only.")
                % {"wrong": ", ".join(wrong[:10])}
            }
        )
    if not tokens:
        raise ValidationError({"numbers": _("Type at least one ID number.")})
    return list(dict.fromkeys(int(t) for t in tokens))


def _check_in(entries: Iterable[Entry]) -> BulkCheckIn:
    now, already, withdrawn = [], [], []
    for entry in entries:
        (withdrawn if entry.withdrawn else already if entry.checked_in else now).append(entry)
    for entry in now:
        set_checked_in(entry=entry, checked_in=True)
    return BulkCheckIn(checked_in=now, already=already, withdrawn=withdrawn, waiting=[])


def _entries(tournament: Tournament, category: Category | None):
    entries = Entry.objects.filter(category__tournament=tournament).select_related(
        "category", *ENTRY_PEOPLE
    )
    if category is not None:
        entries = entries.filter(category=category)
    return entries.order_by("category__name", "id")


@transaction.atomic
def check_in_everyone(*, tournament: Tournament, category: Category | None = None) -> BulkCheckIn:
    """Check in every entry of the tournament (or of one category) that has not withdrawn."""
    return _check_in(_entries(tournament, category))


@transaction.atomic
def check_in_entries(*, category: Category, entry_ids: Sequence[int]) -> BulkCheckIn:
    """Check in the listed entries of one category (the API names entries by id); an id that is
    not an entry of the category refuses the whole list, naming it, before anything is
    written. Withdrawn entries are left alone, as ``check_in_everyone`` leaves them."""
    entries = list(_entries(category.tournament, category).filter(pk__in=entry_ids))
    found = {e.pk for e in entries}
    unknown = [str(i) for i in dict.fromkeys(entry_ids) if i not in found]
    if unknown:
        raise ValidationError(
            {
                "entries": _(
                    "%(category)s has no entry %(entries)s; nobody was checked in. Correct the "
                    "list and send it again."
                )
                % {"category": category.name, "entries": ", ".join(unknown)}
            }
        )
    return _check_in(entries)


@transaction.atomic
def check_in_numbers(
    *, tournament: Tournament, numbers: Sequence[int], category: Category | None = None
) -> BulkCheckIn:
    """Check in the entries of the players whose ID numbers are listed: their singles entries,
    and a team's entry when both partners are listed (a team with one partner listed is
    reported as waiting). An unknown number refuses the whole list, naming it, before anything
    is written."""
    known = set(tournament.players.filter(number__in=numbers).values_list("number", flat=True))
    unknown = [n for n in numbers if n not in known]
    if unknown:
        raise ValidationError(
            {
                "numbers": _(
                    "No player has the ID number %(numbers)s; nobody was checked in. Correct the "
                    "list and send it again."
                )
                % {"numbers": ", ".join(map(str, unknown))}
            }
        )
    listed = set(numbers)
    entries = _entries(tournament, category).filter(
        Q(player__number__in=listed)
        | Q(team__player_one__number__in=listed)
        | Q(team__player_two__number__in=listed)
    )
    complete, waiting = [], []
    for entry in entries:
        if (
            entry.team_id
            and not {
                entry.team.player_one.number,
                entry.team.player_two.number,
            }
            <= listed
        ):
            if not entry.checked_in and not entry.withdrawn:
                waiting.append(entry)
            continue
        complete.append(entry)
    done = _check_in(complete)
    return BulkCheckIn(done.checked_in, done.already, done.withdrawn, waiting)
