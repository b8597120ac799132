"""What goes on a printed scorecard, read from the database as plain values.

WCC: each player (or team) keeps one card per stage with a row per game; the opponent validates a
row with their ID number and initials; corrections carry a referee's initials; cards missing the
full name, ID number or category may be voided at the scoring table. So every card printed here
carries the tournament, category and stage, the full names and ID numbers, and per game the round
of play, board, opponent name and ID (both others' in a three-player game), per round the card
owner's points and 20s (and, on request, the board scores), the game totals, and space for the
validation, the referee and the scoring table.

Three kinds of card share one layout: ``round`` cards (one game pre-filled, one card per entry of
a round of play, handed out at the boards), ``stage`` cards (every game of the entry in the
stage, with what its :class:`~scoring.models.CardRow` rows say so far) and ``blank`` cards. Each
builder runs a fixed number of queries, however many cards it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from django.db.models import F, Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine import paper_round_lines, round_lines
from scoring.engine.rounds import DIFFERENCE
from scoring.models import CardRow, ScoreCard
from scoring.printing.errors import PrintError
from scoring.printing.lookups import no_matches_message
from scoring.results.rules import category_rules, unplayed_game
from scoring.scorecards.codes import card_scan_path
from tournaments.models import (
    ENTRY_PEOPLE,
    Category,
    Entry,
    Game,
    Match,
    Stage,
    Tournament,
    people_paths,
)

CardKind = Literal["round", "stage", "blank"]

#: The relations a card needs to print an entry's people without one query per entry.


@dataclass(frozen=True)
class Person:
    """A name and ID number as printed on a card."""

    name: str
    number: str


@dataclass(frozen=True)
class RoundCell:
    """One round of a game from the card owner's side; ``None`` prints an empty box."""

    points: int | None = None
    twenties: int | None = None
    score: int | None = None
    time_expired: bool = False


@dataclass(frozen=True)
class GameLine:
    """One game row of a card: where and whom it is played against, and what was written.

    ``opponents`` holds the people of each opponent entry: one entry (a player, or both
    partners of a team), or the two others of a three-player game in the match's order.
    """

    round_of_play: int | None = None
    board: int | None = None
    game_number: int | None = None
    opponents: tuple[tuple[Person, ...], ...] = ()
    bye: bool = False
    cells: tuple[RoundCell, ...] = ()
    total_points: int | None = None
    total_twenties: int | None = None
    status: str = ""
    status_label: str = ""
    validation: str = ""
    referee: str = ""
    corrected: bool = False
    note: str = ""
    #: A walkover: the game is not played, its boxes are shaded (``note`` says why).
    walkover: bool = False

    @property
    def opponent_labels(self) -> list[tuple[str, str]]:
        """Each opponent as the card prints it: the name (partners joined by " / ") and the ID
        number(s) (joined by "/")."""
        return [
            (" / ".join(p.name for p in people), "/".join(p.number for p in people))
            for people in self.opponents
        ]


@dataclass(frozen=True)
class Card:
    """One printed card. ``people`` is empty on a blank card, which still prints ``partners``
    lines for names and IDs; ``rounds`` is the number of round columns."""

    kind: CardKind
    tournament: str
    category: str = ""
    stage: str = ""
    people: tuple[Person, ...] = ()
    partners: int = 1
    round_of_play: int | None = None
    board: int | None = None
    rounds: int = 4
    lines: tuple[GameLine, ...] = field(default_factory=tuple)
    #: The rounds every game has; the columns after them are played only when needed (a tied
    #: championship game, a first-to game not yet at its target).
    regular: int = 4
    #: The category scores a round by the difference of the board scores (family rulebook,
    #: Scoring 5): every round is written with its board score, whatever the print options say.
    board_scores: bool = False
    #: The category plays three-player games (family rulebook, Option Two): 2-1-0 by rank, to 8.
    three_players: bool = False
    #: The path of the card's code, printed as a QR code in the header: it opens the card to
    #: read, and to sign for whoever proves to be the opponent on their own phone; never the
    #: owner's private link (the card goes across the board). Empty on blank cards.
    link_path: str = ""

    @property
    def round_numbers(self) -> range:
        return range(1, self.rounds + 1)

    @property
    def person_slots(self) -> list[Person | None]:
        """What the name lines print: the people, or empty lines on a blank card."""
        return list(self.people) or [None] * self.partners


def people_of(entry: Entry | None) -> tuple[Person, ...]:
    """The people of an entry: one player, or both partners of a team."""
    if entry is None:
        return ()
    return tuple(Person(p.full_name, str(p.number)) for p in entry.people)


def _scan_paths(stage: Stage, entries: Iterable[Entry]) -> dict[int, str]:
    """The path the QR of each entry's card opens, by entry id: the card's signed code
    (``scoring.scorecards.codes``), never the entry's private link, because the card is handed
    across the board to be signed. No query."""
    slug = stage.category.tournament.slug
    return {e.id: card_scan_path(slug, stage.id, e.id) for e in entries}


