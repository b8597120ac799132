"""Reads for the scorecard pages: a card with its scheduled games, the scoring table's queue,
the dispute queue and a row's history.

Each list runs a fixed number of queries whatever its length (the scoring table of a 400-player
round costs what a 4-player one does): everything a page prints about a row is joined in one
query, and permission checks read objects already loaded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from scoring import engine
from scoring.models import CardRow, ScoreCard
from scoring.results.outcomes import GameRounds, outcome_of
from scoring.results.rules import ROUND_VALUES, game_rules, values_round
from scoring.rulings.selectors import with_round_rulings
from scoring.scorecards.conditions import header_problems, not_needed
from scoring.scorecards.services import as_official, row_order
from scoring.scorecards.signatures import signer_words
from scoring.templatetags.scoring_labels import dashed, round_text
from tournaments.models import (
    ENTRY_PEOPLE,
    Entry,
    Game,
    Match,
    Round,
    Stage,
    Tournament,
    people_paths,
    played_by,
)
from tournaments.names import entry_key

Status = CardRow.Status

#: Everything needed to print an entry's name and ID (a player, or a team of two players).
#: What the permission to sign a row reads of its card's and its game's people.
ROW_SIGN_JOINS = people_paths(
    "card__entry", "game__match__entry_a", "game__match__entry_b", "game__match__entry_c"
)
#: What :func:`validation_words` reads of who signed a row and who entered it from paper.
SIGNER_JOINS = (
    "entered_by",
    "confirmed_by",
    "validated_by",
    *people_paths("validated_entry"),
)


def _entry_joins(prefix: str) -> list[str]:
    return list(people_paths(prefix))


GAME_JOINS = [
    "match__board",
    "match__stage__category__tournament",
    *_entry_joins("match__entry_a"),
    *_entry_joins("match__entry_b"),
    *_entry_joins("match__entry_c"),
]
CARD_JOINS = ["card__stage__category__tournament", *_entry_joins("card__entry")]


@dataclass(frozen=True)
class Totals:
    """A game's totals from one side: computed from the rounds, never typed.

    ``points_by_side`` and ``twenties_by_side`` hold a figure per side in the rounds' order (the
    card owner first; three figures in a three-player game).
    """

    points_by_side: tuple[int, ...] = (0, 0)
    twenties_by_side: tuple[int, ...] = (0, 0)

    @property
    def points(self) -> int:
        return self.points_by_side[0]

    @property
    def twenties(self) -> int:
        return self.twenties_by_side[0]

    @property
    def points_against(self) -> int:
        """The opponent's points (both others' together in a three-player game)."""
        return sum(self.points_by_side[1:])

    @property
    def twenties_against(self) -> int:
        return sum(self.twenties_by_side[1:])

    @property
    def points_others(self) -> str:
        """The others' points as a card prints them after the owner's: "2", or "4-3" for the
        two others of a three-player game."""
        return dashed(self.points_by_side[1:])

    @property
    def twenties_others(self) -> str:
        return dashed(self.twenties_by_side[1:])


def totals(rounds: Sequence[dict[str, Any]]) -> Totals:
    sides = len(rounds[0]["points"]) if rounds else 2
    return Totals(
        points_by_side=tuple(sum(r["points"][i] for r in rounds) for i in range(sides)),
        twenties_by_side=tuple(sum(r["twenties"][i] for r in rounds) for i in range(sides)),
    )


@dataclass(frozen=True)
class Official:
    """A game's official result (``tournaments.Round``, what standings read) as the card's owner
    reads it, and where it came from: which card's row decided it (this card's, an opponent's, or
    a paper card the table entered) and who signed it, in words.

    ``rounds`` are the owner's figures first, like a row of the card; ``agrees`` says whether
    the card's own row says the same (None when the card has no row for the game).
    """

    rounds: list[dict[str, Any]]
    #: ``"own"``, ``"other"`` (an opponent's card), ``"paper"`` or ``"officials"`` (recorded
    #: by the officials without a row that says the same: a ruling, the head referee's change).
    source: str
    #: The row that decided it (None for ``"officials"``) and whose card it is on.
    row: CardRow | None
    card_entry: Entry | None
    #: Where it came from and who signed it: "Decided from Marc's card, validated by Anna ...".
    words: str
    agrees: bool | None

    @property
    def totals(self) -> Totals:
        return totals(self.rounds)

    @property
    def score(self) -> str:
        """The game's points, the owner's first: "3-5" ("4-3-1" in a three-player game)."""
        return dashed(self.totals.points_by_side)

    @property
    def badge(self) -> str:
        """The row's header: "Official: 3-5 (from Marc's card)"."""
        values = {"score": self.score}
        if self.source == OWN:
            return _("Official: %(score)s (from this card)") % values
        if self.source == PAPER:
            return _("Official: %(score)s (from paper)") % values
        if self.source == OTHER:
            return _("Official: %(score)s (from %(name)s's card)") % {
                **values,
                "name": self.card_entry.name,
            }
        return _("Official: %(score)s") % values


