"""Forms of the organizer pages. They check the shape of the input; the services check the
rules (free ID numbers and web addresses, one team per player and category, a last day after the
first...), the same for the pages and the API, and the views show their refusals on the form."""

from typing import Any, Protocol

from django import forms
from django.db import models
from django.forms.forms import DeclarativeFieldsMetaclass
from django.utils.text import capfirst, slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models import Category, Player, Stage, Tournament
from tournaments.models.labels import field_label
from tournaments.models.registry import Person
from tournaments.models.stages import MATCH_GAMES_MAX, TIEBREAK_STEPS
from tournaments.presets import PRESETS
from tournaments.services.registration import NEW_PERSON
from tournaments.services.registry import describe
from tournaments.services.setup import TOURNAMENT_FIELDS

MAX_UPLOAD_BYTES = 1_000_000

STEP_LABELS = {
    "twenties": _("20s"),
    "head-to-head": _("Head-to-head"),
    "twenties-among-tied": _("20s among the tied"),
    "twenties-all-games": _("20s in all games"),
    "shoot-out": _("Shoot-out"),
    "buchholz": _("Buchholz (opponents' points)"),
    "game-points": _("Game points (board totals)"),
}

#: The tiebreak chains on offer: the stage kind's default, each named chain (the WCC's two and
#: the Swiss one), or a custom order of steps.
TIEBREAK_CHOICES = [
    ("default", _("Default for the stage's kind (WCC; a Swiss ranks by Buchholz first)")),
    ("preliminary", _("WCC preliminary: 20s, then shoot-out")),
    (
        "round-robin",
        _("WCC round robin: head-to-head, 20s among the tied, 20s in all games, shoot-out"),
    ),
    ("swiss", _("Swiss: Buchholz, 20s, then shoot-out")),
    ("custom", _("Custom order (steps below)")),
]
NAMED_CHAINS = {
    "preliminary": Stage.DEFAULT_CHAINS[Stage.Kind.PRELIMINARY],
    "round-robin": Stage.DEFAULT_CHAINS[Stage.Kind.ROUND_ROBIN],
    "swiss": Stage.DEFAULT_CHAINS[Stage.Kind.SWISS],
}
CUSTOM_STEPS = 5
#: The longest match on offer: WCC finals are best of 3; clubs sometimes play best of 5 or 7; a
#: fixed match is normally 10 games (the stage's own limit, ``Stage.clean``).
BEST_OF_MAX = MATCH_GAMES_MAX


def model_labels(model: type[models.Model], names: list[str]) -> dict[str, Any]:
    """The labels of the model's fields, translated (``tournaments.models.labels``), in the words
    Django would give them."""
    return {name: capfirst(field_label(model._meta.get_field(name))) for name in names}


class ModelFieldsMetaclass(DeclarativeFieldsMetaclass):
    """Makes the model's fields when the form class is made, as Django's ``ModelForm`` does, so
    that the class itself names its fields (``base_fields``): what a step's declaration is
    checked against (``Action.form``)."""

    def __new__(mcs, name: str, bases: tuple, attrs: dict[str, Any]):
        cls = super().__new__(mcs, name, bases, attrs)
        model = getattr(cls, "model", None)
        if model is not None and cls.model_fields:
            made = forms.fields_for_model(
                model,
                fields=cls.model_fields,
                widgets=cls.widgets,
                labels=model_labels(model, cls.model_fields),
            )
            made.update(cls.declared_fields)
            cls.base_fields = made
        return cls


class ModelFieldsForm(forms.Form, metaclass=ModelFieldsMetaclass):
    """A plain form with the fields of a model (labels, help, bounds) and none of the model's
    own validation: the service the view calls runs the model's checks and constraints, once,
    with the words the API gives too. Fields declared on the form replace the model's."""

    model: type[models.Model]
    model_fields: list[str] = []
    widgets: dict[str, forms.Widget] = {}


