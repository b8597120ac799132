"""Reading this app's tournament export (``scoring.exports.services``) as past results, without
creating the tournament: its players, categories, stages, matches, games and official rounds
become the same games as a line of the Crokinole Reference layout, written the way
``scoring.record.exporting`` writes an event (its event, stage, pool and game number), so a
game reads the same whichever way it left its site.

The file is checked as a whole first (``read_file``: its format, version, checksum and, when it
says so, this site's signature); a file that fails is refused in those words. Then each game:

- counted when it is finished under its category's rules (``scoring.results.rules``, on the
  file's category) between two sides, scored 2-1-0 per round: what the layout holds;
- skipped, with its line, when it is forfeited, played by the simulation, not finished, or of
  a system the layout cannot hold;
- a bad line when its official rounds break a rule of the game (an edited file).

A game's key is ``"exp:" + digest`` of the tournament's web address and the game's event,
stage, pool, number and players: the same game in a later export of the same event (more games
played, numbers inside the file moved by a changed draw) has the same key.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import EngineInputError, judge_game
from scoring.engine.reference_csv import LineError, ReferenceGame, join_name
from scoring.engine.rounds import TWO_ONE_ZERO
from scoring.exports.services import ImportFileError, read_file
from scoring.record.exporting import event_label, stage_label
from scoring.results.rules import ROUND_VALUES, category_rules, values_round
from tournaments.actions import Kind, Refused
from tournaments.models import Category

#: The category's fields its rules are read from (``scoring.results.rules.category_rules``).
_RULE_FIELDS = (
    "kind",
    "discipline",
    "discs_per_player",
    "rounds_per_game",
    "scoring_system",
    "target_points",
)


@dataclass
class AppExport:
    """What :func:`read` found: games with their keys, bad and skipped lines, and each person's
    name as the registry takes it (first and last name kept apart, club, country)."""

    games: list[ReferenceGame] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    skipped: list[LineError] = field(default_factory=list)
    lines: int = 0
    people: dict[str, dict[str, str]] = field(default_factory=dict)
    #: This site signed the file: its event may be this site's own, whose games the record
    #: holds already under their own keys (``game:<id>``).
    signed_here: bool = False


@dataclass
class _Object:
    line: int
    fields: dict[str, Any]


def _day(value: Any) -> date | None:
    if not value:
        return None
    try:
        if "T" in str(value):
            moment = datetime.fromisoformat(str(value))
            return timezone.localtime(moment).date() if timezone.is_aware(moment) else moment.date()
        return date.fromisoformat(str(value))
    except ValueError:
        return None


def read(text: str) -> AppExport:
    """The finished games of an export file, without writing anything."""
    try:
        header, lines, _end, signed = read_file(text)
    except ImportFileError as exc:
        raise Refused(
            _("This is not a tournament export this site can read. %(problem)s")
            % {"problem": exc.messages[0]},
            kind=Kind.INVALID,
            field="file",
        ) from None
    found = AppExport(lines=len(lines) + 2, signed_here=signed)
    objects: dict[str, dict[Any, _Object]] = defaultdict(dict)
    for line in lines:
        model, number, fields = line.data.get("model"), line.data.get("id"), line.data.get("fields")
        if isinstance(model, str) and isinstance(fields, dict) and number is not None:
            objects[model][number] = _Object(line.number, fields)
    tournaments = list(objects["tournaments.tournament"].values())
    if len(tournaments) != 1:
        raise Refused(
            _("The export holds no tournament; export it again from its organizer page."),
            kind=Kind.INVALID,
            field="file",
        )
    tournament = tournaments[0].fields
    slug = str(header.get("tournament") or tournament.get("slug") or "")
    reader = _Reader(found, objects, tournament, slug)
    reader.games()
    return found


@dataclass(frozen=True)
class _Context:
    """A game's match, stage and category as the file holds them, and its match's games."""

    match: _Object
    stage: dict[str, Any]
    category_fields: dict[str, Any]
    category: Category
    games: int


class _Reader:
    def __init__(
        self,
        found: AppExport,
        objects: dict[str, dict[Any, _Object]],
        tournament: dict[str, Any],
        slug: str,
    ) -> None:
        self.found = found
        self.objects = objects
        self.tournament = tournament
        self.slug = slug
        self.rounds: dict[Any, list[_Object]] = defaultdict(list)
        for obj in objects["tournaments.round"].values():
            self.rounds[obj.fields.get("game")].append(obj)
        self.games_of: dict[Any, list[tuple[Any, _Object]]] = defaultdict(list)
        for number, obj in objects["tournaments.game"].items():
            self.games_of[obj.fields.get("match")].append((number, obj))

    def _get(self, model: str, number: Any) -> dict[str, Any] | None:
        obj = self.objects[model].get(number)
        return obj.fields if obj is not None else None

    def _category(self, fields: dict[str, Any]) -> Category:
        return Category(**{name: fields[name] for name in _RULE_FIELDS if name in fields})

    def _side(self, entry_number: Any) -> tuple[str, ...] | None:
        entry = self._get("tournaments.entry", entry_number)
        if entry is None:
            return None
        if entry.get("player") is not None:
            numbers = [entry["player"]]
        else:
            team = self._get("tournaments.team", entry.get("team")) or {}
            numbers = [team.get("player_one"), team.get("player_two")]
        names = []
        for number in numbers:
            player = self._get("tournaments.player", number)
            if player is None:
                return None
            first, last = str(player.get("first_name", "")), str(player.get("last_name", ""))
            name = join_name(first, last)
            self.found.people.setdefault(
                name,
                {
                    "first_name": " ".join(first.split()),
                    "last_name": " ".join(last.split()),
                    "club": str(player.get("club") or ""),
                    "country": str(player.get("country") or ""),
                },
            )
            names.append(name)
        return tuple(names)

    def _skip(self, line: int, words: str) -> None:
        self.found.skipped.append(LineError(line, "", words))

    def games(self) -> None:
        categories = {
            number: (obj.fields, self._category(obj.fields))
            for number, obj in self.objects["tournaments.category"].items()
        }
        fitting = {
            number
            for number, (_fields, category) in categories.items()
            if category_rules(category).sides == 2
            and category_rules(category).round_scoring == TWO_ONE_ZERO
        }
        stages = self.objects["tournaments.stage"]
        matches = sorted(
            self.objects["tournaments.match"].items(),
            key=lambda item: (
                (stages.get(item[1].fields.get("stage")) or _Object(0, {})).fields.get("order", 0),
                item[1].fields.get("stage") or 0,
                item[1].fields.get("round_of_play") or 0,
                item[0],
            ),
        )
        for match_number, match in matches:
            stage = self._get("tournaments.stage", match.fields.get("stage"))
            if stage is None:
                continue
            category_fields, category = categories.get(stage.get("category"), ({}, None))
            games = sorted(
                self.games_of[match_number], key=lambda g: g[1].fields.get("number") or 0
            )
            for game_number, game in games:
                if stage.get("category") not in fitting:
                    self._skip(game.line, _("a game of a system the layout cannot hold; skipped"))
                    continue
                context = _Context(match, stage, category_fields, category, len(games))
                self._game(game_number, game, context, several_categories=len(fitting) > 1)

    def _game(
        self, game_number: Any, game: _Object, context: _Context, *, several_categories: bool
    ) -> None:
        match, stage = context.match, context.stage
        fields = game.fields
        if fields.get("forfeited_by") or fields.get("simulated"):
            self._skip(game.line, _("a forfeited or simulated game, not play; skipped"))
            return
        if match.fields.get("entry_b") is None or match.fields.get("entry_c") is not None:
            return
        stored = sorted(self.rounds.get(game_number, []), key=lambda r: r.fields.get("number", 0))
        if not stored:
            return
        rules = category_rules(context.category, playoff=bool(fields.get("is_playoff")))
        try:
            engine_rounds = [
                values_round(
                    *(r.fields.get(n) for n in ROUND_VALUES if n != "scoring"),
                    r.fields.get("scoring") or TWO_ONE_ZERO,
                )
                for r in stored
            ]
            verdict = judge_game(engine_rounds, rules)
        except (EngineInputError, TypeError) as error:
            self.found.errors.append(LineError(stored[0].line, "", str(error)))
            return
        if not verdict.over:
            self._skip(game.line, _("a game not finished; skipped"))
            return
        side_a = self._side(match.fields.get("entry_a"))
        side_b = self._side(match.fields.get("entry_b"))
        if side_a is None or side_b is None:
            self.found.errors.append(
                LineError(game.line, "", _("its match names an entry the file does not hold"))
            )
            return
        pool = self._get("tournaments.pool", match.fields.get("pool"))
        several_games = (match.fields.get("best_of") or 1) > 1 or context.games > 1
        played_on = (
            _day(match.fields.get("starts_at"))
            or _day(self.tournament.get("starts_on"))
            or _day(self.tournament.get("created_at"))
            or timezone.localdate()
        )
        reference = ReferenceGame(
            played_on=played_on,
            event=event_label(
                str(self.tournament.get("name", "")),
                str(context.category_fields.get("name", "")),
                several=several_categories,
            ),
            stage=stage_label(
                str(stage.get("name", "")), fields.get("number") or 1, several_games=several_games
            ),
            pool=str(pool.get("name", "") if pool else match.fields.get("bracket_slot") or "")[:40],
            number=match.fields.get("round_of_play") or 1,
            side_a=side_a,
            side_b=side_b,
            rounds=tuple(
                (r.points[0], r.points[1], r.twenties[0], r.twenties[1]) for r in engine_rounds
            ),
            first=1 if fields.get("first_side") == "b" else 0,
            line=game.line,
        )
        joined = "\x1f".join((self.slug, *reference.identity()))
        self.found.games.append(reference)
        self.found.keys.append("exp:" + hashlib.sha256(joined.encode("utf-8")).hexdigest()[:40])
