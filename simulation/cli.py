"""The simulation's command line: JSON in, JSON out.

    python -m simulation shot FILE|-     one shot: {"state": ..., "shot": ..., "rules": "nca",
                                         "seed": null} -> the outcome
    python -m simulation round FILE|-    a scripted round: {"shots": [...], "seats": ...,
                                         "discs_per_player": ..., "rules": ..., "first_seat": ...,
                                         "seed": ...} -> the round record
    python -m simulation game FILE|-     a game by AI players: {"players": ["best", "novice"],
                                         "rules": "nca", "seed": 1, "rounds": 4,
                                         "playoff": false, "discs_per_player": ...,
                                         "first_seat": ..., "scoring": ..., "target": ...,
                                         "three_player": ..., "time_limit": ...,
                                         "shot_seconds": ...} -> the game record

``round`` and ``game`` take the rules of play as options too, which stand in for the same keys of
the JSON: ``--time-limit MINUTES`` (the game clock; for a round, the time left when it begins),
``--scoring SYSTEM`` (``nca``, ``difference-to-100``, ``match-play-to-8``, ``three-player`` or
``first-to-N`` with ``--target N``; a round then gives the system's points for its board) and
``--two-v-one`` (the family rulebook's three-player game, Option One: seats 0 and 2 partners, seat
1 alone).

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
ROUND_KEYS = (
    "shots",
    "seats",
    "discs_per_player",
    "rules",
    "first_seat",
    "seed",
    "first_turn",
    "time_limit",
    "shot_seconds",
    "scoring",
    "target",
)
GAME_KEYS = (
    "players",
    "rules",
    "seed",
    "rounds",
    "playoff",
    "discs_per_player",
    "first_seat",
    "scoring",
    "target",
    "three_player",
    "time_limit",
    "shot_seconds",
)

#: Option One of the family rulebook's three-player game: the partners at seats 0 and 2.
TWO_V_ONE_SEATS = {"0": 0, "1": 1, "2": 0}


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


def _system(scoring: Any, target: Any) -> Any:
    """The scoring engine's system of that name (``first-to-N`` with ``target``)."""
    from scoring.engine import EngineInputError, GameRules

    if not isinstance(scoring, str):
        raise InputError(
            _("scoring must be the name of a scoring system, not %(scoring)r")
            % {"scoring": scoring}
        )
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or target < 1
    ):
        raise InputError(
            _("target must be a whole number of at least 1, not %(target)r") % {"target": target}
        )
    try:
        return GameRules(system=scoring, target=target).scoring_system()
    except EngineInputError as error:
        raise InputError(str(error)) from None


def _round(data: Any) -> dict[str, Any]:
    from simulation.api import run_round  # on first use: it loads the compiled physics

    args = _object(data, ROUND_KEYS, ("shots",))
    system = None
    if args.get("scoring") is not None:
        system = _system(args["scoring"], args.get("target"))
    options: dict[str, Any] = {}
    for key in ("first_turn", "time_limit", "shot_seconds"):
        if args.get(key) is not None:
            options[key] = args[key]
    result = run_round(
        args["shots"],
        seats=args.get("seats"),
        discs_per_player=args.get("discs_per_player"),
        rules=args.get("rules") or "nca",
        first_seat=args.get("first_seat"),
        seed=args.get("seed"),
        **options,
    )
    if system is not None:
        sides = len(result["score"])
        if system.sides != sides:
            raise InputError(
                _("%(scoring)s is played by %(needed)s sides; this round has %(sides)s")
                % {"scoring": system.name, "needed": system.sides, "sides": sides}
            )
        shot = any(entry for entry in result.get("shots", ()))
        result["scoring"] = system.name
        result["points"] = list(system.round_points(result["score"])) if shot else [0] * sides
    return result


def _game(data: Any) -> dict[str, Any]:
    from simulation.game import GAME_ROUNDS, play_game  # on first use: loads the physics

    args = _object(data, GAME_KEYS, ("players",))
    options: dict[str, Any] = {}
    keys = ("discs_per_player", "first_seat", "scoring", "target", "three_player", "time_limit")
    for key in (*keys, "shot_seconds"):
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