class TournamentForm(ModelFieldsForm):
    """Creating a tournament or changing it (where the web address is shown, not changed); the
    web address is made from the name when left blank. Its fields are the steps' inputs
    (``services.setup.TOURNAMENT_FIELDS``)."""

    model = Tournament
    model_fields = list(TOURNAMENT_FIELDS)
    widgets = {
        "starts_on": forms.DateInput(attrs={"type": "date"}),
        "ends_on": forms.DateInput(attrs={"type": "date"}),
    }

    slug = forms.SlugField(
        required=False,
        max_length=200,
        label=_("Web address"),
        help_text=_("Letters, digits and dashes; made from the name when left blank."),
    )

    def clean_slug(self) -> str:
        slug = self.cleaned_data.get("slug") or slugify(self.cleaned_data.get("name", ""))
        if not slug:
            raise forms.ValidationError(gettext("Give a web address: letters, digits and dashes."))
        return slug


#: The words of a preset's kind and discipline in the list of presets.
PRESET_WORDS = {
    "singles": _("singles"),
    "doubles": _("doubles"),
    "fingers": _("fingers"),
    "cue": _("cue"),
}


def _preset_choices() -> list[tuple[str, str]]:
    return [
        (
            p.key,
            gettext(
                "%(name)s (%(kind)s, %(discipline)s, %(discs)d discs each, "
                "%(rounds)d rounds a game)"
            )
            % {
                # The names are marked in ``tournaments.presets``.
                "name": gettext(p.name),
                "kind": PRESET_WORDS.get(p.kind, p.kind),
                "discipline": PRESET_WORDS.get(p.discipline, p.discipline),
                "discs": p.discs_per_player,
                "rounds": p.rounds_per_game,
            },
        )
        for p in PRESETS.values()
    ]


class PresetCategoriesForm(forms.Form):
    presets = forms.MultipleChoiceField(
        choices=_preset_choices,
        widget=forms.CheckboxSelectMultiple,
        label=_("WCC categories"),
    )


