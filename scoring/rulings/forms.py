"""The forms of the ruling pages: they turn what was typed into the inputs of the steps of
``scoring.rulings.actions``, whose services decide (and word every refusal the API shows too).
The forfeit forms take exactly their step's fields (``tests/tournaments/test_actions.py``); the
withdrawal form's ``kind`` picks the step (withdraw or disqualify), whose one input is the
reason."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.rulings.services import REASON_MAX
from tournaments.models import Entry, Game


def _messages(form: forms.Form) -> list[str]:
    """Every error of the form in words, the field named."""
    found = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        for error in errors:
            found.append(
                _("{label}: {error}").format(label=label, error=error) if label else str(error)
            )
    return found


def _sides(game: Game) -> list[tuple[str, str]]:
    match = game.match
    return [(Game.Side.A, match.entry_a.name), (Game.Side.B, match.entry_b.name)]


class ForfeitGameForm(forms.Form):
    """Which side forfeits the game, and why."""

    side = forms.ChoiceField(label=gettext_lazy("Forfeited by"), widget=forms.RadioSelect)
    reason = forms.CharField(
        label=gettext_lazy("Reason (the rule broken)"),
        max_length=REASON_MAX,
        widget=forms.TextInput(attrs={"size": 40}),
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "game")
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = _sides(game)

    def messages(self) -> list[str]:
        return _messages(self)


class ForfeitRoundForm(ForfeitGameForm):
    """Which round, which side forfeits it, and why."""

    round = forms.TypedChoiceField(label=gettext_lazy("Round"), coerce=int)

    field_order = ["round", "side", "reason"]

    def __init__(self, *args: Any, game: Game, rounds: int, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "round")
        super().__init__(*args, game=game, **kwargs)
        self.fields["round"].choices = [
            (n, _("Round {number}").format(number=n)) for n in range(1, rounds + 1)
        ]


class WithdrawForm(forms.Form):
    """A withdrawal or a disqualification, with its reason (required for a disqualification:
    the service says so)."""

    kind = forms.ChoiceField(
        label=gettext_lazy("What happened"),
        choices=Entry.WithdrawalKind.choices,
        widget=forms.RadioSelect,
        initial=Entry.WithdrawalKind.WITHDRAWAL,
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        required=False,
        max_length=REASON_MAX,
        widget=forms.TextInput(attrs={"size": 40}),
    )

    def __init__(self, *args: Any, kinds: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [
            (value, label) for value, label in Entry.WithdrawalKind.choices if value in kinds
        ]
        if len(kinds) == 1:
            self.fields["kind"].initial = kinds[0]

    def messages(self) -> list[str]:
        return _messages(self)