OWN, OTHER, PAPER, OFFICIALS = "own", "other", "paper", "officials"


@dataclass
class CardLine:
    """One scheduled game on a card (or a bye), with the card's row for it if filled.

    ``opponents`` are the others at the board in the match's order, the order of a row's
    rounds after the owner's own figures (two in a three-player game; none for a bye).
    """

    match: Match
    game: Game | None
    opponents: list[Entry]
    row: CardRow | None

    @property
    def probe(self) -> CardRow:
        """The row, or an unsaved one standing for it, to ask permissions about."""
        return self.row or CardRow(card=self.card, game=self.game)

    card: ScoreCard | None = None
    #: The game's official result and where it came from (None before there is one, and for a
    #: forfeited game, whose ruling has its own words).
    official: Official | None = None
    #: Why the game is not played, when its match no longer needs it (game 3 of a best of 3
    #: won 2-0: ``conditions.not_needed``, the engine's verdict), else "".
    not_needed: str = ""

    @property
    def opponent(self) -> Entry | None:
        """The opponent (the first of the two others in a three-player game), None for a bye."""
        return self.opponents[0] if self.opponents else None

    @property
    def totals(self) -> Totals | None:
        return totals(self.row.rounds) if self.row else None

    @property
    def missing(self) -> str:
        """What the row still needs before its game is over, as the judge words it ("round 5
        is needed: the game is tied 4-4 ..."), or "" when complete, empty or unreadable."""
        if self.row is None or self.game is None:
            return ""
        try:
            return engine.judge_row(self.row.rounds, game_rules(self.game)).missing
        except engine.EngineInputError:
            return ""


@dataclass
class CardPage:
    """An entry's card for a stage: the header printed on the WCC card and a line per game."""

    stage: Stage
    entry: Entry
    card: ScoreCard
    lines: list[CardLine]

    @property
    def tournament(self) -> Tournament:
        return self.stage.category.tournament

    @property
    def people(self) -> list:
        return list(self.entry.people)

    def line(self, game_id: int) -> CardLine | None:
        return next((x for x in self.lines if x.game and x.game.id == game_id), None)


def stage_of(slug: str, stage_id: int) -> Stage:
    """The stage, only if it belongs to the tournament named in the URL."""
    return Stage.objects.select_related("category__tournament").get(
        pk=stage_id, category__tournament__slug=slug
    )


def entry_of(stage: Stage, entry_id: int) -> Entry:
    """The entry, only if it plays in the stage's category."""
    return Entry.objects.select_related(*ENTRY_PEOPLE).get(pk=entry_id, category=stage.category)


def card_page(stage: Stage, entry: Entry) -> CardPage:
    """The card of ``entry`` for ``stage`` (unsaved if nobody has written on it yet), every game
    scheduled for the entry in round-of-play order, the rows filled so far, and each game's
    official result with the row of whichever card decided it (five queries: the card, the
    matches, their games, the games' official rounds and every card's rows of those games).

    Each match is judged from its official rounds by the one judge (``outcome_of``), so that a
    game its match no longer needs says so (``CardLine.not_needed``, and on the game for the
    steps' precondition ``conditions.game_needed``) without a query more."""
    card = ScoreCard.objects.filter(stage=stage, entry=entry).first() or ScoreCard(
        stage=stage, entry=entry
    )
    card.stage, card.entry = stage, entry
    plays = Q(entry_a=entry) | Q(entry_b=entry) | Q(entry_c=entry)
    joins = [*_entry_joins("entry_a"), *_entry_joins("entry_b"), *_entry_joins("entry_c")]
    matches = list(
        Match.objects.filter(plays, stage=stage)
        .select_related("board", *joins)
        .prefetch_related(
            Prefetch("games", queryset=with_round_rulings(Game.objects.all())),
            Prefetch("games__rounds", queryset=Round.objects.order_by("number")),
        )
        .order_by("round_of_play", "id")
    )
    rows = _rows_of_games(stage, [g.id for m in matches for g in m.games.all()])
    lines = []
    for match in matches:
        match.stage = stage
        others = [e for e in match.entries if e.id != entry.id]
        games = sorted(match.games.all(), key=lambda g: g.number)
        if not games:
            lines.append(CardLine(match=match, game=None, opponents=others, row=None, card=card))
        outcome = outcome_of(match, [_game_rounds(game) for game in games])
        at_board = {e.id: e for e in match.entries}
        for game in games:
            game.match = match
            game.not_needed = not_needed(game, outcome)
            # The rows of the game's cards (a row is only written for a card of the game's
            # players), each with its card's entry, already loaded with the match.
            game_rows = [r for r in rows.get(game.id, []) if r.card.entry_id in at_board]
            for row in game_rows:
                row.game = game
                row.card.stage = stage
                row.card.entry = at_board[row.card.entry_id]
            row = next((r for r in game_rows if r.card_id == card.pk), None)
            if row is not None:
                row.card = card
            lines.append(
                CardLine(
                    match=match,
                    game=game,
                    opponents=others,
                    row=row,
                    card=card,
                    official=official_result(game, entry, game_rows),
                    not_needed=game.not_needed,
                )
            )
    return CardPage(stage=stage, entry=entry, card=card, lines=lines)


