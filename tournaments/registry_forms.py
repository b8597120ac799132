"""Forms of the registry pages. They check the shape of the input; the registry's services check
the rules (names given, an ID number nobody else holds) and its actions who may."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models.registry import Person
from tournaments.services.registration import NEW_PERSON
from tournaments.services.registry import describe


class PersonForm(forms.Form):
    """A person's details (``registry_actions.PERSON_FIELDS``). A plain form, never bound to the
    person itself: the action compares the answer with the person as stored (an organizer may
    not change the name or ID number of someone who plays elsewhere)."""

    first_name = forms.CharField(max_length=100, label=_("First name"))
    last_name = forms.CharField(max_length=100, label=_("Last name"))
    id_number = forms.CharField(
        max_length=40,
        required=False,
        label=_("Federation ID"),
        help_text=_("The federation's or association's number, if any."),
    )
    federation = forms.CharField(max_length=60, required=False, label=_("Federation"))
    club = forms.CharField(max_length=100, required=False, label=_("Club"))
    country = forms.CharField(max_length=60, required=False, label=_("Country"))
    discipline = forms.ChoiceField(
        choices=Person.Discipline.choices, initial=Person.Discipline.FINGERS, label=_("Discipline")
    )

    @classmethod
    def of(cls, person: Person) -> PersonForm:
        """The form filled with ``person``'s details."""
        return cls(initial={name: getattr(person, name) for name in cls.base_fields})


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(
        choices=Person.Visibility.choices,
        widget=forms.RadioSelect,
        label=_("What the public sees of this person"),
    )


class PersonChoiceField(forms.IntegerField):
    """A person by number (the registry's #), answered with the kept person."""

    def to_python(self, value: Any) -> Person | None:
        number = super().to_python(value)
        if number is None:
            return None
        person = Person.objects.filter(pk=number).first()
        if person is None:
            raise forms.ValidationError(
                gettext("There is no person #%(number)s in the registry.") % {"number": number}
            )
        return person


class MergeForm(forms.Form):
    keep = PersonChoiceField(label=_("Keep (person #)"))
    duplicate = PersonChoiceField(label=_("Duplicate to merge into it (person #)"))


class LinkForm(forms.Form):
    """Which person a tournament's player is: one of the people found, or a new one."""

    person = forms.ChoiceField(widget=forms.RadioSelect, label=_("Who is this player?"))

    def __init__(self, *args: Any, matches=(), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.matches = {str(m.person.pk): m.person for m in matches}
        self.fields["person"].choices = [(pk, describe(p)) for pk, p in self.matches.items()] + [
            (NEW_PERSON, gettext("A new person: none of these"))
        ]

    def chosen(self) -> Person | None:
        """The person chosen, or None for a new one."""
        return self.matches.get(self.cleaned_data["person"])
