"""The simulation's command line: JSON in, JSON out.

    python -m simulation shot FILE|-     one shot: {"state": ..., "shot": ..., "rules": "nca",
                                         "seed": null} -> the outcome
    python -m simulation round FILE|-    a scripted round: {"shots": [...], "seats": ...,
                                         "discs_per_player": ..., "rules": ..., "first_seat": ...,
                                         "seed": ...} -> the round record
    python -m simulation game FILE|-     a game by AI players: {"players": ["best", "novice"],
                                         "rules": "nca", "seed": 1, "rounds": 4,
                                         "playoff": false, "discs_per_player": ...,
                                         "first_seat": ...} -> the game record

``-`` reads standard input. The result goes to standard output (exit 0); bad input — unreadable
file, malformed JSON, an illegal shot, a shot out of turn — gets a clear message on standard error
and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from tournaments.translation import _, gettext_noop

EXIT_BAD_INPUT = 2

PROG = "python -m simulation"  # untranslated: the command people type

SHOT_KEYS = ("state", "shot", "rules", "seed")
ROUND_KEYS = ("shots", "seats", "discs_per_player", "rules", "first_seat", "seed")
GAME_KEYS = ("players", "rules", "seed", "rounds", "playoff", "discs_per_player", "first_seat")


class InputError(Exception):
    """Input the command cannot use; the message says why."""


def _error(prog: str, message: object) -> str:
    """The line that reports bad input, as argparse words it."""
    return _("%(prog)s: error: %(message)s") % {"prog": prog, "message": message}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # exit 2 with the usage, as argparse does
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, _error(self.prog, message) + "\n")


def _read_json(source: str, stdin: TextIO) -> Any:
    try:
        if source == "-":
            text = stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise InputError(
            _("cannot read %(source)s: %(error)s")
            % {"source": source, "error": error.strerror or error}
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = _("standard input") if source == "-" else source
        raise InputError(
            _("%(where)s is not valid JSON: %(error)s at line %(line)s column %(column)s")
            % {"where": where, "error": error.msg, "line": error.lineno, "column": error.colno}
        ) from None


def _object(data: Any, keys: Sequence[str], required: Sequence[str]) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise InputError(
            _("the input must be a JSON object with the keys %(keys)s") % {"keys": list(keys)}
        )
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise InputError(
            _("unknown keys %(unknown)s: the keys are %(keys)s")
            % {"unknown": unknown, "keys": list(keys)}
        )
    missing = [key for key in required if key not in data]
    if missing:
        raise InputError(_("missing %(keys)s") % {"keys": missing})
    return data


def _shot(data: Any) -> dict[str, Any]:
    from simulation.api import simulate_shot  # on first use: it loads the compiled physics

    args = _object(data, SHOT_KEYS, ("shot",))
    return simulate_shot(
        args.get("state"),
        args["shot"],
        rules=args.get("rules") or "nca",
        seed=args.get("seed"),
    )


def _round(data: Any) -> dict[str, Any]:
    from simulation.api import run_round  # on first use: it loads the compiled physics

    args = _object(data, ROUND_KEYS, ("shots",))
    return run_round(
        args["shots"],
        seats=args.get("seats"),
        discs_per_player=args.get("discs_per_player"),
        rules=args.get("rules") or "nca",
        first_seat=args.get("first_seat"),
        seed=args.get("seed"),
    )


def _game(data: Any) -> dict[str, Any]:
    from simulation.game import GAME_ROUNDS, play_game  # on first use: loads the physics

    args = _object(data, GAME_KEYS, ("players",))
    options: dict[str, Any] = {}
    for key in ("discs_per_player", "first_seat"):
        if args.get(key) is not None:
            options[key] = args[key]
    return play_game(
        args["players"],
        rules=args.get("rules") or "nca",
        seed=args.get("seed"),
        rounds=GAME_ROUNDS if args.get("rounds") is None else args["rounds"],
        playoff=False if args.get("playoff") is None else args["playoff"],
        **options,
    )


COMMANDS: dict[str, tuple[Callable[[Any], dict[str, Any]], str]] = {
    "shot": (_shot, gettext_noop("simulate one shot and rule on it")),
    "round": (_round, gettext_noop("play a scripted round and count it")),
    "game": (_game, gettext_noop("play a game between AI players")),
}
"""Each subcommand's function and summary (in English: the parser shows it translated)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: one subcommand per entry of ``COMMANDS``."""
    parser = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (_run, summary) in COMMANDS.items():
        sub = commands.add_parser(name, help=_(summary), description=_(summary))
        sub.add_argument("file", help="JSON input file, or - for standard input")
        sub.add_argument("--indent", type=int, default=None, help="indent the JSON output")
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    args = build_parser().parse_args(argv)
    run, _summary = COMMANDS[args.command]
    try:
        result = run(_read_json(args.file, stdin))
    except (InputError, ValueError) as error:
        print(_error(f"{PROG} {args.command}", error), file=stderr)
        return EXIT_BAD_INPUT
    json.dump(result, stdout, indent=args.indent, allow_nan=False)
    stdout.write("\n")
    return 0
