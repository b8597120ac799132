"""The draw of one round of play, printed large to pin on the wall of the hall.

Players crowd the wall before a round to find their board; a scorecard in hand says it too, but
cards are handed out at the boards, so the wall is what people read first. The sheet lists the
round board by board (both sides with their ID numbers, since names repeat in a big field), then
again player by player in alphabetical order of last name, so nobody reads the whole board list
to find their own line. The start time is in the heading when the schedule set one; when the
round is played in several waves (more matches than boards) each board line carries its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET

from scoring.printing.errors import PrintError
from scoring.printing.lookups import no_matches_message, tournament_stage
from scoring.printing.render import render_pdf
from scoring.printing.views import _for_printers, _pdf, print_options
from tournaments.models import Entry, Match, Player, Stage, Tournament, people_paths

#: What a bye prints where the opponent's name would be (translated where it is printed).
BYE = gettext_noop("bye")


@dataclass(frozen=True)
class Side:
    """One side at a board: a player, or both partners of a team ("Ann A / Bob B", "101/102")."""

    name: str
    number: str


@dataclass(frozen=True)
class DrawBoard:
    """One match of the round: its board and its sides in the match's order (A, B and, in a
    three-player game, C). A bye has side A only."""

    board: int | None
    sides: tuple[Side, ...]
    starts_at: datetime | None

    @property
    def columns(self) -> tuple[Side, ...]:
        """The sides as the sheet's columns print them: a bye's empty side B says "bye"."""
        return self.sides if len(self.sides) > 1 else (*self.sides, Side(_(BYE), ""))


@dataclass(frozen=True)
class DrawLine:
    """One person in the alphabetical listing: where they play and against whom."""

    name: str
    number: str
    board: int | None
    opponents: tuple[Side, ...]
    starts_at: datetime | None

    @property
    def opponent_label(self) -> str:
        """The opponents as one cell: "Bob B (102)", both others of a three-player game, or
        "bye"."""
        if not self.opponents:
            return _(BYE)
        label = ""
        for side in self.opponents:
            named = f"{side.name} ({side.number})"
            label = (
                _("%(names)s and %(name)s") % {"names": label, "name": named} if label else named
            )
        return label


@dataclass(frozen=True)
class DrawSheet:
    stage: Stage
    round_of_play: int
    boards: list[DrawBoard]
    players: list[DrawLine]
    #: The distinct start times of the round's matches, earliest first; empty when unscheduled.
    starts: list[datetime]
    three_players: bool

    @property
    def start(self) -> datetime | None:
        return self.starts[0] if self.starts else None

    @property
    def staggered(self) -> bool:
        """Whether the round starts in waves, so each board line needs its own time."""
        return len(self.starts) > 1


def round_draw(stage: Stage, round_of_play: int) -> DrawSheet:
    """The round's matches by board, and the same by person (one query).

    A round of play without matches raises :class:`PrintError` with status 404: there is no
    such draw to print, which the wall sheet treats like an unknown stage.
    """
    matches = list(
        Match.objects.filter(stage=stage, round_of_play=round_of_play)
        .select_related(
            "board",
            *people_paths("entry_a", "entry_b", "entry_c"),
        )
        .order_by(F("board__number").asc(nulls_last=True), "starts_at", "id")
    )
    if not matches:
        drawn = sorted(
            set(Match.objects.filter(stage=stage).values_list("round_of_play", flat=True))
        )
        raise PrintError(no_matches_message(stage, round_of_play, drawn), status=404)
    boards = [
        DrawBoard(
            board=_board(match),
            sides=tuple(_side(entry) for entry in match.entries),
            starts_at=match.starts_at,
        )
        for match in matches
    ]
    return DrawSheet(
        stage=stage,
        round_of_play=round_of_play,
        boards=boards,
        players=_by_player(matches),
        starts=sorted({m.starts_at for m in matches if m.starts_at is not None}),
        three_players=any(m.entry_c_id for m in matches),
    )


def _board(match: Match) -> int | None:
    return match.board.number if match.board_id else None


def _side(entry: Entry) -> Side:
    people = entry.people
    return Side(
        name=" / ".join(p.full_name for p in people),
        number="/".join(str(p.number) for p in people),
    )


def _listed_name(player: Player) -> str:
    """Last name first, as a list sorted by last name is read."""
    return f"{player.last_name}, {player.first_name}" if player.first_name else player.last_name


def _by_player(matches: list[Match]) -> list[DrawLine]:
    """Every person of the round (each partner of a team on their own line), sorted by last
    name, then first name, then ID number."""
    found: list[tuple[tuple[str, str, int], DrawLine]] = []
    for match in matches:
        entries = match.entries
        for entry in entries:
            opponents = tuple(_side(other) for other in entries if other.id != entry.id)
            for person in entry.people:
                key = (person.last_name.casefold(), person.first_name.casefold(), person.number)
                line = DrawLine(
                    name=_listed_name(person),
                    number=str(person.number),
                    board=_board(match),
                    opponents=opponents,
                    starts_at=match.starts_at,
                )
                found.append((key, line))
    return [line for _, line in sorted(found, key=lambda item: item[0])]


@require_GET
@_for_printers
def round_draw_pdf(
    request: HttpRequest, tournament: Tournament, stage_id: int, round_of_play: int
) -> HttpResponse:
    """The round's draw for the wall: by board, then by player on the following pages."""
    options = print_options(request, request.GET)
    stage = tournament_stage(tournament, stage_id)
    sheet = round_draw(stage, round_of_play)
    title = _("%(tournament)s · %(category)s · %(stage)s · round %(round)s · draw") % {
        "tournament": tournament.name,
        "category": stage.category.name,
        "stage": stage.name,
        "round": round_of_play,
    }
    context = {"sheet": sheet, "tournament": tournament, "title": title}
    pdf = render_pdf("pdf/draw_sheet.html", context, options)
    return _pdf(pdf, f"{tournament.slug}-{slugify(stage.name)}-round-{round_of_play}-draw.pdf")