def _rows_of_games(stage: Stage, game_ids: list[int]) -> dict[int, list[CardRow]]:
    """Every card's rows of the games (one query), by game: the card's own, and the others'
    that may have decided a game's official result."""
    found: dict[int, list[CardRow]] = {}
    if not game_ids:
        return found
    rows = CardRow.objects.filter(game_id__in=game_ids, card__stage=stage).select_related(
        "card", "filled_by", *SIGNER_JOINS
    )
    for row in rows.order_by("pk"):
        found.setdefault(row.game_id, []).append(row)
    return found


def _stored_rounds(game: Game) -> list[dict[str, Any]]:
    """The game's official rounds (prefetched) as card data, in the match's order of sides."""
    return [
        engine.round_to_data(values_round(*(getattr(r, name) for name in ROUND_VALUES)))
        for r in game.rounds.all()
    ]


def _game_rounds(game: Game) -> GameRounds:
    """A game and its official rounds (prefetched) as the judge of matches reads them."""
    stored = _stored_rounds(game)
    return GameRounds(
        game.number,
        game.is_playoff,
        [tuple(r["points"]) for r in stored],
        [tuple(r["twenties"]) for r in stored],
        game.forfeited_by,
        game.forfeit_kind,
    )


#: The rows that may have written a game's official result: signed by the other side (or on
#: paper) and not since voided or disputed.
SIGNED = (Status.VALIDATED, Status.VERIFIED)


def official_result(game: Game, owner: Entry, rows: Sequence[CardRow]) -> Official | None:
    """The game's official result as ``owner``'s card reads it, and which row decided it:
    a signed row (``rows``: every card's rows of the game, each with its card's entry) that says
    the same, a verified one first, this card's first among equals. A round the head referee
    forfeited makes the official rounds differ from every row: the signed row is still where
    they came from. None while nothing is official, and for a forfeited game."""
    if game.forfeited_by:
        return None
    stored = _stored_rounds(game)
    if not stored:
        return None
    mine = next((r for r in rows if r.card.entry_id == owner.id), None)

    def says_it(row: CardRow) -> bool:
        return as_official(row.rounds, row_order(game, row.card.entry)) == stored

    signed = sorted(
        (r for r in rows if r.status in SIGNED),
        key=lambda r: (r.status != Status.VERIFIED, r.card.entry_id != owner.id),
    )
    deciding = next((r for r in signed if says_it(r)), None)
    if deciding is None and getattr(game, "ruled_round", None) and signed:
        deciding = signed[0]
    if deciding is None:
        source = OFFICIALS
    elif deciding.validated_how == CardRow.ValidatedHow.PAPER:
        source = PAPER
    else:
        source = OWN if deciding.card.entry_id == owner.id else OTHER
    agrees = None
    if mine is not None and mine.status != Status.VOIDED:
        agrees = says_it(mine)
    return Official(
        rounds=engine.seen_from(stored, row_order(game, owner)),
        source=source,
        row=deciding,
        card_entry=deciding.card.entry if deciding is not None else None,
        words=_official_words(deciding, source, owner),
        agrees=agrees,
    )