def _sides(match: Match) -> list[tuple[Entry, list[Entry]]]:
    """Each entry at the board with the others it plays, in the match's order (a bye: the entry
    alone, against nobody)."""
    entries = match.entries
    return [(entry, [o for o in entries if o.id != entry.id]) for entry in entries]


def _three_players(category: Category | None) -> bool:
    return category is not None and category_rules(category).sides == 3


def _matches(stage: Stage, round_of_play: int | None = None) -> list[Match]:
    """The stage's matches (of one round of play, if given) with entries, boards and games
    loaded (two queries)."""
    matches = Match.objects.filter(stage=stage)
    if round_of_play is not None:
        matches = matches.filter(round_of_play=round_of_play)
    return list(
        matches.select_related("board", *people_paths("entry_a", "entry_b", "entry_c"))
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
        .order_by("round_of_play", F("board__number").asc(nulls_last=True), "id")
    )


def _board_scores(category: Category | None) -> bool:
    """Whether the category's rounds are scored from the board scores, so a card needs them."""
    return category is not None and category_rules(category).round_scoring == DIFFERENCE


def _round_columns(category: Category, games: Iterable[Game]) -> int:
    """The round lines the judge keeps on paper: a championship card has room for the 5th round
    of a tied game and one more (WCC Scoring), a first-to game room to play to its target."""
    playoff = any(g.is_playoff for g in games)
    return paper_round_lines(category_rules(category, playoff=playoff))


def _game_numbers(match: Match) -> list[tuple[int, Game | None]]:
    """A line per game of the match: the games drawn, or ``best_of`` empty lines before they
    are (a best-of-3 knockout match prints three lines, the third only played if needed)."""
    games = list(match.games.all())
    by_number = {g.number: g for g in games}
    count = max([match.best_of, *by_number]) if by_number else match.best_of
    return [(n, by_number.get(n)) for n in range(1, count + 1)]


def _cells(rounds: int, row: CardRow | None) -> tuple[RoundCell, ...]:
    written = list(row.rounds) if row is not None else []
    cells = [
        RoundCell(
            points=r["points"][0],
            twenties=r["twenties"][0],
            score=r["score"][0] if r.get("score") else None,
            time_expired=bool(r.get("time_expired")),
        )
        for r in written
    ]
    return tuple(cells + [RoundCell()] * max(0, rounds - len(cells)))


def _line(
    match: Match,
    number: int,
    opponents: Sequence[Entry],
    *,
    stage: Stage,
    rounds: int,
    row: CardRow | None = None,
    game: Game | None = None,
) -> GameLine:
    """A game line pre-filled with what the draw knows and what the card row says; a forfeited
    game says so ("Walkover: Bob withdrew", "Forfeit (head referee): <reason>") and a walkover
    prints no boxes to fill."""
    common = {
        "round_of_play": match.round_of_play,
        "board": match.board.number if match.board_id else None,
        "game_number": number if match.best_of > 1 else None,
    }
    if not opponents:
        # A knockout bye passes the entry on; elsewhere it credits what a bye is worth under
        # the category's scoring system.
        knockout = stage.kind == Stage.Kind.KNOCKOUT
        if knockout:
            note = _("Bye: through to the next round")
        else:
            points = unplayed_game(stage).winner
            # The English says "points" whatever the number, as the card always did.
            note = ngettext("Bye: %(points)s points", "Bye: %(points)s points", points) % {
                "points": points
            }
        return GameLine(**common, bye=True, cells=_cells(rounds, None), note=note)
    forfeit = game.forfeit_label if game is not None and game.forfeited_by else ""
    if forfeit and row is None:
        return GameLine(
            **common,
            opponents=_people(opponents),
            walkover=game.is_walkover,
            cells=_cells(rounds, None),
            status="walkover",
            note=forfeit,
        )
    if row is None:
        return GameLine(**common, opponents=_people(opponents), cells=_cells(rounds, None))
    validation = " ".join(x for x in (row.validated_number, row.validated_initials) if x)
    voided = row.status == CardRow.Status.VOIDED
    label = (
        _("Voided: %(reason)s") % {"reason": row.void_reason}
        if voided
        else row.get_status_display()
    )
    return GameLine(
        **common,
        opponents=_people(opponents),
        cells=_cells(rounds, row),
        total_points=row.total_points,
        total_twenties=row.total_twenties,
        status=row.status,
        status_label=label,
        validation=validation,
        referee=row.referee_initials,
        corrected=bool(row.referee_initials),
        note=forfeit,
    )


def _people(entries: Sequence[Entry]) -> tuple[tuple[Person, ...], ...]:
    return tuple(people_of(entry) for entry in entries)


def _header(stage: Stage) -> dict[str, str]:
    category = stage.category
    return {
        "tournament": category.tournament.name,
        "category": category.name,
        "stage": stage.name,
    }


def _stage_with_header(stage: Stage) -> Stage:
    """The stage with its category and tournament loaded, so cards cost no further queries."""
    if "category" in stage._state.fields_cache:
        category = stage.category
        if "tournament" in category._state.fields_cache:
            return stage
    return Stage.objects.select_related("category__tournament").get(pk=stage.pk)


