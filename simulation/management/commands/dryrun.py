"""``python manage.py dryrun``: play a whole event with simulated players and report on it.

With Celery eager (no REDIS_URL) the dry run is played in this process; with a broker it goes
to the workers and this command follows its progress until it is done (``--no-wait`` returns at
once). The result page is printed at the end.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse
from django.utils.translation import gettext as _

from config.celery import QueueUnreachable, publish
from simulation.models import DryRun, Status
from simulation.presets import DEFAULT_PRESET, PRESETS
from simulation.services import dryrun, runs
from simulation.tasks import run_dry_run
from tournaments.models import Tournament


class Command(BaseCommand):
    @property
    def help(self) -> str:  # type: ignore[override]
        # Built when asked for: argparse wants a plain string, not a lazy translation.
        return _(
            "Dry-run a tournament: a copy of the event is played to the end by simulated "
            "players, through the scorecard workflow, and the time on the boards and "
            "statistics are printed."
        )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--preset",
            choices=sorted(PRESETS),
            help=f"the format (default {DEFAULT_PRESET}; with --tournament: its own stages)",
        )
        parser.add_argument(
            "--players", type=int, help="size of the generated field (players, or teams)"
        )
        parser.add_argument("--boards", type=int, help="boards in play (default: half the field)")
        parser.add_argument("--seed", type=int, default=None, help="seed for a repeatable run")
        parser.add_argument(
            "--tournament", help="slug of a tournament whose registered players are rehearsed"
        )
        parser.add_argument("--category", help="its category (default: the one with most entries)")
        parser.add_argument(
            "--no-wait", action="store_true", help="with a broker: return once it is queued"
        )
        parser.add_argument(
            "--timeout", type=int, default=3600, help="seconds to wait for workers (default 3600)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        source = None
        category = None
        if opts["tournament"]:
            source = Tournament.objects.filter(slug=opts["tournament"]).first()
            if source is None:
                raise CommandError(
                    _("No tournament has the slug %(slug)r.") % {"slug": opts["tournament"]}
                )
            if opts["category"]:
                category = source.categories.filter(name=opts["category"]).first()
                if category is None:
                    names = ", ".join(source.categories.values_list("name", flat=True))
                    raise CommandError(
                        _("%(tournament)s has no category %(category)r; it has: %(names)s.")
                        % {"tournament": source.name, "category": opts["category"], "names": names}
                    )
        try:
            dry = dryrun.create_dry_run(
                source=source,
                category=category,
                preset=opts["preset"],
                entries=opts["players"],
                boards=opts["boards"],
                seed=opts["seed"],
                generated=bool(source is not None and opts["players"]),
            )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        self.stdout.write(
            _(
                "Dry run %(number)s: %(format)s, %(entries)s entries, %(boards)s boards, seed "
                "%(seed)s."
            )
            % {
                "number": dry.pk,
                "format": dry.preset or _("own stages"),
                "entries": dry.entries,
                "boards": dry.boards,
                "seed": dry.seed,
            }
        )
        started = time.monotonic()
        try:
            publish(lambda: run_dry_run.delay(dry.pk))
        except QueueUnreachable as exc:
            # Failed with the reason, as the page does: nothing is left "queued" for no worker.
            runs.fail_dry_run(dry.pk, str(exc))
            raise CommandError(str(exc)) from None
        if opts["no_wait"]:
            self.stdout.write(_("Queued for the workers."))
            return
        dry = self._wait(dry.pk, opts["timeout"], started)
        if dry.status == Status.FAILED:
            raise CommandError(_("The dry run failed: %(error)s") % {"error": dry.error})
        self._report(dry, time.monotonic() - started)

    def _wait(self, pk: int, timeout: int, started: float) -> DryRun:
        shown = ""
        while True:
            dry = DryRun.objects.select_related("run", "copy").get(pk=pk)
            if dry.status in (Status.DONE, Status.FAILED):
                return dry
            run = dry.run
            line = ""
            if run:
                line = "  " + _("%(played)s/%(expected)s games, %(phase)s") % {
                    "played": run.games_played,
                    "expected": run.games_expected,
                    "phase": run.phase,
                }
            if line and line != shown:
                self.stdout.write(line)
                shown = line
            if time.monotonic() - started > timeout:
                raise CommandError(
                    _(
                        "Dry run %(number)s is not finished after %(timeout)s s; is a Celery "
                        "worker running? Its page shows the progress."
                    )
                    % {"number": pk, "timeout": timeout}
                )
            time.sleep(1)

    def _report(self, dry: DryRun, wall: float) -> None:
        summary = dry.summary or {}
        timing = summary.get("time", {})
        overall = summary.get("stats", {}).get("overall", {})
        self.stdout.write(
            self.style.SUCCESS(
                _("%(tournament)s: done in %(seconds).1f s.")
                % {"tournament": dry.copy.name, "seconds": wall}
            )
        )
        self.stdout.write("  " + _("games played: %(games)s") % {"games": summary.get("games", 0)})
        for stage in timing.get("stages", []):
            self.stdout.write(
                "  "
                + _(
                    "%(stage)s: %(rounds)s rounds, %(games)s games, %(minutes)s min on "
                    "%(boards)s boards"
                )
                % {
                    "stage": stage["stage"],
                    "rounds": len(stage["rounds"]),
                    "games": stage["games"],
                    "minutes": stage["minutes"],
                    "boards": timing["boards"],
                }
            )
        self.stdout.write(
            "  "
            + _("the event would take about %(hours).1f h (%(game_minutes)s-minute games)")
            % {"hours": timing.get("minutes", 0) / 60, "game_minutes": timing.get("game_minutes")}
        )
        if overall:
            self.stdout.write(
                "  "
                + _(
                    "20s per player per round %(per_round).2f, per game (both sides) "
                    "%(per_game).2f; open-20 rate %(open20).0f%%; tied rounds %(tied).0f%%; "
                    "rounds cut by the buzzer %(cut)s (%(game_minutes)s-minute games)"
                )
                % {
                    "per_round": overall["twenties_per_player_round"],
                    "per_game": overall["twenties_per_game"],
                    "open20": 100 * overall["open20_rate"],
                    "tied": 100 * overall["tied_share"],
                    "cut": overall["rounds_cut_short"],
                    "game_minutes": timing.get("game_minutes"),
                }
            )
        slug = dry.source.slug if dry.source else dry.copy.slug
        url = reverse("simulation:dry_run", args=[slug, dry.pk])
        self.stdout.write("  " + _("result: %(url)s") % {"url": url})