def _official_words(row: CardRow | None, source: str, owner: Entry) -> str:
    """Where an official result came from, for the card's owner: "Decided from Marc's card,
    validated by Anna Player1 (ID 101, initials AP). Verified at the scoring table." or
    "Entered from paper by the table (...)"."""
    if row is None:
        return _("Recorded by the officials.")
    own = row.card.entry_id == owner.id
    whose = (
        _("this card")
        if own
        else pgettext("within a sentence", "%(name)s's card") % {"name": row.card.entry.name}
    )
    signed = _("ID %(number)s, initials %(initials)s") % {
        "number": row.validated_number,
        "initials": row.validated_initials,
    }
    How = CardRow.ValidatedHow
    if source == PAPER:
        staff = _("entered by %(entered)s") % {"entered": staff_name(row.entered_by)}
        if row.confirmed_by_id:
            staff = _("entered by %(entered)s, confirmed by %(confirmed)s") % {
                "entered": staff_name(row.entered_by),
                "confirmed": staff_name(row.confirmed_by),
            }
        words = _("Entered from paper by the table (%(card)s, signed %(signed)s; %(staff)s).") % {
            "card": whose,
            "signed": signed,
            "staff": staff,
        }
    elif not row.validated_how and row.referee_initials:
        # Written by the head referee's ruling on a dispute, on a card that had no signed row.
        words = _("Settled by the head referee (initials %(initials)s), on %(card)s.") % {
            "initials": row.referee_initials,
            "card": whose,
        }
    elif not row.validated_how:
        words = _("Decided from %(card)s.") % {"card": whose}
    else:
        if row.validated_how == How.AGREEMENT:
            who = _("the other card saying the same")
        elif row.validated_how == How.SIMULATED:
            who = _("the simulation (%(signed)s)") % {"signed": signed}
        elif row.validated_entry_id is not None:
            who = _("%(name)s (%(signed)s)") % {"name": row.validated_entry.name, "signed": signed}
        else:
            who = signed
        words = _("Decided from %(card)s, validated by %(who)s.") % {"card": whose, "who": who}
    if not own and row.referee_initials and row.validated_how:
        words += " " + _("Corrected, initialled by referee %(initials)s.") % {
            "initials": row.referee_initials
        }
    if not own and row.status == Status.VERIFIED:
        words += " " + _("Verified at the scoring table.")
    return words


def card_of(slug: str, card_id: int) -> ScoreCard:
    return ScoreCard.objects.select_related(
        "stage__category__tournament", *_entry_joins("entry")
    ).get(pk=card_id, stage__category__tournament__slug=slug)


# The scoring table ---------------------------------------------------------------------------


@dataclass
class TableCard:
    """A card with rows waiting for the scoring table (validated, not yet verified)."""

    card: ScoreCard
    rows: list[CardRow] = field(default_factory=list)
    #: The card's steps asked for the person at the table (``table_actions.CARD_STEPS``, keyed
    #: ``verify_card`` and ``void_card``): None where the button applies, else why not.
    refusals: dict[str, Any] = field(default_factory=dict)

    @property
    def problems(self) -> list[str]:
        return header_problems(self.card.entry)


def _row_opponents(row: CardRow) -> list[Entry]:
    """The others at the row's board, in the match's order (two in a three-player game)."""
    return [e for e in row.game.match.entries if e.id != row.card.entry_id]


def _with_opponents(rows: QuerySet[CardRow]) -> list[CardRow]:
    loaded = list(rows)
    for row in loaded:
        row.opponents = _row_opponents(row)
        row.totals = totals(row.rounds)
    return loaded


def staff_name(user) -> str:
    """A staff member as the table knows them: full name, else the login."""
    if user is None:
        return _("someone since removed")
    return user.get_full_name() or user.get_username()


def validation_words(row: CardRow) -> str:
    """Who validated the row and how, for the scoring table: "opponent's phone (ID 123,
    initials AB)", "paper (ID 123, initials AB), entered by X, confirmed by Y"."""
    signed = _("ID %(number)s, initials %(initials)s") % {
        "number": row.validated_number,
        "initials": row.validated_initials,
    }
    How = CardRow.ValidatedHow
    if row.validated_how == How.PAPER:
        values = {"signed": signed, "entered": staff_name(row.entered_by)}
        if row.status == Status.AWAITING:
            return (
                _(
                    "paper (%(signed)s), entered by %(entered)s, awaiting confirmation by "
                    "another staff member"
                )
                % values
            )
        if row.confirmed_by_id:
            values["confirmed"] = staff_name(row.confirmed_by)
            return _("paper (%(signed)s), entered by %(entered)s, confirmed by %(confirmed)s") % (
                values
            )
        return _("paper (%(signed)s), entered by %(entered)s") % values
    if row.validated_how == How.SIMULATED:
        return _("simulated (%(signed)s)") % {"signed": signed}
    if row.validated_how == How.AGREEMENT:
        # Validated by the other side's own row saying the same (services._after_change).
        name = row.validated_entry.name if row.validated_entry_id else _("the opponent")
        return _("both cards agree (%(signed)s): %(name)s's own card says the same") % {
            "signed": signed,
            "name": name,
        }
    return _("opponent's phone (%(signed)s): %(who)s") % {
        "signed": signed,
        "who": signer_words(row),
    }