def drawn_rounds(stage: Stage) -> list[int]:
    """The rounds of play of the stage that have matches, in order."""
    return sorted(set(Match.objects.filter(stage=stage).values_list("round_of_play", flat=True)))


def round_cards(stage: Stage, round_of_play: int) -> list[Card]:
    """One card per entry playing in the round of play, its game(s) pre-filled, ordered by board
    so that the two cards of a board come out of the printer together.

    Raises :class:`PrintError` (400) naming the rounds that do have matches when this one has
    none.
    """
    stage = _stage_with_header(stage)
    matches = _matches(stage, round_of_play)
    if not matches:
        raise PrintError(no_matches_message(stage, round_of_play, drawn_rounds(stage)))
    rounds = _round_columns(stage.category, (g for m in matches for g in m.games.all()))
    header = _header(stage)
    partners = stage.category.players_per_side
    paths = _scan_paths(stage, (e for m in matches for e in m.entries))
    cards = []
    for match in matches:
        for entry, opponents in _sides(match):
            lines = tuple(
                _line(match, number, opponents, stage=stage, rounds=rounds, game=game)
                for number, game in _game_numbers(match)
            )
            cards.append(
                Card(
                    kind="round",
                    **header,
                    people=people_of(entry),
                    partners=partners,
                    round_of_play=round_of_play,
                    board=match.board.number if match.board_id else None,
                    rounds=rounds,
                    regular=round_lines(category_rules(stage.category)),
                    board_scores=_board_scores(stage.category),
                    three_players=_three_players(stage.category),
                    lines=lines,
                    link_path=paths.get(entry.id, ""),
                )
            )
    return cards


def stage_cards(stage: Stage, entries: Sequence[Entry] | None = None) -> list[Card]:
    """Each entry's card for the stage: a line per game it plays, with its card rows filled in
    (totals computed from the rounds, statuses, validations, referee corrections marked).

    Without ``entries``, every entry drawn in the stage gets a card, ordered by ID number.
    """
    stage = _stage_with_header(stage)
    matches = _matches(stage)
    wanted = {e.id for e in entries} if entries is not None else None
    card_rows = CardRow.objects.filter(card__stage=stage).select_related("card")
    if wanted is not None:
        card_rows = card_rows.filter(card__entry_id__in=wanted)
    rows = {(r.card.entry_id, r.game_id): r for r in card_rows}
    rounds = max(
        [
            _round_columns(stage.category, (g for m in matches for g in m.games.all())),
            *(len(r.rounds) for r in rows.values()),
        ]
    )
    by_entry: dict[int, tuple[Entry, list[GameLine]]] = {}
    if entries is not None:
        by_entry = {e.id: (e, []) for e in entries}
    for match in matches:
        for entry, opponents in _sides(match):
            if wanted is not None and entry.id not in wanted:
                continue
            _, lines = by_entry.setdefault(entry.id, (entry, []))
            for number, game in _game_numbers(match):
                row = rows.get((entry.id, game.id)) if game is not None else None
                lines.append(
                    _line(match, number, opponents, stage=stage, rounds=rounds, row=row, game=game)
                )
    header = _header(stage)
    partners = stage.category.players_per_side
    ordered = sorted(by_entry.values(), key=lambda item: _sort_key(item[0]))
    paths = _scan_paths(stage, (entry for entry, _ in ordered))
    return [
        Card(
            kind="stage",
            **header,
            people=people_of(entry),
            partners=partners,
            rounds=rounds,
            regular=round_lines(category_rules(stage.category)),
            board_scores=_board_scores(stage.category),
            three_players=_three_players(stage.category),
            lines=tuple(lines) or (GameLine(cells=_cells(rounds, None)),),
            link_path=paths.get(entry.id, ""),
        )
        for entry, lines in ordered
    ]


def filled_card(card: ScoreCard) -> Card:
    """One scorecard as it stands: the entry's games in the stage with its rows filled in."""
    entry = Entry.objects.select_related(*ENTRY_PEOPLE).get(pk=card.entry_id)
    return stage_cards(card.stage, [entry])[0]


def blank_cards(
    tournament: Tournament,
    *,
    count: int,
    games: int,
    rounds: int | None = None,
    category: Category | None = None,
) -> list[Card]:
    """Cards with no names for walk-ins and spares: the tournament name printed, the rest left
    for the player to write (the category too, unless one is given)."""
    columns = rounds or (paper_round_lines(category_rules(category)) if category else 4)
    card = Card(
        kind="blank",
        tournament=tournament.name,
        category=category.name if category else "",
        partners=category.players_per_side if category else 1,
        rounds=columns,
        regular=min(columns, round_lines(category_rules(category))) if category else columns,
        board_scores=_board_scores(category),
        three_players=_three_players(category),
        lines=tuple(GameLine(cells=_cells(columns, None)) for _ in range(games)),
    )
    return [card] * count


def _sort_key(entry: Entry) -> tuple[int, str]:
    people = people_of(entry)
    first = people[0].number if people else ""
    return (int(first) if first.isdigit() else 0, entry.name)
