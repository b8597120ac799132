"""The import page's form: the export file, and a slug when the file's own is taken."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: The largest file the page takes (a WCC-sized event with its history is a few megabytes).
MAX_UPLOAD_BYTES = 200 * 1024 * 1024


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Export file"),
        help_text=gettext_lazy(
            "A .jsonl file from “Export” on a tournament's organizer page, or from "
            "manage.py export_tournament."
        ),
    )
    slug = forms.SlugField(
        required=False,
        label=gettext_lazy("Web address (slug)"),
        help_text=gettext_lazy(
            "Leave empty to keep the file's; give another when a tournament here uses it."
        ),
    )

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                _(
                    "The file is {size} MB; the page takes up to {limit} MB. Import it with "
                    "manage.py import_tournament instead."
                ).format(size=file.size // (1024 * 1024), limit=MAX_UPLOAD_BYTES // (1024 * 1024))
            )
        return file