def table_queue(
    tournament: Tournament,
    *,
    stage: Stage | None = None,
    round_of_play: int | None = None,
    card: ScoreCard | None = None,
) -> list[TableCard]:
    """Cards with validated rows (or rows entered from paper awaiting a second staff member's
    confirmation), by stage and entry, optionally one stage, one round of play or one card (one
    query). Each row says who validated it and how: the opponent's phone, or paper, entered and
    confirmed by whom."""
    rows = CardRow.objects.filter(
        status__in=(Status.VALIDATED, Status.AWAITING),
        card__stage__category__tournament=tournament,
    )
    if card is not None:
        rows = rows.filter(card=card)
    if stage is not None:
        rows = rows.filter(card__stage=stage)
    if round_of_play is not None:
        rows = rows.filter(game__match__round_of_play=round_of_play)
    rows = rows.select_related(
        *CARD_JOINS, *[f"game__{j}" for j in GAME_JOINS], *SIGNER_JOINS
    ).order_by(
        "card__stage__category__name",
        "card__stage__order",
        "card__entry_id",
        "game__match__round_of_play",
        "game__number",
    )
    cards: dict[int, TableCard] = {}
    for row in _one_stage_object(_with_opponents(rows)):
        row.validated_words = validation_words(row)
        cards.setdefault(row.card_id, TableCard(card=row.card)).rows.append(row)
    for item in cards.values():
        # The rows the table acts on, as the steps of the card read them (``conditions``).
        item.card.rows_shown = item.rows
    return list(cards.values())


def voided_rows(
    tournament: Tournament, *, stage: Stage | None = None, round_of_play: int | None = None
) -> list[CardRow]:
    """The voided rows of the tournament (one stage, one round of play), with their reason, by
    stage, entry and order of play (one query): the table re-opens one to enter it again."""
    rows = CardRow.objects.filter(
        status=Status.VOIDED, card__stage__category__tournament=tournament
    )
    if stage is not None:
        rows = rows.filter(card__stage=stage)
    if round_of_play is not None:
        rows = rows.filter(game__match__round_of_play=round_of_play)
    rows = rows.select_related(*CARD_JOINS, *[f"game__{j}" for j in GAME_JOINS]).order_by(
        "card__stage__category__name",
        "card__stage__order",
        "card__entry_id",
        "game__match__round_of_play",
        "game__number",
    )
    return _one_stage_object(_with_opponents(rows))


def _one_stage_object(rows: list[CardRow]) -> list[CardRow]:
    """The rows with one object per stage, for their card and their game alike, so that what
    the steps read of a stage (whether it is closed: ``conditions.stage_closure``) is read once
    per stage on a page of many cards, not once per row."""
    stages: dict[int, Stage] = {}
    for row in rows:
        stage = stages.setdefault(row.card.stage_id, row.card.stage)
        row.card.stage = stage
        if row.game.match.stage_id == stage.pk:
            row.game.match.stage = stage
    return rows


def row_by_id(slug: str, row_id: int) -> CardRow | None:
    """A card row of the tournament ``slug``, with what its steps read (its card's entry and
    its game's players), or None."""
    return (
        CardRow.objects.filter(pk=row_id, card__stage__category__tournament__slug=slug)
        .select_related(*CARD_JOINS, *[f"game__{j}" for j in GAME_JOINS])
        .first()
    )


# The dispute queue ---------------------------------------------------------------------------


@dataclass
class RoundComparison:
    """One round as each card of a disputed game tells it, all in the match's order of sides.

    ``versions`` holds a round per entry of the match (None where that card stops short);
    ``shown`` says which cards are in the dispute (a three-player game's third card may not be).
    """

    number: int
    versions: list[dict[str, Any] | None]
    shown: list[bool]

    @property
    def differs(self) -> bool:
        told = [v for v, s in zip(self.versions, self.shown, strict=True) if s]
        return any(v != told[0] for v in told[1:])

    @property
    def texts(self) -> list[str]:
        """Each card's version in words; "—" for a card that is not in the dispute."""
        return [round_text(v) if s else "—" for v, s in zip(self.versions, self.shown, strict=True)]


