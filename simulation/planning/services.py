"""Planning runs: the organizer's options checked and stored, and the forecast worked out.

``check_options`` turns what a form or the API sent into the options a run stores, or refuses
naming the field at fault (``PlanningError.field``); ``create_run`` stores a queued run;
``run_plan`` (the task's work) reads the field (the real entries of a category, each with the
level the previews give it, topped up to a planned count with the category's level when
registration is still open), plays each format's day with :mod:`simulation.planning.forecast`
and stores the summary, saying how far it got after each format for the progress bar.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from simulation.game import DEFAULT_SHOT_SECONDS, SHOT_SECONDS
from simulation.models import PlanningRun, Status
from simulation.planning import forecast
from simulation.services import background
from tournaments.actions import Kind, Refused
from tournaments.models import Category, Stage, Tournament

MAX_ENTRIES = 1000
MAX_BOARDS = 500
MAX_FORMATS = 12
DEFAULT_REPETITIONS = 200
#: The choices offered beside the tournament's own format.
PRELIM_CHOICES = (8, 10)
PLAYOFF_CHOICES = (16, 24)
BEST_OF_CHOICES = (3, 5)
_CLOCK = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


class PlanningError(Refused):
    """Options a planning run cannot take; ``field`` names the one at fault."""


def _whole(data: Mapping[str, Any], name: str, low: int, high: int, default: int | None) -> Any:
    value = data.get(name)
    if value in (None, ""):
        return default
    try:
        number = int(value)
        if isinstance(value, bool) or float(value) != number:
            raise ValueError
    except (TypeError, ValueError):
        raise PlanningError(
            _("%(value)r is not a whole number.") % {"value": value}, field=name
        ) from None
    if not low <= number <= high:
        raise PlanningError(
            _("%(value)s is not allowed: choose from %(low)s to %(high)s.")
            % {"value": number, "low": low, "high": high},
            field=name,
        )
    return number


def _clock(data: Mapping[str, Any], name: str, default: str) -> int:
    value = str(data.get(name) or default).strip()
    match = _CLOCK.match(value)
    if not match:
        raise PlanningError(
            _("%(value)r is not a time of day: write it as HH:MM, e.g. 09:00.") % {"value": value},
            field=name,
        )
    return int(match.group(1)) * 60 + int(match.group(2))


def _choices(data: Mapping[str, Any], name: str, low: int, high: int, *, odd: bool = False) -> list:
    raw = data.get(name)
    if raw in (None, "", []):
        raise PlanningError(_("Choose at least one value."), field=name)
    if isinstance(raw, str):
        raw = [part for part in re.split(r"[,\s]+", raw) if part]
    if not isinstance(raw, list | tuple):
        raw = [raw]
    out: list[int] = []
    for value in raw:
        number = _whole({name: value}, name, low, high, None)
        if odd and number % 2 == 0:
            raise PlanningError(
                _("Best of %(games)s: a match is best of an odd number of games.")
                % {"games": number},
                field=name,
            )
        if number not in out:
            out.append(number)
    return out


def busiest_category(tournament: Tournament) -> Category | None:
    """The category with most active entries (the first by name when none has any)."""
    return (
        tournament.categories.annotate(n=Count("entries", filter=Q(entries__withdrawn=False)))
        .order_by("-n", "name")
        .first()
    )


def own_format(category: Category | None) -> tuple[int | None, int | None, int | None]:
    """The category's own preliminary games, entries to the playoffs and playoff best of,
    from its stages (None where it has none)."""
    if category is None:
        return None, None, None
    stages = list(category.stages.exclude(kind=Stage.Kind.SHOOTOUT).order_by("order"))
    prelim = next((s for s in stages if s.kind == Stage.Kind.PRELIMINARY), None)
    ko = next((s for s in stages if s.kind == Stage.Kind.KNOCKOUT), None)
    return (
        prelim.games_per_entry if prelim else None,
        prelim.advance_count if prelim and ko else None,
        ko.best_of if ko else None,
    )


def _clock_of(category: Category | None, tournament: Tournament) -> int | None:
    """The game clock a plan starts from: the category's own, as play decides it
    (``Category.time_limit_minutes``: none for the family rulebook's systems unless set)."""
    return category.time_limit_minutes() if category else tournament.game_minutes


def defaults(tournament: Tournament) -> dict[str, Any]:
    """What the form starts from: the busiest category, its active entries, the boards in
    service, the tournament's game time, and its own format beside the alternatives."""
    category = busiest_category(tournament)
    prelim, playoff, best_of = own_format(category)
    entries = category.entries.filter(withdrawn=False).count() if category else 0
    return {
        "category": category.pk if category else None,
        "entries": entries or None,
        "boards": tournament.boards.filter(in_service=True).count() or None,
        "day_start": "09:00",
        "day_end": "18:00",
        "game_minutes": _clock_of(category, tournament),
        "break_minutes": 5,
        "prelim_games": sorted({*(p for p in (prelim,) if p), *PRELIM_CHOICES}),
        "playoffs": sorted({*(p for p in (playoff,) if p), *PLAYOFF_CHOICES}),
        "best_of": sorted({*(b for b in (best_of,) if b and b % 2), *BEST_OF_CHOICES}),
        "repetitions": DEFAULT_REPETITIONS,
    }


def check_options(tournament: Tournament, data: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a run, checked: raises ``PlanningError`` naming the field at fault."""
    category = None
    category_id = data.get("category")
    if category_id not in (None, ""):
        try:
            category = tournament.categories.get(pk=int(category_id))
        except (TypeError, ValueError, Category.DoesNotExist):
            raise PlanningError(
                _("%(tournament)s has no category %(value)r.")
                % {"tournament": tournament, "value": category_id},
                field="category",
            ) from None
    else:
        category = busiest_category(tournament)
    registered = category.entries.filter(withdrawn=False).count() if category else 0
    entries = _whole(data, "entries", 2, MAX_ENTRIES, registered or None)
    if entries is None:
        raise PlanningError(
            _("No entries are registered yet: say how many you expect."), field="entries"
        )
    entries = max(entries, registered) if data.get("entries") in (None, "") else entries
    boards_default = tournament.boards.filter(in_service=True).count() or None
    boards = _whole(data, "boards", 1, MAX_BOARDS, boards_default)
    if boards is None:
        raise PlanningError(_("Say how many boards are in play."), field="boards")
    start = _clock(data, "day_start", "09:00")
    end = _clock(data, "day_end", "18:00")
    if end <= start:
        raise PlanningError(
            _("The latest acceptable end must come after the start of the day."), field="day_end"
        )
    options = {
        "category": category.pk if category else None,
        "entries": entries,
        "registered": min(registered, entries),
        "boards": boards,
        "day_start": start,
        "day_end": end,
        "game_minutes": _whole(data, "game_minutes", 1, 180, _clock_of(category, tournament)),
        "break_minutes": _whole(data, "break_minutes", 0, 120, 5),
        "prelim_games": _choices(data, "prelim_games", 0, 30),
        "playoffs": _choices(data, "playoffs", 0, 256),
        "best_of": _choices(data, "best_of", 1, 9, odd=True),
        "repetitions": _whole(data, "repetitions", 20, 2000, DEFAULT_REPETITIONS),
    }
    for name, values, most in (
        ("prelim_games", options["prelim_games"], entries - 1),
        ("playoffs", options["playoffs"], entries),
    ):
        for value in values:
            if value > most or value == 1:
                raise PlanningError(
                    _("%(value)s is too many for %(entries)s entries.")
                    % {"value": value, "entries": entries}
                    if value > most
                    else _("A playoff needs at least 2 entries (0: no playoffs)."),
                    field=name,
                )
    formats = forecast.formats_of(options["prelim_games"], options["playoffs"], options["best_of"])
    if not any(f.prelim_games or f.playoff for f in formats):
        raise PlanningError(
            _("Choose preliminary games or playoffs: a format needs one or the other."),
            field="prelim_games",
        )
    if len(formats) > MAX_FORMATS:
        raise PlanningError(
            _("%(count)s formats to compare: choose at most %(most)s.")
            % {"count": len(formats), "most": MAX_FORMATS},
            field="prelim_games",
        )
    return options


def create_run(tournament: Tournament, data: Mapping[str, Any], user: Any = None) -> PlanningRun:
    """A queued planning run of the checked options (``PlanningError`` before anything is
    written)."""
    options = check_options(tournament, data)
    return PlanningRun.objects.create(
        tournament=tournament,
        options=options,
        total=len(_formats(options)),
        phase=_("Waiting for a worker"),
        requested_by=user
        if user is not None and getattr(user, "is_authenticated", False)
        else None,
    )


def _formats(options: Mapping[str, Any]) -> list[forecast.Format]:
    return [
        f
        for f in forecast.formats_of(
            options["prelim_games"], options["playoffs"], options["best_of"]
        )
        if f.prelim_games or f.playoff
    ]


# --- the field -----------------------------------------------------------------------------------


def shot_seconds(levels: np.ndarray) -> np.ndarray:
    """Mean seconds a shot takes at each level of 20s per game: timed play's seconds of the
    named levels (:data:`simulation.game.SHOT_SECONDS`), placed at the 20s per game each level
    makes (:data:`simulation.players.estimate.TWENTIES_PER_GAME`) and interpolated between them
    (held at the ends)."""
    from simulation.players.estimate import TWENTIES_PER_GAME

    anchors = sorted(
        (TWENTIES_PER_GAME[name], SHOT_SECONDS.get(name, DEFAULT_SHOT_SECONDS))
        for name in TWENTIES_PER_GAME
    )
    xs = np.array([a for a, _s in anchors])
    ys = np.array([s for _a, s in anchors])
    return np.interp(np.asarray(levels, dtype=float), xs, ys)


def field_of(tournament: Tournament, options: Mapping[str, Any]) -> forecast.Field:
    """The entries as the forecast plays them: each registered entry at the level its preview
    profile gives it (a team at its partners' mean), the rest of the planned count at the
    category's level."""
    from simulation.outcomes.levels import level_of
    from simulation.services.profiles import category_level, entry_players

    category = tournament.categories.filter(pk=options.get("category")).first()
    means: list[float] = []
    spreads: list[float] = []
    kind = "singles"
    default = "competitive"
    if category is not None:
        kind = category.kind
        default = category_level(category)
        entries = list(category.entries.filter(withdrawn=False).order_by("pk"))
        for players in entry_players(entries, category).values():
            pairs = [level_of(spec) for spec in players.players]
            means.append(float(np.mean([m for m, _s in pairs])))
            spreads.append(float(np.mean([s for _m, s in pairs])))
    mean, spread = level_of(default)
    missing = max(int(options["entries"]) - len(means), 0)
    means = means[: int(options["entries"])] + [mean] * missing
    spreads = spreads[: int(options["entries"])] + [spread] * missing
    levels = np.array(means)
    return forecast.Field(levels, np.array(spreads), shot_seconds(levels), kind)


def sampler_for(kind: str) -> tuple[forecast.Sampler, str]:
    """The outcome model's sampler of ``kind``, or the logistic stand-in when its table was
    never tabulated; and which one, for the result page."""
    try:
        from simulation.outcomes.table import load_table

        return forecast.table_sampler(load_table(kind)), "outcome-table"
    except (FileNotFoundError, ValueError, OSError, ImportError, KeyError):
        return forecast.logistic_sampler(), "stand-in"


# --- the work ------------------------------------------------------------------------------------


def run_plan(run_id: int) -> None:
    """Work out a queued run's forecast and store it; a failure is stored in words. A second
    delivery of the task finds the run moved on and does nothing."""
    with transaction.atomic():
        run = background.locked(PlanningRun, run_id, Status.QUEUED)
        if run is None:
            return
        run.status = Status.RUNNING
        run.phase = _("Reading the entries")
        run.save(update_fields=["status", "phase"])
    began = time.monotonic()
    try:
        result = _work(run)
    except Exception as exc:  # stored for the organizer; the worker goes on
        PlanningRun.objects.filter(pk=run_id).update(
            status=Status.FAILED, error=background.error_message(exc), finished_at=timezone.now()
        )
        return
    result["wall_s"] = round(time.monotonic() - began, 2)
    PlanningRun.objects.filter(pk=run_id, status=Status.RUNNING).update(
        status=Status.DONE,
        result=result,
        done=run.total,
        phase="",
        finished_at=timezone.now(),
    )


def _work(run: PlanningRun) -> dict[str, Any]:
    options = run.options
    entries = field_of(run.tournament, options)
    sampler, model = sampler_for(entries.kind)
    day = forecast.Day(
        boards=int(options["boards"]),
        start=float(options["day_start"]),
        end=float(options["day_end"]),
        game_minutes=(None if options["game_minutes"] is None else float(options["game_minutes"])),
        break_minutes=float(options["break_minutes"]),
    )
    formats = _formats(options)
    out = []
    for number, fmt in enumerate(formats):
        PlanningRun.objects.filter(pk=run.pk).update(
            done=number,
            total=len(formats),
            phase=_("Format %(number)s of %(count)s")
            % {"number": number + 1, "count": len(formats)},
        )
        played = forecast.forecast(
            entries,
            fmt,
            day,
            sampler=sampler,
            repetitions=int(options["repetitions"]),
            seed=run.pk,
        )
        out.append(forecast.summarise(played, day))
    return {
        "formats": out,
        "model": model,
        "kind": entries.kind,
        "entries": entries.size,
        "mean_level": round(float(entries.levels.mean()), 2),
    }


def refuse_unknown(run: PlanningRun | None) -> PlanningRun:
    """The run, or refused as not found."""
    if run is None:
        raise Refused(_("No such planning run."), kind=Kind.NOT_FOUND)
    return run
