"""The record import page's forms: the file with its layout and discipline, and the
confirmation (with the choice to leave bad lines out)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models.record import RecordImport
from scoring.record.importing import DISCIPLINES, MAX_BYTES


class RecordUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Results file"),
        help_text=gettext_lazy(
            "A Crokinole Reference file (CSV: one game a line, rounds with points and 20s), or "
            "a tournament's export file (.jsonl) from “Export” on its organizer page."
        ),
    )
    layout = forms.ChoiceField(
        label=gettext_lazy("Layout"),
        choices=RecordImport.Layout.choices,
        initial=RecordImport.Layout.CROKINOLE_REFERENCE,
    )
    discipline = forms.ChoiceField(
        label=gettext_lazy("Played with"),
        choices=list(DISCIPLINES.items()),
        initial="fingers",
        help_text=gettext_lazy(
            "A Crokinole Reference file does not say; singles and doubles are told apart by "
            "its lines (doubles: “First Last & First Last”)."
        ),
    )

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_BYTES:
            raise forms.ValidationError(
                _("The file is {size} MB; an import takes up to {limit} MB.").format(
                    size=file.size // (1024 * 1024), limit=MAX_BYTES // (1024 * 1024)
                )
            )
        return file


class RecordConfirmForm(forms.Form):
    skip_bad_lines = forms.BooleanField(
        required=False,
        label=gettext_lazy("Import the other games and leave the bad lines out"),
        help_text=gettext_lazy(
            "Corrected later and uploaded again, the file's games already imported are found "
            "and left as they are: only the corrected lines are new."
        ),
    )
