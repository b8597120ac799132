"""Forms for the scorecard pages.

They only turn what a person typed into the plain data the scorecard services take; the rules of
the game (2-1-0, 20s within the discs, board scores in fives) are checked once, by the services
and the scoring engine, so a form and the API can never disagree about what is possible. What
the forms do check is what only a form can know: that a box holds a whole number, that a round is
complete, that a ticked "time expired" box does not sit next to typed points.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engine import (
    EngineInputError,
    GameRules,
    judge_row,
    points_from_winner,
    round_lines,
    round_winner,
)
from scoring.engine.rounds import DIFFERENCE
from scoring.results.rules import game_rules
from scoring.scorecards.services import ScorecardError
from tournaments.models import Game, Match, Stage, Tournament

SIDES = ("own", "opp")
#: The boxes of a three-player game (family rulebook, Option Two): the card owner, then the two
#: others in the match's order.
THREE_SIDES = ("own", "opp", "opp2")
NUMBERS = ("points", "twenties", "score")
#: A game scored by the difference of the board scores (family rulebook, Scoring 5) is written
#: with both board scores; its points follow from them, so it has no points boxes.
DIFFERENCE_NUMBERS = ("score", "twenties")
ROUND_FIELD = re.compile(r"^r(\d+)_")
#: A bound form takes at most this many round lines, whatever is posted.
MOST_ROUND_LINES = 40
WHAT = {
    "points": gettext_lazy("points"),
    "twenties": gettext_lazy("20s"),
    "score": gettext_lazy("board score"),
}
#: The answers to "who won the round?" on a two-sided card, and the side each one names (the
#: engine turns the side into the round's points: 2-0, 1-1 or 0-2).
WINNERS = {"own": 0, "tie": None, "opp": 1}
WINNER_OF_SIDE = {side: key for key, side in WINNERS.items()}

#: WCC: "Scorecards that are missing full name, ID #'s, category name or are not legible, may be
#: voided at the scoring table."
VOID_REASONS = [
    ("missing-name", gettext_lazy("Missing full name")),
    ("missing-id", gettext_lazy("Missing ID number")),
    ("missing-category", gettext_lazy("Missing category name")),
    ("illegible", gettext_lazy("Not legible")),
    ("other", gettext_lazy("Other (say why)")),
]


def _number_input(label: str) -> forms.NumberInput:
    return forms.NumberInput(
        attrs={"inputmode": "numeric", "min": 0, "aria-label": label, "class": "num"}
    )


class WinnerSelect(forms.RadioSelect):
    """The three answers to "who won the round?" as radio inputs; the page styles them as big
    buttons, and they stay plain radios underneath (arrow keys, no script needed).

    An ``autofocus`` asked of the group goes to its first answer only: a page has one place for
    the cursor to start (the paper page starts at round 1's winner).
    """

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if index:
            option["attrs"].pop("autofocus", None)
        return option


class RoundsForm(forms.Form):
    """The rounds of one game as one side of the board reports them.

    ``sides`` names the sides for screen readers and labels: on a card row they are the card
    owner and the opponent; on the head referee's ruling they are entry A and entry B. A
    three-player game has a third column ("opp2"): the owner and the two others in the match's
    order, or entries A, B and C on a ruling. Blank 20s
    count as none; a round is given by its points, by its board scores, or as "time expired".
    Under a system that scores rounds by the difference of the board scores, a round is given by
    its board scores (the points follow), so the form has no points boxes. ``lines`` asks for at
    least that many round lines (the live total adds the line a game still needs).

    A two-sided game scored 2-1-0 asks who won each round instead of its points (``winner``: the
    card owner, a tie, or the other side), since the points follow from that alone; the engine
    turns the answer into 2-0, 1-1 or 0-2 (``points_from_winner``). Its points boxes are still
    read when posted (a page loaded before the change, a script): they must then agree with the
    winner, if one is given too.
    """

    version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=0,
        error_messages={
            "required": gettext_lazy("The form lost track of the row's version; reload the page."),
            "invalid": gettext_lazy("The form lost track of the row's version; reload the page."),
        },
    )
    #: Ticked once the page has said that the row contradicts the game's validated or official
    #: result (``services.ContradictionError``): save it all the same, which opens a dispute.
    confirm_contradiction = forms.BooleanField(
        required=False,
        label=gettext_lazy("Save anyway: this opens a dispute for the head referee"),
    )

    def __init__(
        self,
        data: Any = None,
        *,
        game: Game,
        sides: tuple[str, ...] | None = None,
        rounds: list[dict] | None = None,
        version: int | None = None,
        versioned: bool = True,
        lines: int = 0,
        **kwargs: Any,
    ) -> None:
        initial = kwargs.pop("initial", None) or {}
        initial.update(initial_from_rounds(rounds or []))
        if version is not None:
            initial["version"] = version
        super().__init__(data, initial=initial, **kwargs)
        if not versioned:
            del self.fields["version"]
        self.game = game
        self.rules: GameRules = game_rules(game)
        self.side_keys = THREE_SIDES if self.rules.sides == len(THREE_SIDES) else SIDES
        if sides is None:
            sides = (_("own side"), _("opponent"), _("second opponent"))[: len(self.side_keys)]
        if len(sides) != len(self.side_keys):
            system, count = self.rules.system, len(self.side_keys)
            raise ValueError(f"a {system} game has {count} sides to name")  # untranslated: a bug
        self.sides = sides
        self.by_difference = self.rules.round_scoring == DIFFERENCE
        self.numbers = DIFFERENCE_NUMBERS if self.by_difference else NUMBERS
        self.by_winner = not self.by_difference and self.side_keys == SIDES
        if self.by_winner:
            self.initial.update(_winners_from_rounds(rounds or []))
        self.round_count = max(
            _lines_for(self.rules, rounds or []), _posted_lines(data, self.prefix), lines
        )
        self.bad_rounds: set[int] = set()
        for n in range(1, self.round_count + 1):
            for what in self.numbers:
                for side, name in zip(self.side_keys, sides, strict=True):
                    named = {"round": n, "what": WHAT[what], "name": name}
                    label = _("Round %(round)s, %(what)s, %(name)s") % named
                    self.fields[f"r{n}_{what}_{side}"] = forms.IntegerField(
                        required=False,
                        min_value=0,
                        max_value=999,
                        label=label,
                        widget=_number_input(label),
                        error_messages={
                            "invalid": _(
                                "Round %(round)s: %(what)s of %(name)s must be a whole number."
                            )
                            % named,
                            "min_value": _(
                                "Round %(round)s: %(what)s of %(name)s cannot be negative."
                            )
                            % named,
                            "max_value": _(
                                "Round %(round)s: %(what)s of %(name)s is far too large."
                            )
                            % named,
                        },
                    )
                    if what == "twenties":
                        # A blank 20s box counts as none: say so in the box.
                        self.fields[f"r{n}_{what}_{side}"].widget.attrs["placeholder"] = "0"
            if self.by_winner:
                self.fields[f"r{n}_winner"] = forms.ChoiceField(
                    required=False,
                    label=_("Round %(round)s: who won it?") % {"round": n},
                    choices=[("own", sides[0]), ("tie", _("Tie")), ("opp", sides[1])],
                    widget=WinnerSelect,
                    error_messages={
                        "invalid_choice": _("Round %(round)s: choose who won the round, or a tie.")
                        % {"round": n}
                    },
                )
            self.fields[f"r{n}_time_expired"] = forms.BooleanField(
                required=False, label=_("Time expired, no disc shot")
            )

    @property
    def round_rows(self) -> list[dict[str, Any]]:
        """The bound fields grouped per round, for the template."""
        rows = []
        for n in range(1, self.round_count + 1):
            row: dict[str, Any] = {
                "number": n,
                "bad": n in self.bad_rounds,
                "sides": len(self.side_keys),
                "names": self.sides,
            }
            for what in self.numbers:
                for side in self.side_keys:
                    row[f"{what}_{side}"] = self[f"r{n}_{what}_{side}"]
            row["time_expired"] = self[f"r{n}_time_expired"]
            if self.by_winner:
                row["winner"] = self[f"r{n}_winner"]
                # The folded part (board scores, time expired) opens when it holds something.
                extra = [row[f"score_{side}"].value() for side in self.side_keys]
                row["more_open"] = n in self.bad_rounds or any(
                    v not in (None, "") for v in [*extra, row["time_expired"].value() or None]
                )
            rows.append(row)
        return rows

    @property
    def shown_lines(self) -> int:
        """How many round lines the posted form had on the page, typed in or not."""
        return _posted_lines(self.data, self.prefix, typed_only=False)

    def messages(self) -> list[str]:
        """Every complaint of the form in words, the round named in each."""
        found: list[str] = []
        for errors in self.errors.values():
            for message in errors:
                if message not in found:
                    found.append(message)
        return found

    def _fail(self, number: int, message: str) -> None:
        self.bad_rounds.add(number)
        self.add_error(None, message)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in self.errors:
            found = ROUND_FIELD.match(name)
            if found:
                self.bad_rounds.add(int(found.group(1)))
        rounds: list[dict[str, Any]] = []
        first_blank: int | None = None
        for n in range(1, self.round_count + 1):
            if n in self.bad_rounds:
                rounds.append({})
                continue
            values = {
                (what, side): data.get(f"r{n}_{what}_{side}")
                for what in self.numbers
                for side in self.side_keys
            }
            expired = bool(data.get(f"r{n}_time_expired"))
            winner = (data.get(f"r{n}_winner") or "") if self.by_winner else ""
            typed = [v for v in (*values.values(), winner or None) if v is not None]
            if not typed and not expired:
                first_blank = first_blank or n
                continue
            if first_blank is not None:
                self._fail(
                    first_blank,
                    _(
                        "Round %(blank)s is empty but round %(round)s is filled; enter the rounds "
                        "in the order they were played."
                    )
                    % {"blank": first_blank, "round": n},
                )
                first_blank = None
            parsed = self._round(n, values, expired, winner)
            rounds.append(parsed or {})
        if not self.bad_rounds and not rounds:
            if self.by_difference:
                message = _("Round 1: enter both board scores and 20s of each round.")
            elif self.by_winner:
                message = _("Round 1: enter who won (or the board scores) and 20s of each round.")
            else:
                message = _(
                    "Round 1: enter the points (or the board scores) and 20s of each round."
                )
            self._fail(1, message)
        data["rounds"] = rounds
        return data

    def _round(
        self, n: int, values: dict[tuple[str, str], int | None], expired: bool, winner: str = ""
    ) -> dict[str, Any] | None:
        keys = self.side_keys
        points = [values.get(("points", s)) for s in keys]
        twenties = [values["twenties", s] or 0 for s in keys]
        score = [values["score", s] for s in keys]
        three = len(keys) == len(THREE_SIDES)
        if expired:
            if winner or any(v for v in values.values()):
                nothing = "0-0-0" if three else "0-0"
                self._fail(
                    n,
                    _(
                        "Round %(round)s: time expired with no disc shot scores %(nothing)s with "
                        "no 20s; clear the other boxes of the round or untick time expired."
                    )
                    % {"round": n, "nothing": nothing},
                )
                return None
            zeros = [0] * len(keys)
            return {"points": zeros, "twenties": list(zeros), "time_expired": True}
        if len({v is None for v in score}) > 1:
            if three:
                message = _("Round %(round)s: give all three board scores or none.")
            else:
                message = _("Round %(round)s: give both board scores or neither.")
            self._fail(n, message % {"round": n})
            return None
        if len({v is None for v in points}) > 1:
            if three:
                message = _(
                    "Round %(round)s: give the points of all three players (2-1-0 by rank)."
                )
            else:
                message = _("Round %(round)s: give the points of both sides (2-0, 1-1 or 0-2).")
            self._fail(n, message % {"round": n})
            return None
        if winner:
            told = list(points_from_winner(WINNERS[winner]))
            if points[0] is not None and points != told:
                self._fail(
                    n,
                    _(
                        "Round %(round)s: the points %(points)s do not match who won the round "
                        "(%(winner)s); give one or the other."
                    )
                    % {
                        "round": n,
                        "points": f"{points[0]}-{points[1]}",
                        "winner": self._winner_words(winner),
                    },
                )
                return None
            points = told
        if score[0] is not None:
            # Whether the points follow from the scores is the engine's call (in the service).
            return {
                "score": score,
                "points": points if points[0] is not None else None,
                "twenties": twenties,
            }
        if self.by_difference:
            self._fail(
                n,
                _(
                    "Round %(round)s: give both board scores (20s included); the winner of the "
                    "round adds the difference."
                )
                % {"round": n},
            )
            return None
        if points[0] is None:
            if self.by_winner:
                self._fail(
                    n,
                    _(
                        "Round %(round)s: choose who won the round (%(own)s, tie or %(opp)s), or "
                        "give the board scores."
                    )
                    % {"round": n, "own": self.sides[0], "opp": self.sides[1]},
                )
            else:
                self._fail(
                    n,
                    _("Round %(round)s: give the points of both sides, or the board scores.")
                    % {"round": n},
                )
            return None
        return {"points": points, "twenties": twenties}

    def _winner_words(self, winner: str) -> str:
        """An answer to "who won the round?" in words: a side's name, or a tie."""
        side = WINNERS[winner]
        if side is None:
            return _("a tie")
        return _("%(name)s won it") % {"name": self.sides[side]}

    def rounds(self) -> list[dict[str, Any]]:
        """The rounds in the form the scorecard services take (only after ``is_valid()``)."""
        return self.cleaned_data["rounds"]


def _lines_for(rules: GameRules, rounds: list[dict]) -> int:
    """Round lines for a stored row: what the judge says the game needs, and one more while a
    played game is not over (a championship game tied after 4, or after its 5th round, a game
    to 100 still short of it)."""
    try:
        verdict = judge_row(rounds, rules)
    except EngineInputError:
        return max(round_lines(rules), len(rounds))
    return round_lines(rules, verdict.rounds, verdict.over)


def _posted_lines(data: Any, prefix: str | None, *, typed_only: bool = True) -> int:
    """The highest round number a posted form filled in (a line added on the page), or with
    ``typed_only=False`` the highest it had a box for."""
    if not data:
        return 0
    start = f"{prefix}-" if prefix else ""
    highest = 0
    for key, value in data.items():
        if not key.startswith(start) or (typed_only and value in ("", None)):
            continue
        found = ROUND_FIELD.match(key[len(start) :])
        if found:
            highest = max(highest, int(found.group(1)))
    return min(highest, MOST_ROUND_LINES)


def _winners_from_rounds(rounds: list[dict]) -> dict[str, str]:
    """Who won each stored round of a two-sided row, for its "who won?" buttons (the engine
    reads it off the points); a round time ran out on has no winner to show."""
    initial: dict[str, str] = {}
    for n, r in enumerate(rounds, start=1):
        points = r.get("points")
        if r.get("time_expired") or not points or len(points) != len(SIDES):
            continue
        try:
            initial[f"r{n}_winner"] = WINNER_OF_SIDE[round_winner(points)]
        except EngineInputError:
            continue
    return initial


def initial_from_rounds(rounds: list[dict]) -> dict[str, Any]:
    """Saved rounds back into the form's boxes, so an edit starts from what is stored."""
    initial: dict[str, Any] = {}
    for n, r in enumerate(rounds, start=1):
        if r.get("time_expired"):
            initial[f"r{n}_time_expired"] = True
            continue
        for what in NUMBERS:
            pair = r.get(what)
            if pair is None:
                continue
            for side, value in zip(THREE_SIDES[: len(pair)], pair, strict=True):
                initial[f"r{n}_{what}_{side}"] = value
    return initial


class CorrectionForm(RoundsForm):
    """A referee's correction of a validated row: the same boxes plus the referee's initials.

    WCC: "Any corrections made on your score card must be initialled by a referee."
    """

    referee_initials = forms.CharField(
        max_length=5,
        label=gettext_lazy("Referee's initials"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
        error_messages={
            "required": gettext_lazy("A correction must be initialled by the referee.")
        },
    )


class SeenRowForm(CorrectionForm):
    """The player's change of a row that someone else has seen since it was saved (the opponent
    opened it to sign, or staff entered the paper card): a correction, so a referee initials it
    at the board (``scoring.scorecards.conditions.change_needs_initials``). Saving the rows as
    they stand needs no initials; the service says so when a change lacks them."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["referee_initials"].required = False


class RulingForm(RoundsForm):
    """The head referee's ruling on a disputed game in the match's order of sides (entry A's
    side first; A, B, C in a three-player game), with initials."""

    initials = forms.CharField(
        max_length=5,
        label=gettext_lazy("Head referee's initials"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
        error_messages={"required": gettext_lazy("Initial the ruling.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["versioned"] = False
        super().__init__(*args, **kwargs)
        del self.fields["confirm_contradiction"]  # a ruling contradicts the cards by design


class ValidateForm(forms.Form):
    """The opponent signs a row: WCC, "records their ID number and initials".

    Both or neither: on a phone whose login or private link stands for exactly one of the row's
    opponents, the identity implies them and the page offers one "Agree" (the service finds
    the signer, ``scoring.scorecards.implied``); anyone else types them, as on paper."""

    opponent_number = forms.CharField(
        max_length=20,
        required=False,
        label=gettext_lazy("Opponent's player ID"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    initials = forms.CharField(
        max_length=5,
        required=False,
        label=gettext_lazy("Opponent's initials"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
        error_messages={"max_length": gettext_lazy("Initials are at most 5 letters.")},
    )
    version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=0,
        error_messages={
            "required": gettext_lazy("The form lost track of the row's version; reload the page.")
        },
    )

    def __init__(self, *args: Any, typed: bool = True, **kwargs: Any) -> None:
        #: The ID and initials must be typed: the phone's identity does not imply them.
        self.typed = typed
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        number = (data.get("opponent_number") or "").strip()
        initials = (data.get("initials") or "").strip()
        if number or initials or self.typed:
            if not number and "opponent_number" not in self.errors:
                self.add_error("opponent_number", _("The opponent's player ID is missing."))
            if not initials and "initials" not in self.errors:
                self.add_error("initials", _("The opponent's initials are missing."))
        return data

    def messages(self) -> list[str]:
        return [m for errors in self.errors.values() for m in errors]


#: A table or dispute page names each row it shows in a hidden ``seen-<row id>`` field holding
#: the row's version: a verify, void or ruling acts on those rows as they were seen, or not at all.
SEEN_PREFIX = "seen-"


def seen_versions(data: Mapping[str, Any]) -> dict[int, int]:
    """The rows a page showed (row id to version), from its ``seen-<row id>`` fields."""
    seen = {}
    for key, value in data.items():
        if not key.startswith(SEEN_PREFIX):
            continue
        try:
            seen[int(key.removeprefix(SEEN_PREFIX))] = int(value)
        except (TypeError, ValueError):
            raise ScorecardError(
                _("%(field)s is not a row and its version; reload the page and try again.")
                % {"field": f"{key}={value!r}"}
            ) from None
    return seen


class VoidForm(forms.Form):
    """Why the scoring table voids a card."""

    reason = forms.ChoiceField(
        choices=VOID_REASONS,
        widget=forms.RadioSelect,
        label=gettext_lazy("Reason"),
        error_messages={"required": gettext_lazy("Choose why the card is voided.")},
    )
    other = forms.CharField(max_length=180, required=False, label=gettext_lazy("Other reason"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("reason") == "other" and not (data.get("other") or "").strip():
            self.add_error("other", _("Say why the card is voided."))
        return data

    def reason_text(self) -> str:
        reason = self.cleaned_data["reason"]
        if reason == "other":
            return self.cleaned_data["other"].strip()
        return str(dict(VOID_REASONS)[reason])

    def messages(self) -> list[str]:
        return [m for errors in self.errors.values() for m in errors]


class TableFilterForm(forms.Form):
    """The scoring table's filter: one stage, one round of play, or everything."""

    stage = forms.ModelChoiceField(
        queryset=Stage.objects.none(),
        required=False,
        label=gettext_lazy("Stage"),
        empty_label=gettext_lazy("All stages"),
        error_messages={
            "invalid_choice": gettext_lazy("That stage is not part of this tournament.")
        },
    )
    round_of_play = forms.TypedChoiceField(
        coerce=int,
        required=False,
        empty_value=None,
        label=gettext_lazy("Round of play"),
        error_messages={
            "invalid_choice": gettext_lazy("No match is drawn in round of play %(value)s.")
        },
    )

    def __init__(self, data: Any = None, *, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        # A shoot-out stage has no cards (its shots are recorded on the shoot-out page).
        self.fields["stage"].queryset = (
            Stage.objects.filter(category__tournament=tournament)
            .exclude(kind=Stage.Kind.SHOOTOUT)
            .select_related("category")
        )
        numbers = (
            Match.objects.filter(stage__category__tournament=tournament)
            .order_by("round_of_play")
            .values_list("round_of_play", flat=True)
            .distinct()
        )
        self.fields["round_of_play"].choices = [("", _("All rounds of play"))] + [
            (n, _("Round of play %(number)s") % {"number": n}) for n in numbers
        ]

    def filters(self) -> tuple[Stage | None, int | None]:
        if not self.is_bound or not self.is_valid():
            return None, None
        return self.cleaned_data["stage"], self.cleaned_data["round_of_play"]


class PaperFindForm(forms.Form):
    """Which paper card: the stage, the round of play and the card's owner, found by the ID
    number printed on the card (or a name), so a volunteer types what they read."""

    stage = forms.ModelChoiceField(
        queryset=Stage.objects.none(),
        empty_label=None,
        label=gettext_lazy("Stage"),
        error_messages={
            "required": gettext_lazy("Choose the stage of the card."),
            "invalid_choice": gettext_lazy("That stage is not part of this tournament."),
        },
    )
    round_of_play = forms.IntegerField(
        min_value=1,
        label=gettext_lazy("Round of play"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num"}),
        error_messages={
            "required": gettext_lazy("Give the round of play written on the card."),
            "invalid": gettext_lazy("The round of play is a whole number."),
            "min_value": gettext_lazy("Rounds of play are numbered from 1."),
        },
    )
    who = forms.CharField(
        max_length=100,
        label=gettext_lazy("Card of (ID number or name)"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autofocus": True}),
        error_messages={
            "required": gettext_lazy("Type the ID number printed on the card, or a name.")
        },
    )

    def __init__(self, data: Any = None, *, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        # A shoot-out stage has no cards (its shots are recorded on the shoot-out page).
        self.fields["stage"].queryset = (
            Stage.objects.filter(category__tournament=tournament)
            .exclude(kind=Stage.Kind.SHOOTOUT)
            .select_related("category")
        )

    def messages(self) -> list[str]:
        return [m for errors in self.errors.values() for m in errors]


class PaperRowForm(RoundsForm):
    """A paper card's row as written on it, and the opponent's signature as written beside it.

    WCC: the opponent "records their ID number and initials" on the card; staff type both in.
    """

    opponent_number = forms.CharField(
        max_length=20,
        label=gettext_lazy("Opponent's ID (as written)"),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={
            "required": gettext_lazy("Type the opponent's ID number written on the card.")
        },
    )
    initials = forms.CharField(
        max_length=5,
        label=gettext_lazy("Opponent's initials (as written)"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
        error_messages={
            "required": gettext_lazy("Type the opponent's initials written on the card."),
            "max_length": gettext_lazy("Initials are at most 5 letters."),
        },
    )
    #: Ticked once the page has shown the card's phone row beside the paper card's, where the
    #: two say otherwise (``services.ContradictionError``): the paper card replaces it.
    confirm_replace = forms.BooleanField(
        required=False,
        label=gettext_lazy("Replace the phone row with the paper card"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["confirm_contradiction"]  # the paper step asks confirm_replace instead