@dataclass
class DisputeCard:
    """One entry's card in a disputed game: its row, and that row's rounds in the match's order
    of sides (entry A first), so the cards compare round by round."""

    entry: Entry
    row: CardRow | None = None
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @property
    def totals(self) -> Totals | None:
        return totals(self.rounds) if self.row else None


@dataclass
class Dispute:
    """A game whose cards disagree: a card per entry of the match, side by side, all in the
    match's order of sides (two cards, or three in a three-player game)."""

    game: Game
    cards: list[DisputeCard]

    @property
    def rounds(self) -> list[RoundComparison]:
        shown = [card.row is not None for card in self.cards]
        longest = max((len(card.rounds) for card in self.cards), default=0)
        return [
            RoundComparison(
                number=n + 1,
                versions=[card.rounds[n] if n < len(card.rounds) else None for card in self.cards],
                shown=shown,
            )
            for n in range(longest)
        ]

    @property
    def start(self) -> list[dict[str, Any]]:
        """The rounds a ruling starts from: the first card's, in the match's order."""
        return next((card.rounds for card in self.cards if card.row is not None), [])


def _canonical(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "points": list(r["points"]),
        "twenties": list(r["twenties"]),
        "score": list(r["score"]) if r.get("score") else None,
        "time_expired": bool(r.get("time_expired")),
    }


def dispute_queue(tournament: Tournament, *, game_id: int | None = None) -> list[Dispute]:
    """Every disputed game of the tournament with its cards' rows (one query)."""
    rows = CardRow.objects.filter(
        status=Status.DISPUTED, card__stage__category__tournament=tournament
    )
    if game_id is not None:
        rows = rows.filter(game_id=game_id)
    rows = rows.select_related(
        *CARD_JOINS, *[f"game__{j}" for j in GAME_JOINS], *SIGNER_JOINS
    ).order_by(
        "game__match__stage__order", "game__match__round_of_play", "game_id", "card__entry_id"
    )
    disputes: dict[int, Dispute] = {}
    for row in rows:
        game = row.game
        dispute = disputes.get(row.game_id)
        if dispute is None:
            cards = [DisputeCard(entry=entry) for entry in game.match.entries]
            dispute = disputes[row.game_id] = Dispute(game=game, cards=cards)
        card = next(c for c in dispute.cards if c.entry.id == row.card.entry_id)
        card.row = row
        row.validated_words = validation_words(row) if row.validated_how else ""
        official = as_official(row.rounds, row_order(game, row.card.entry))
        card.rounds = [_canonical(r) for r in official]
    return list(disputes.values())


def disputed_game(tournament: Tournament, game_id: int) -> Game:
    """A game of the tournament (for the ruling form), with what its pages print."""
    return Game.objects.select_related(*GAME_JOINS).get(
        pk=game_id, match__stage__category__tournament=tournament
    )


# A row's history -----------------------------------------------------------------------------

#: Bookkeeping fields a person reading the history does not need listed as "changed".
QUIET_FIELDS = [
    "updated_at",
    "version",
    "validated_at",
    "verified_at",
    "filled_by",
    "verified_by",
    "card",
    "game",
    "id",
]
#: The order a change is told in: what was played first, then who signed it.
CHANGE_ORDER = [
    "rounds",
    "status",
    "validated_number",
    "validated_initials",
    "referee_initials",
    "void_reason",
    "simulated",
]
#: How a change names each field (marked for translation, translated where the change is told).
FIELD_NAMES = {
    "status": gettext_noop("status"),
    "validated_number": gettext_noop("validated by ID"),
    "validated_initials": gettext_noop("validated with initials"),
    "referee_initials": gettext_noop("referee's initials"),
    "void_reason": gettext_noop("void reason"),
    "simulated": gettext_noop("simulated"),
    "validated_device": gettext_noop("signed on phone"),
}


@dataclass(frozen=True)
class RowVersion:
    """One saved version of a card row: who saved it, when, why, and what changed."""

    version: int
    when: datetime
    who: str
    reason: str
    rounds: list[dict[str, Any]]
    status: str
    changes: list[str]
    totals: Totals


def row_of(card: ScoreCard, game: Game) -> CardRow | None:
    return CardRow.objects.filter(card=card, game=game).first()


