"""Simulated games of a batch written in bulk, through the scorecard workflow's own checks.

Written one game at a time (``fill_row``, ``validate_row`` then ``verify_card``, see
``simulation.services.autoplay``), a simulated game costs about 150 statements: every call
locks its game, reads the game, its stage and category again, asks whether the stage is closed
(five reads), checks the role of the account, saves its row twice (optimistic lock) and records
the official result once per row that counts. For the hundreds of games of a dry run that was
as long as playing them.

Here the games of a batch are written in a constant number of statements, whatever their
number: the games locked at once (``lock_games``, the workflow's one lock order), read once
with everything the checks need, and each check the workflow makes called as it is, but where
its answer cannot differ from one game to the next only once per batch:

- once per stage: the stage is open (``ensure_open``);
- once per account: it holds the role the step needs (``fill_row``, ``validate_row``,
  ``verify_card`` permissions), a role being held for the whole tournament;
- per game, in memory: the game is not forfeited, each side's row passes the judge
  (``normalise_rounds``) and is complete (``check_complete``), the two rows agree
  (``as_official`` in the match's order of sides), each card carries its header, and the
  official rounds pass the judge again as ``record_game`` checks them.

Then each side's row is stored in its final state (verified) with the three versions its
history would have had (``filled``, ``validated``, ``verified``), and the official rounds with
their history, all in bulk. The rows, their statuses, versions and history, the official
rounds and the standings are those the per-game workflow writes (``tests/simulation``
compare both on the same seeded games).

What is not the common case goes through the per-game workflow instead, which says what is
wrong or settles it as people's cards are: a game that already has a row or an official
round, a forfeited game, a game whose rows would disagree, and every knockout game (each
official result there may open the next match, ``advance_knockout``, and when it does decides
the bracket's order; a knockout batch is a handful of games).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from scoring import engine
from scoring.models import CardRow, ScoreCard
from scoring.progression.locks import ensure_open
from scoring.results.rules import game_rules
from scoring.results.services import ResultError, official_row
from scoring.scorecards.services import (
    ScorecardError,
    as_official,
    check_card_header,
    check_complete,
    normalise_rounds,
    require_permission,
    row_order,
)
from simulation.services.system_users import INITIALS, SystemUsers
from tournaments import live
from tournaments.models import Entry, Game, Round, Stage
from tournaments.services.game_locks import lock_games

Status = CardRow.Status


@dataclass(frozen=True)
class Split:
    """A batch's games: those written here in bulk, and those left to the per-game workflow."""

    bulk: list[Mapping[str, Any]]
    single: list[Mapping[str, Any]]


def split(games: Mapping[int, Game], played: Sequence[Mapping[str, Any]]) -> Split:
    """Lock the batch's games and sort them: the common case (a game with no row and no
    official round yet, not forfeited, outside a knockout) goes in bulk. Call inside the
    writer's transaction, before anything is written."""
    ids = [item["game_id"] for item in played]
    lock_games(ids)
    taken = set(
        Game.objects.filter(id__in=ids)
        .filter(Q(card_rows__isnull=False) | Q(rounds__isnull=False))
        .values_list("id", flat=True)
    )
    bulk, single = [], []
    for item in played:
        game = games[item["game_id"]]
        common = (
            item["game_id"] not in taken
            and not game.forfeited_by
            and game.match.stage.kind != Stage.Kind.KNOCKOUT
            and game.match.entry_c_id is None
        )
        (bulk if common else single).append(item)
    return Split(bulk, single)


@dataclass
class _Game:
    """One game as the checks leave it: its rows' rounds and its official rounds."""

    game: Game
    rows: list[tuple[Entry, Entry, list[engine.RoundData]]]
    official: list[Round]


def write(
    games: Mapping[int, Game], played: Sequence[Mapping[str, Any]], users: SystemUsers
) -> list[Mapping[str, Any]]:
    """Write the games of ``played`` (those ``split`` put in bulk) as verified scorecard rows
    and official results; returns the games whose rows would disagree, for the per-game
    workflow to settle. Raises ``ScorecardError`` (or ``PermissionDenied``) as the workflow
    would, before anything is written."""
    if not played:
        return []
    stages = {games[item["game_id"]].match.stage for item in played}
    for stage in sorted(stages, key=lambda s: s.pk):
        ensure_open(stage, error=ScorecardError)
    checked: list[_Game] = []
    disagreeing: list[Mapping[str, Any]] = []
    for item in played:
        done = _check_game(games[item["game_id"]], item)
        if done is None:
            disagreeing.append(item)
        else:
            checked.append(done)
    if not checked:
        return disagreeing
    cards = _cards(checked)
    for card in cards.values():
        check_card_header(card)
    _check_roles(checked[0], cards, users)
    rows = _store_rows(checked, cards, users)
    rounds = [r for g in checked for r in g.official]
    bulk_create_with_history(rounds, Round)
    # Bulk writes send no signal: the live versions the saves would have bumped, bumped here.
    live.touch("card", {row.card_id for row in rows})
    live.touch("game", [g.game.pk for g in checked])
    return disagreeing


