"""Long work. The simulation's (``simulation.actions``): starting a dry run, auto-play or a
match's preview, sending a run or a dry run again, and stopping any of them, are the
tournament's organizers' and co-organizers'. A round's scorecards as one PDF batch, and that
batch printed again (``scoring.printing.actions``): the organizers, the scoring table and the
head referee. Both whether they play or not: no game is ruled on."""

from __future__ import annotations

from scoring.printing.actions import PrintBatch, RoundOfPlay
from scoring.printing.batch import BatchState
from simulation.actions import Work
from simulation.models import AutoPlay, DryRun, MatchPreview, Status

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})
PRINTERS = frozenset(
    {
        "organizer",
        "co-organizer",
        "scoring-table",
        "head-referee",
        "organizer-who-plays",
        "head-referee-who-plays",
        "scoring-table-who-plays",
        "head-referee-opponent",
    }
)


def _run(world, status: str) -> Work:
    """An auto-play run of the world's stage in ``status``."""
    return Work(
        AutoPlay.objects.create(
            tournament=world.tournament,
            category=world.stage.category,
            scope=AutoPlay.Scope.STAGE,
            stage=world.stage,
            status=status,
        )
    )


def _dry_run(world, status: str) -> Work:
    """A dry run of the world's tournament in ``status``, its copy not built yet."""
    return Work(DryRun.objects.create(source=world.tournament, entries=4, boards=2, status=status))


def _preview(world, status: str) -> Work:
    return Work(MatchPreview.objects.create(match=world.game.match, players={}, status=status))


def _round(world) -> RoundOfPlay:
    """The round of play of the world's game, which has matches."""
    return RoundOfPlay(world.stage, world.game.match.round_of_play)


ROWS = {
    "scoring.print_round": Row(PRINTERS, _round),
    # a batch that failed (or stalled) is printed again
    "scoring.print_round_again": Row(
        PRINTERS,
        lambda world: PrintBatch(_round(world), "batch-id", BatchState("failed", message="gone")),
    ),
    "simulation.start_dry_run": Row(ORGANIZERS, lambda world: world.tournament),
    "simulation.start_autoplay": Row(ORGANIZERS, lambda world: world.tournament),
    "simulation.start_preview": Row(ORGANIZERS, lambda world: world.game.match),
    # Retry: a run or a dry run that failed (or stalled)
    "simulation.retry_autoplay": Row(ORGANIZERS, lambda world: _run(world, Status.FAILED)),
    "simulation.retry_dry_run": Row(ORGANIZERS, lambda world: _dry_run(world, Status.FAILED)),
    # Stop: work under way
    "simulation.stop_autoplay": Row(ORGANIZERS, lambda world: _run(world, Status.RUNNING)),
    "simulation.stop_dry_run": Row(ORGANIZERS, lambda world: _dry_run(world, Status.QUEUED)),
    "simulation.stop_preview": Row(ORGANIZERS, lambda world: _preview(world, Status.RUNNING)),
}
