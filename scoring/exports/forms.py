"""The import page's form: the export file, and a slug when the file's own is taken."""

from __future__ import annotations

from django import forms

#: The largest file the page takes (a WCC-sized event with its history is a few megabytes).
MAX_UPLOAD_BYTES = 200 * 1024 * 1024


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Export file",
        help_text="A .jsonl file from “Export” on a tournament's organizer page, or from "
        "manage.py export_tournament.",
    )
    slug = forms.SlugField(
        required=False,
        label="Web address (slug)",
        help_text="Leave empty to keep the file's; give another when a tournament here uses it.",
    )

    def clean_file(self):
        file = self.cleaned_data["file"]
        if file.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                f"The file is {file.size // (1024 * 1024)} MB; the page takes up to "
                f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB. Import it with "
                "manage.py import_tournament instead."
            )
        return file