def _check_game(game: Game, item: Mapping[str, Any]) -> _Game | None:
    """The workflow's checks of one game, in its order: each side's row through the judge and
    complete (``fill_row``, ``validate_row``), the rows compared, the official rounds through
    the judge (``record_game``). None when the rows disagree."""
    match = game.match
    rounds_a = item["rounds"]
    rows = []
    for entry, opponent, rounds in (
        (match.entry_a, match.entry_b, rounds_a),
        (match.entry_b, match.entry_a, engine.mirror(rounds_a)),
    ):
        clean = normalise_rounds(game, rounds, entry)
        check_complete(game, clean, entry)
        rows.append((entry, opponent, clean))
    seen = [as_official(clean, row_order(game, entry)) for entry, _opponent, clean in rows]
    if any(other != seen[0] for other in seen[1:]):
        return None
    rules = game_rules(game)
    try:
        judged = engine.read_rounds(seen[0], rules)
        engine.judge_game(judged, rules)
    except engine.EngineInputError as exc:  # the rows passed: not expected, said all the same
        raise ResultError(
            _("game %(number)s (%(match)s), %(error)s")
            % {"number": game.number, "match": match, "error": exc},
            round=exc.round,
        ) from None
    official = [official_row(game, n, r, rules.discs) for n, r in enumerate(judged, 1)]
    return _Game(game, rows, official)


def _cards(checked: Sequence[_Game]) -> dict[tuple[int, int], ScoreCard]:
    """Each entry's card for the stage, read or created at once (``card_for``'s cards)."""
    wanted: dict[tuple[int, int], tuple[Stage, Entry]] = {}
    for g in checked:
        for entry, _opponent, _rounds in g.rows:
            wanted.setdefault((g.game.match.stage_id, entry.id), (g.game.match.stage, entry))
    stage_ids = {key[0] for key in wanted}
    entry_ids = {key[1] for key in wanted}
    cards = {
        (card.stage_id, card.entry_id): card
        for card in ScoreCard.objects.filter(stage_id__in=stage_ids, entry_id__in=entry_ids)
    }
    missing = [ScoreCard(stage=s, entry=e) for key, (s, e) in wanted.items() if key not in cards]
    for card in ScoreCard.objects.bulk_create(missing):
        cards[(card.stage_id, card.entry_id)] = card
    for key, (stage, entry) in wanted.items():
        # The card's stage and entry as already read: the header and permission checks use them.
        cards[key].stage, cards[key].entry = stage, entry
    return {key: cards[key] for key in wanted}


def _check_roles(
    first: _Game, cards: Mapping[tuple[int, int], ScoreCard], users: SystemUsers
) -> None:
    """The accounts' permissions, once: the referee fills and signs simulated rows, the table
    verifies, each by the role it holds at the tournament, the same for every row of it."""
    game = first.game
    entry = first.rows[0][0]
    card = cards[(game.match.stage_id, entry.id)]
    probe = CardRow(card=card, game=game, simulated=True)
    require_permission(users.referee, "scoring.fill_row", probe, _("fill this scorecard"))
    require_permission(
        users.referee, "scoring.validate_row", probe, _("validate this row: only the opponent does")
    )
    require_permission(users.table, "scoring.verify_card", card, _("verify scorecards"))


def _store_rows(
    checked: Sequence[_Game], cards: Mapping[tuple[int, int], ScoreCard], users: SystemUsers
) -> list[CardRow]:
    """Each side's row as the workflow leaves it (verified, version 3), and its history: the
    versions ``filled`` (created), ``validated`` and ``verified``."""
    now = timezone.now()
    referee, table = users.referee, users.table
    rows = []
    for g in checked:
        for entry, opponent, clean in g.rows:
            rows.append(
                CardRow(
                    card=cards[(g.game.match.stage_id, entry.id)],
                    game=g.game,
                    rounds=clean,
                    filled_by=referee if referee.is_authenticated else None,
                    simulated=True,
                    status=Status.VERIFIED,
                    version=3,
                    validated_number=id_number(opponent),
                    validated_initials=INITIALS.strip().upper()[:5],
                    validated_at=now,
                    validated_how=CardRow.ValidatedHow.SIMULATED,
                    verified_by=table,
                    verified_at=now,
                )
            )
    CardRow.objects.bulk_create(rows)
    filled, validated = [], []
    for row in rows:
        step = copy.copy(row)
        step.status, step.version, step.verified_by, step.verified_at = (
            Status.VALIDATED,
            2,
            None,
            None,
        )
        validated.append(step)
        first = copy.copy(step)
        first.status, first.version = Status.FILLED, 1
        first.validated_number = first.validated_initials = first.validated_how = ""
        first.validated_at = None
        filled.append(first)
    history = CardRow.history
    history.bulk_history_create(filled, default_change_reason="filled")
    history.bulk_history_create(validated, update=True, default_change_reason="validated")
    history.bulk_history_create(rows, update=True, default_change_reason="verified")
    return rows


def id_number(entry: Entry) -> str:
    """The ID the opponent signs with: the player's, or the first partner's."""
    if entry.player_id:
        return str(entry.player.number)
    return str(entry.team.player_one.number)
