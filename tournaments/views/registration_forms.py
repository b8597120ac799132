"""Forms of the public entry form's pages. They check the shape of the input; the service
(``services.entry_requests``) checks the rules (open form, deadline, no request twice, a partner
for doubles and none for singles) and the views put its refusals next to the field it names."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Category

#: Text boxes the applicant fills; the service refuses what the form lets through.
_TEXT = {"required": False}


class EntryRequestForm(forms.Form):
    """The public form: the category, the applicant, and the partner for a doubles category.
    Every box is optional here, so that the service says in one place what is missing."""

    category = forms.ModelChoiceField(
        queryset=Category.objects.none(),
        label=_("Category"),
        empty_label=None,
        error_messages={"invalid_choice": _("Choose one of the categories listed.")},
    )
    first_name = forms.CharField(label=_("First name"), max_length=100, **_TEXT)
    last_name = forms.CharField(label=_("Last name"), max_length=100, **_TEXT)
    email = forms.CharField(
        label=_("E-mail"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text=_("Your confirmation and the organizer's decision are sent here."),
        **_TEXT,
    )
    id_number = forms.CharField(
        label=_("Federation ID number"),
        max_length=40,
        help_text=_("If you have one: it finds your past results."),
        **_TEXT,
    )
    club = forms.CharField(label=_("Club"), max_length=100, **_TEXT)
    country = forms.CharField(label=_("Country"), max_length=60, **_TEXT)
    partner_first_name = forms.CharField(label=_("Partner's first name"), max_length=100, **_TEXT)
    partner_last_name = forms.CharField(label=_("Partner's last name"), max_length=100, **_TEXT)
    partner_email = forms.CharField(
        label=_("Partner's e-mail"),
        max_length=254,
        widget=forms.EmailInput(),
        help_text=_("Your partner is invited there and accepts before the organizer decides."),
        **_TEXT,
    )
    partner_id_number = forms.CharField(
        label=_("Partner's federation ID number"), max_length=40, **_TEXT
    )

    def __init__(self, *args, tournament, open_categories, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["category"]
        # Any category of the tournament is accepted, so that a closed one is refused in the
        # service's words (why and since when); the list offers the open ones.
        field.queryset = tournament.categories.all()
        field.choices = [(c.pk, f"{c.name} ({c.get_kind_display()})") for c in open_categories]


class PartnerForm(forms.Form):
    """The partner confirms (or corrects) their name and ID number."""

    first_name = forms.CharField(label=_("First name"), max_length=100, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=100, required=False)
    id_number = forms.CharField(label=_("Federation ID number"), max_length=40, required=False)


class RegistrationSettingsForm(forms.Form):
    """A category's entry form: open or not, until when, for how many."""

    registration_open = forms.BooleanField(label=_("Form open"), required=False)
    registration_deadline = forms.DateTimeField(
        label=_("Deadline"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text=_("Empty: open until you close it."),
        error_messages={"invalid": _("Give the deadline as a date and a time.")},
    )
    capacity = forms.IntegerField(
        label=_("Capacity"),
        required=False,
        min_value=1,
        max_value=100_000,
        help_text=_("Most entries; later requests wait on the waitlist. Empty: no limit."),
    )
