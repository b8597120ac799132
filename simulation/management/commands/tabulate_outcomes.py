"""``python manage.py tabulate_outcomes``: tabulate the outcome model's tables from the physics.

Run after a change of physics or players (the outcome tables' test says so: their digest is no
longer the one the seeded-games test pins). The digest is read from that test module's text
(``SEEDED_GAMES_SHA256`` in tests/simulation/test_game.py), parsed rather than imported, so that
the command loads no test machinery and the value has a single home: the test that pins play.
"""

from __future__ import annotations

import ast
import os
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from simulation.outcomes.table import KINDS, save_table, table_path
from simulation.outcomes.tabulate import (
    DEFAULT_GAMES_PER_CELL,
    DOUBLES_LEVELS,
    SINGLES_LEVELS,
    check_grid,
    tabulate,
)

DIGEST_MODULE = Path("tests") / "simulation" / "test_game.py"
DIGEST_NAME = "SEEDED_GAMES_SHA256"


def pinned_digest(base: Path) -> str:
    """The seeded-games digest the test pins, read from the test module's source."""
    path = base / DIGEST_MODULE
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CommandError(
            _("cannot read the pinned physics digest from %(path)s: %(error)s")
            % {"path": path, "error": error}
        ) from None
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == DIGEST_NAME for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    raise CommandError(_("%(path)s pins no %(name)s string") % {"path": path, "name": DIGEST_NAME})


class Command(BaseCommand):
    @property
    def help(self) -> str:  # type: ignore[override]
        return _(
            "Tabulate the outcome model from the physics: simulated games at every pair of "
            "20s-per-game levels of a grid, stored in simulation/outcomes/data/."
        )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--kind", default="singles", help="singles, doubles or all")
        parser.add_argument(
            "--games-per-cell",
            type=int,
            default=None,
            help=f"games per pair of levels (default {DEFAULT_GAMES_PER_CELL})",
        )
        parser.add_argument(
            "--levels",
            type=float,
            nargs="+",
            default=None,
            help="the grid of 20s-per-game levels, ascending (default: the kind's own)",
        )
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--output-dir",
            default=None,
            help="where to write the tables (default: the package's own, which the app reads)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        kind = opts["kind"]
        if kind not in (*KINDS, "all"):
            raise CommandError(
                _("--kind must be singles, doubles or all, not %(kind)r") % {"kind": kind},
                returncode=2,
            )
        kinds = KINDS if kind == "all" else (kind,)
        games = opts["games_per_cell"]
        if games is not None and not 1 <= games <= 10_000:
            raise CommandError(
                _("--games-per-cell must be from 1 to 10000, not %(n)s") % {"n": games},
                returncode=2,
            )
        if not 1 <= opts["workers"] <= 256:
            raise CommandError(
                _("--workers must be from 1 to 256, not %(n)s") % {"n": opts["workers"]},
                returncode=2,
            )
        if opts["seed"] < 0:
            raise CommandError(
                _("--seed must be 0 or more, not %(n)s") % {"n": opts["seed"]}, returncode=2
            )
        if opts["levels"] is not None:
            try:
                check_grid(opts["levels"])
            except ValueError as error:
                raise CommandError(f"--levels: {error}", returncode=2) from None
        digest = pinned_digest(Path(settings.BASE_DIR))
        for one in kinds:
            levels = opts["levels"] or (SINGLES_LEVELS if one == "singles" else DOUBLES_LEVELS)
            per_cell = games or DEFAULT_GAMES_PER_CELL[one]
            started = time.monotonic()
            self.stdout.write(
                _("%(kind)s: %(cells)s cells x %(games)s games, %(workers)s workers")
                % {
                    "kind": one,
                    "cells": len(levels) ** 2,
                    "games": per_cell,
                    "workers": opts["workers"],
                }
            )

            def progress(done: int, cells: int, started: float = started) -> None:
                if done == cells or done % max(1, cells // 20) == 0:
                    self.stdout.write(
                        _("  %(done)s/%(cells)s cells, %(seconds).0f s")
                        % {"done": done, "cells": cells, "seconds": time.monotonic() - started}
                    )
                    self.stdout.flush()

            table = tabulate(
                one,
                levels,
                per_cell,
                physics_digest=digest,
                workers=opts["workers"],
                seed=opts["seed"],
                progress=progress,
            )
            out = None if opts["output_dir"] is None else Path(opts["output_dir"])
            path = save_table(table, None if out is None else out / table_path(one).name)
            self.stdout.write(
                _("%(kind)s: written to %(path)s in %(seconds).0f s")
                % {"kind": one, "path": path, "seconds": time.monotonic() - started}
            )