def row_versions(row: CardRow) -> list[RowVersion]:
    """Every version of the row, oldest first, each compared with the one before (one query)."""
    records = list(row.history.select_related("history_user").order_by("history_date", "pk"))
    labels = dict(Status.choices)
    versions = []
    previous = None
    for record in records:
        if previous is None:
            changes = [_("first filled")]
        else:
            delta = record.diff_against(previous, excluded_fields=QUIET_FIELDS)
            ordered = sorted(delta.changes, key=_change_rank)
            changes = [_describe(change, labels) for change in ordered]
        user = record.history_user
        versions.append(
            RowVersion(
                version=record.version,
                when=record.history_date,
                who=user.get_username() if user else "—",
                reason=record.history_change_reason or "",
                rounds=record.rounds,
                status=labels.get(record.status, record.status),
                changes=changes or [_("no visible change")],
                totals=totals(record.rounds),
            )
        )
        previous = record
    return versions


def _change_rank(change: Any) -> int:
    return CHANGE_ORDER.index(change.field) if change.field in CHANGE_ORDER else len(CHANGE_ORDER)


def _describe(change: Any, labels: dict[str, str]) -> str:
    if change.field == "rounds":
        return "; ".join(_round_changes(change.old or [], change.new or [])) or _(
            "rounds rewritten"
        )
    old, new = change.old, change.new
    if change.field == "status":
        old, new = labels.get(old, old), labels.get(new, new)
    name = _(FIELD_NAMES[change.field]) if change.field in FIELD_NAMES else change.field
    return f"{name}: {old or '—'} → {new or '—'}"


def _round_changes(old: list[dict], new: list[dict]) -> list[str]:
    out = []
    for n in range(max(len(old), len(new))):
        before = old[n] if n < len(old) else None
        after = new[n] if n < len(new) else None
        if before != after:
            out.append(
                _("round %(number)s: %(before)s → %(after)s")
                % {
                    "number": n + 1,
                    "before": describe_round(before),
                    "after": describe_round(after),
                }
            )
    return out


def describe_round(r: dict[str, Any] | None) -> str:
    """A round in the words a scorecard uses: "2-0, 20s 3-1, board 65-40" ("2-1-0, ..." in a
    three-player game), the numbers joined by an en dash as on every other page."""
    return round_text(r)


# The index of cards --------------------------------------------------------------------------


@dataclass(frozen=True)
class CardLink:
    stage: Stage
    entry: Entry


def cards_of_user(tournament: Tournament, user, linked: Iterable[int] = ()) -> list[CardLink]:
    """The cards the user plays on: each of their entries (by login, or the ``linked`` entry ids
    of the private links this browser holds), in each stage it is drawn in."""
    mine = Q(id__in=list(linked))
    if user.is_authenticated:
        mine |= played_by(user)
    entries = {
        e.id: e
        for e in Entry.objects.filter(mine, category__tournament=tournament).select_related(
            *ENTRY_PEOPLE
        )
    }
    which = Q(entry_a__in=entries) | Q(entry_b__in=entries) | Q(entry_c__in=entries)
    return _links(tournament, entries, which)


@dataclass(frozen=True)
class RowToSign:
    """A row of an opponent's card waiting for this player's signature."""

    row: CardRow
    stage: Stage
    owner: Entry


def rows_to_sign(tournament: Tournament, entry_ids: Iterable[int]) -> list[RowToSign]:
    """The filled rows, on the cards of their opponents, that the entries ``entry_ids`` (whom
    the browser acts for) are to validate, in the order of play (one query)."""
    mine = list(entry_ids)
    if not mine:
        return []
    rows = (
        CardRow.objects.filter(
            Q(game__match__entry_a__in=mine)
            | Q(game__match__entry_b__in=mine)
            | Q(game__match__entry_c__in=mine),
            status=Status.FILLED,
            card__stage__category__tournament=tournament,
        )
        .exclude(card__entry__in=mine)
        .select_related(
            "card__stage__category",
            *_entry_joins("card__entry"),
            *people_paths("game__match__entry_a", "game__match__entry_b", "game__match__entry_c"),
        )
        .order_by("game__match__round_of_play", "game__number", "pk")
    )
    # One stage object per stage, the game's as well as the card's (a row is written for a game
    # of its card's stage): what the validation step asks of each row (the rules of its game,
    # whether its stage is closed) is then read once per stage, not once per row.
    stages: dict[int, Stage] = {}
    for row in rows:
        row.card.stage = stages.setdefault(row.card.stage_id, row.card.stage)
        row.game.match.stage = row.card.stage
    return [RowToSign(row=r, stage=r.card.stage, owner=r.card.entry) for r in rows]