def _minutes(text: str) -> float:
    """``--time-limit``: a positive number of minutes."""
    from simulation.rules.timing import check_time_limit

    try:
        return check_time_limit(float(text))  # type: ignore[return-value]
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("the time limit must be a positive number of minutes, not %(text)r") % {"text": text}
        ) from None


def _scoring_name(text: str) -> str:
    """``--scoring``: a scoring system the engine knows (``first-to-N`` takes ``--target``)."""
    from scoring.engine.systems import SYSTEMS

    if text in SYSTEMS or text.startswith("first-to-"):
        return text
    raise argparse.ArgumentTypeError(
        _("unknown scoring system %(text)r; known: %(known)s")
        % {"text": text, "known": ", ".join(sorted(SYSTEMS))}
    )


def _target(text: str) -> int:
    """``--target``: the N of first-to-N, a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            _("the target must be a whole number of at least 1, not %(text)r") % {"text": text}
        )
    return value


def _add_play_options(sub: argparse.ArgumentParser) -> None:
    """The rules-of-play options of ``round`` and ``game``."""
    sub.add_argument(
        "--time-limit",
        type=_minutes,
        metavar="MINUTES",
        help=_("the game clock in minutes (a round: the time left when it begins)"),
    )
    sub.add_argument(
        "--scoring",
        type=_scoring_name,
        metavar="SYSTEM",
        help=_(
            "the scoring system: nca, difference-to-100, match-play-to-8, three-player, "
            "first-to-N (with --target)"
        ),
    )
    sub.add_argument(
        "--target", type=_target, metavar="N", help=_("the N of first-to-N (points to reach)")
    )
    sub.add_argument(
        "--two-v-one",
        action="store_true",
        help=_("three players, two versus one (family rulebook, Option One)"),
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: one subcommand per entry of ``COMMANDS``."""
    parser = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (_run, summary) in COMMANDS.items():
        sub = commands.add_parser(name, help=_(summary), description=_(summary))
        sub.add_argument("file", help="JSON input file, or - for standard input")
        sub.add_argument("--indent", type=int, default=None, help="indent the JSON output")
        if name in ("round", "game"):
            _add_play_options(sub)
    return parser


def _with_options(command: str, args: argparse.Namespace, data: Any) -> Any:
    """The JSON input with the command line's rules of play in place of the same keys."""
    if command not in ("round", "game") or not isinstance(data, Mapping):
        return data
    data = dict(data)
    if args.time_limit is not None:
        data["time_limit"] = args.time_limit
    if args.scoring is not None:
        data["scoring"] = args.scoring
    if args.target is not None:
        data["target"] = args.target
    if args.two_v_one:
        if command == "game":
            players = data.get("players")
            if not isinstance(players, list) or len(players) != 3:
                raise InputError(
                    _("--two-v-one is a game of three players: give three in players, not %(n)s")
                    % {"n": len(players) if isinstance(players, list) else players}
                )
            data["three_player"] = "two-v-one"
        else:
            seats = data.get("seats")
            given = {str(k): v for k, v in seats.items()} if isinstance(seats, Mapping) else seats
            if seats is not None and given != TWO_V_ONE_SEATS:
                raise InputError(
                    _(
                        "--two-v-one seats the partners at 0 and 2 and seat 1 alone; the input's "
                        "seats %(seats)s say otherwise"
                    )
                    % {"seats": seats}
                )
            data["seats"] = dict(TWO_V_ONE_SEATS)
    scoring = data.get("scoring")
    if data.get("target") is not None and scoring in (None, "nca"):
        raise InputError(
            _("target is the points a game is played to; an NCA game has rounds, not a target")
        )
    if scoring == "first-to-N" and data.get("target") is None:
        raise InputError(_("first-to-N needs its target N (--target N)"))
    return data


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
        result = run(_with_options(args.command, args, _read_json(args.file, stdin)))
    except (InputError, ValueError) as error:
        print(_error(f"{PROG} {args.command}", error), file=stderr)
        return EXIT_BAD_INPUT
    json.dump(result, stdout, indent=args.indent, allow_nan=False)
    stdout.write("\n")
    return 0
