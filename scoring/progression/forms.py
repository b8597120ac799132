"""The shoot-out form (each tied entry's 20s, per player in doubles: 6 shots each) and the head
referee's change of a closed stage's result."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.progression.selectors import ShootoutSheet, TiedGroup
from scoring.scorecards.forms import RulingForm


class ShootoutForm(forms.Form):
    """One shoot-out among one tied group: a box per entry (12 shots), or per partner in
    doubles (6 shots each, added up to the team's 20s)."""

    group = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, sheet: ShootoutSheet, tie: TiedGroup, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", f"g{tie.key}")
        super().__init__(*args, initial={"group": tie.key}, **kwargs)
        self.tie = tie
        self.rows: list[tuple[Any, list[str]]] = []
        shots = sheet.shots_per_player
        for entry in tie.entries:
            names = []
            players = _players(entry) if sheet.players_per_side > 1 else [entry.name]
            for n, player in enumerate(players, start=1):
                name = f"e{entry.id}" if len(players) == 1 else f"e{entry.id}_{n}"
                label = (
                    player
                    if len(players) == 1
                    else _("{team}: {player}").format(team=entry.name, player=player)
                )
                self.fields[name] = forms.IntegerField(
                    label=label,
                    min_value=0,
                    max_value=shots,
                    help_text=_("20s made with {shots} shots").format(shots=shots),
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": 3}),
                )
                names.append(name)
            self.rows.append((entry, names))

    def clean_group(self) -> str:
        if self.cleaned_data["group"] != self.tie.key:
            raise forms.ValidationError(
                _(
                    "This tie changed since the page was opened; reload it and enter the "
                    "shoot-out again."
                )
            )
        return self.cleaned_data["group"]

    def twenties(self) -> dict[int, int]:
        """Each entry's 20s, its partners' added up (call after ``is_valid``)."""
        return {
            entry.id: sum(self.cleaned_data[name] for name in names) for entry, names in self.rows
        }

    def boxes(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [(entry, [self[name] for name in names]) for entry, names in self.rows]


def _players(entry) -> list[str]:
    if entry.team_id is None:
        return [entry.name]
    team = entry.team
    return [str(team.player_one), str(team.player_two)]


class ClosedChangeForm(RulingForm):
    """The head referee's change of a result of a closed stage: the game's rounds in the
    match's order of sides (entry A first), the reason and their initials. The reason and the
    initials are asked by the service when the change is written (a preview needs neither), so
    the page and the API refuse with the same words."""

    reason = forms.CharField(
        required=False,
        max_length=1000,
        label=gettext_lazy("Why the result changes"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["initials"].required = False