class CategoryForm(ModelFieldsForm):
    model = Category
    model_fields = [
        "name",
        "kind",
        "discipline",
        "discs_per_player",
        "rounds_per_game",
        "scoring_system",
        "target_points",
        "game_minutes",
    ]
    widgets = {
        "discs_per_player": forms.NumberInput(attrs={"min": 1, "max": 12}),
        "game_minutes": forms.NumberInput(attrs={"min": 1, "max": 180}),
        "rounds_per_game": forms.NumberInput(attrs={"min": 1, "max": 20}),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Family rulebook, Three-Player Game, Option Two: "Using a third set of 12 disks ...
        # each player plays alone".
        self.fields["discs_per_player"].help_text = gettext(
            "The discs each player shoots in a round. A three-player category (family rulebook, "
            "Option Two) gives each player 12 discs."
        )
        self.fields["scoring_system"].help_text = gettext(
            "Three players: groups of three at a board, each player alone, 2-1-0 by rank each "
            "round, play to 8; its stages are preliminary rounds (12 discs a player)."
        )


class PlayerForm(forms.Form):
    first_name = forms.CharField(
        max_length=100, label=_("First name"), widget=forms.TextInput(attrs={"autofocus": True})
    )
    last_name = forms.CharField(max_length=100, label=_("Last name"))
    # The range is the service's (``people.check_number_range``), so the page and the API say
    # the same words; the widget only tells the browser.
    number = forms.IntegerField(
        label=_("ID number"),
        widget=forms.NumberInput(attrs={"min": 1, "max": 2_147_483_647}),
        required=False,
        help_text=_("Printed on the scorecard; left blank, the next free ID is used."),
    )
    club = forms.CharField(max_length=100, required=False, label=_("Club"))
    country = forms.CharField(max_length=60, required=False, label=_("Country"))
    categories = forms.ModelMultipleChoiceField(
        queryset=Category.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Categories"),
        help_text=_("Singles categories; doubles teams are paired on the Teams page."),
    )

    federation_id = forms.CharField(
        max_length=40,
        required=False,
        label=_("Federation ID"),
        help_text=_(
            "The player's federation or association number, if any: it finds them in the "
            "site's registry of people."
        ),
    )
    federation = forms.CharField(max_length=60, required=False, label=_("Federation"))
    #: Who the player is in the registry: asked only when the registry knows someone like them
    #: (``offer_people``); hidden until then.
    person = forms.CharField(required=False, widget=forms.HiddenInput, label=_("Who is this?"))

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["categories"].queryset = tournament.categories.filter(
            kind=Category.Kind.SINGLES
        ).order_by("name")
        self.fields["categories"].label_from_instance = lambda c: c.name

    def clean_person(self) -> Any:
        """None (not chosen yet), ``"new"`` (a new person) or the registry's ``Person``."""
        value = (self.cleaned_data.get("person") or "").strip()
        if not value:
            return None
        if value == NEW_PERSON:
            return NEW_PERSON
        person = Person.objects.filter(pk=value).first() if value.isdigit() else None
        if person is None:
            raise forms.ValidationError(
                gettext("That person is no longer in the registry: choose again.")
            )
        return person

    def offer_people(self, matches, question: str) -> None:
        """Ask who the player is: each person the registry found, or a new person."""
        field = self.fields["person"]
        field.widget = forms.RadioSelect(
            choices=[(str(m.person.pk), describe(m.person)) for m in matches]
            + [(NEW_PERSON, gettext("A new person: none of these"))]
        )
        self.add_error("person", question)


class EnterPlayerForm(forms.Form):
    player = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Player"))

    def __init__(self, *args, category: Category, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        field.queryset = category.tournament.players.exclude(entries__category=category).order_by(
            "number"
        )
        field.label_from_instance = lambda p: f"{p.number} · {p.full_name}"


class CsvUploadForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                gettext(
                    "The file is %(size)d kB; at most %(limit)d kB can be imported at once. "
                    "Split it into smaller files."
                )
                % {"size": upload.size // 1000, "limit": MAX_UPLOAD_BYTES // 1000}
            )
        return upload


class CsvConfirmForm(forms.Form):
    """The previewed file travels back with the confirmation (see registration.encode_upload)."""

    data = forms.CharField(widget=forms.HiddenInput)
    fingerprint = forms.CharField(widget=forms.HiddenInput, max_length=64)


class TeamForm(forms.Form):
    category = forms.ModelChoiceField(queryset=Category.objects.none(), label=_("Doubles category"))
    player_one = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Player"))
    player_two = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Partner"))
    name = forms.CharField(max_length=200, required=False, label=_("Team name (optional)"))

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].queryset = tournament.categories.filter(
            kind=Category.Kind.DOUBLES
        ).order_by("name")
        self.fields["category"].label_from_instance = lambda c: c.name
        players = tournament.players.order_by("number")
        for name in ("player_one", "player_two"):
            self.fields[name].queryset = players
            self.fields[name].label_from_instance = lambda p: f"{p.number} · {p.full_name}"


STAGE_FIELDS = [
    "name",
    "kind",
    "order",
    "advance_count",
    "games_per_entry",
    "match_format",
    "best_of",
    "bye_points",
    "seed",
]


class ByeRule(Protocol):
    """What a bye or a walkover is worth in a category, as its scoring system says
    (``scoring.engine.UnplayedRule``; the organizer's views ask
    ``scoring.results.rules.unplayed_rule``, since this app does not import scoring)."""

    @property
    def worth(self) -> int: ...

    @property
    def settable(self) -> bool: ...

    @property
    def words(self) -> str: ...


class StageForm(forms.Form):
    """A stage with its tiebreak chain: a WCC chain or a custom order of steps.

    A plain form over the model's fields: the stage is validated and saved by
    ``registration.add_stage``, which knows the category's other stages. With ``bye``, the
    category's rule for a bye or a walkover: its points are a field where the scoring system
    lets the stage set them, and a value shown, not sent, where the system sets them itself.
    """

    def __init__(self, *args, next_order: int, bye: ByeRule | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(
            forms.fields_for_model(
                Stage, fields=STAGE_FIELDS, labels=model_labels(Stage, STAGE_FIELDS)
            )
        )
        # The model field allows 0 and up; the form renders its own bounds into the input, so a
        # widget's min=1 would be overwritten by min=0. Any N from 1: a fixed match may have an
        # even number of games, a best of N may not, which the stage itself checks against the
        # format chosen with it (``Stage.clean``) and the page shows on this field.
        self.fields["best_of"] = forms.IntegerField(
            label=gettext("Games in a match (N)"),
            help_text=self.fields["best_of"].help_text,
            initial=1,
            min_value=1,
            max_value=BEST_OF_MAX,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
        self.fields["match_format"].widget = forms.RadioSelect(
            choices=self.fields["match_format"].choices
        )
        self.fields["match_format"].required = False
        self.fields["match_format"].initial = Stage.MatchFormat.BEST_OF
        self.fields["order"].required = False
        self.fields["order"].initial = next_order
        self.fields["order"].help_text = gettext("Position in the category: 1 is played first.")
        self.fields["bye_points"].label = gettext("Points for a bye or a walkover")
        if bye is not None:
            self._bye_points(bye)
        self.fields["tiebreak"] = forms.ChoiceField(
            choices=TIEBREAK_CHOICES,
            initial="default",
            widget=forms.RadioSelect,
            label=gettext("Tiebreaks after points"),
        )
        step_choices = [("", "—"), *((s, STEP_LABELS.get(s, s)) for s in TIEBREAK_STEPS)]
        for n in range(1, CUSTOM_STEPS + 1):
            self.fields[f"step_{n}"] = forms.ChoiceField(
                choices=step_choices,
                required=False,
                label=gettext("Custom step %(number)d") % {"number": n},
            )

    def _bye_points(self, bye: ByeRule) -> None:
        """The bye points as the scoring system has them, its rule in words under the field: a
        new stage starts from the system's value; where the system sets it, the field shows that
        value and the form sends nothing, so the stage keeps what it had."""
        field = self.fields["bye_points"]
        field.help_text = bye.words
        field.initial = bye.worth
        if not bye.settable:
            field.disabled = True
            field.required = False
            self.initial = {**self.initial, "bye_points": bye.worth}

    @property
    def main_fields(self) -> list:
        return [self[name] for name in STAGE_FIELDS]

    @property
    def step_fields(self) -> list:
        return [self[f"step_{n}"] for n in range(1, CUSTOM_STEPS + 1)]

    def clean(self):
        data = super().clean()
        # A form sent without the format (a page from before it existed) keeps best of N.
        data["match_format"] = data.get("match_format") or Stage.MatchFormat.BEST_OF
        choice = data.get("tiebreak")
        if choice == "custom":
            steps = [data[f"step_{n}"] for n in range(1, CUSTOM_STEPS + 1) if data.get(f"step_{n}")]
            if not steps:
                self.add_error("tiebreak", gettext("Choose the steps of the custom order."))
            twice = sorted({s for s in steps if steps.count(s) > 1})
            if twice:
                labels = ", ".join(str(STEP_LABELS.get(s, s)) for s in twice)
                self.add_error(
                    "tiebreak",
                    gettext("Use each step once; chosen twice: %(labels)s.") % {"labels": labels},
                )
            data["tiebreak_chain"] = steps
        else:
            data["tiebreak_chain"] = list(NAMED_CHAINS.get(choice, []))
        return data

    def stage_fields(self) -> dict:
        """The cleaned values as ``registration.add_stage`` takes them; a field the page only
        shows (the bye points a scoring system sets itself) is not among them."""
        names = [*STAGE_FIELDS, "tiebreak_chain"]
        shown = {name for name in names if name in self.fields and self.fields[name].disabled}
        return {name: self.cleaned_data.get(name) for name in names if name not in shown}


class StageRunForm(forms.Form):
    """Options of a draw or an advance; each applies only to the stage kinds that use it."""

    method = forms.ChoiceField(
        choices=[("random", _("Random opponents")), ("rotation", _("Rotation (fixed schedule)"))],
        required=False,
        label=_("Pairing"),
    )
    pool_count = forms.IntegerField(min_value=1, max_value=64, required=False, label=_("Pools"))
    double = forms.BooleanField(required=False, label=_("Double round robin"))
    third_place = forms.BooleanField(required=False, label=_("Match for 3rd place"))

    def options(self) -> dict:
        """The options given, without the blanks, so the service's defaults apply."""
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "", False)}


class StageScheduleForm(forms.Form):
    """Start times for a drawn stage: when its first round starts, how long a game takes (the
    tournament's time limit by default) and the break between rounds."""

    start = forms.DateTimeField(
        label=_("First round starts"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    minutes_per_game = forms.IntegerField(
        min_value=1, max_value=240, required=False, label=_("Minutes per game")
    )
    break_minutes = forms.IntegerField(
        min_value=0, max_value=240, required=False, label=_("Break between rounds")
    )


class BoardCountForm(forms.Form):
    count = forms.IntegerField(min_value=0, max_value=500, label=_("Number of boards"))