def entry_ids_of(tournament: Tournament, user, linked: Iterable[int] = ()) -> list[int]:
    """The entries of the tournament a browser acts for: by its login, or by the ``linked``
    entries of the private links it holds."""
    mine = Q(id__in=list(linked))
    if user.is_authenticated:
        mine |= played_by(user)
    return list(
        Entry.objects.filter(mine, category__tournament=tournament).values_list("id", flat=True)
    )


def cards_of_entry(tournament: Tournament, entry: Entry) -> list[CardLink]:
    """The entry's cards, one per stage it is drawn in (what its private link opens)."""
    which = Q(entry_a=entry) | Q(entry_b=entry) | Q(entry_c=entry)
    return _links(tournament, {entry.id: entry}, which)


def all_cards(tournament: Tournament) -> list[CardLink]:
    """Every card of the tournament, stage by stage (three queries)."""
    entries = {
        e.id: e
        for e in Entry.objects.filter(category__tournament=tournament).select_related(*ENTRY_PEOPLE)
    }
    return _links(tournament, entries, Q())


def _links(tournament: Tournament, entries: dict[int, Entry], which: Q) -> list[CardLink]:
    if not entries:
        return []
    stages = {
        s.id: s
        for s in Stage.objects.filter(category__tournament=tournament).select_related("category")
    }
    pairs = (
        Match.objects.filter(which, stage__category__tournament=tournament)
        .values_list("stage_id", "entry_a_id", "entry_b_id", "entry_c_id")
        .distinct()
    )
    seen = {(s, e) for s, *sides in pairs for e in sides if e in entries}
    return sorted(
        (CardLink(stage=stages[s], entry=entries[e]) for s, e in seen),
        key=lambda x: (x.stage.category.name, x.stage.order, entry_key(x.entry)),
    )


# Paper cards at the scoring table -------------------------------------------------------------


@dataclass(frozen=True)
class PaperGame:
    """A game a paper card's row may be for: the card's owner, the game, its row if any."""

    entry: Entry
    game: Game
    row: CardRow | None

    @property
    def opponents(self) -> list[Entry]:
        return [e for e in self.game.match.entries if e.id != self.entry.id]


def _who(text: str) -> Q:
    """An entry by the ID number printed on its card (either partner's for a team), or by a part
    of a player's or team's name."""
    text = text.strip()
    if text.isdigit():
        number = int(text)
        return (
            Q(player__number=number)
            | Q(team__player_one__number=number)
            | Q(team__player_two__number=number)
        )
    found = Q(team__name__icontains=text)
    for part in ENTRY_PEOPLE:
        for word_of in ("first_name", "last_name"):
            found |= Q(**{f"{part}__{word_of}__icontains": text})
    if " " in text:
        first, _, last = text.partition(" ")
        found |= Q(player__first_name__iexact=first, player__last_name__icontains=last.strip())
    return found


def paper_games(stage: Stage, round_of_play: int, who: str) -> list[PaperGame]:
    """The games of ``round_of_play`` in ``stage`` whose card owner matches ``who`` (an ID
    number or a name), with the row already on that card, if any (two queries)."""
    entries = Entry.objects.filter(_who(who), category_id=stage.category_id)
    games = (
        Game.objects.filter(match__stage=stage, match__round_of_play=round_of_play)
        .filter(
            Q(match__entry_a__in=entries)
            | Q(match__entry_b__in=entries)
            | Q(match__entry_c__in=entries)
        )
        .select_related(*GAME_JOINS)
        .order_by("match__board__number", "match_id", "number")
    )
    wanted = set(entries.values_list("id", flat=True))
    found: list[tuple[Entry, Game]] = []
    for game in games:
        for entry in game.match.entries:
            if entry.id in wanted:
                found.append((entry, game))
    rows = {
        (row.card.entry_id, row.game_id): row
        for row in CardRow.objects.filter(
            card__stage=stage, game__in=[g for _, g in found]
        ).select_related("card")
    }
    return [PaperGame(entry, game, rows.get((entry.id, game.id))) for entry, game in found]


def paper_game(stage: Stage, entry_id: int, game_id: int) -> PaperGame:
    """One game of a card, for the paper form (raises ``Game.DoesNotExist`` when the game is
    not the entry's in that stage)."""
    game = (
        Game.objects.filter(match__stage=stage)
        .filter(
            Q(match__entry_a_id=entry_id)
            | Q(match__entry_b_id=entry_id)
            | Q(match__entry_c_id=entry_id)
        )
        .select_related(*GAME_JOINS)
        .get(pk=game_id)
    )
    entry = next(e for e in game.match.entries if e.id == entry_id)
    row = CardRow.objects.filter(card__stage=stage, card__entry=entry, game=game).first()
    return PaperGame(entry, game, row)
