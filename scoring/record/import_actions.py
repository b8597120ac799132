"""Importing past results, as steps (``tournaments.actions``): previewing a file and confirming
it. Both are the site's record keepers' (``tournaments.permissions.MANAGE_RECORD``, its staff
accounts): the record is the site's, so no tournament role reaches it, and an organizer of one
event cannot write another's results over someone's record. The page, the API and the command
take the same steps (the command as the server's operator, without a login)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from scoring.record import importing
from tournaments.actions import Action
from tournaments.permissions import MANAGE_RECORD

#: What anyone else is told (the page and the API alike).
RECORD_KEEPERS_ONLY = gettext_lazy(
    "Importing past results into the record is for the site's record keepers (its staff "
    "accounts); a role at a tournament does not give it."
)


def _preview(user, _site, **inputs):
    return importing.preview(user=user, **inputs)


def _confirm(user, record_import, *, skip_bad_lines: bool = False):
    return importing.confirm(user, record_import, skip_bad_lines=skip_bad_lines)


#: Read a file and keep it with its preview; asked on no object (the record is the site's).
preview_record_import = Action(
    name="scoring.preview_record_import",
    permission=MANAGE_RECORD,
    who=RECORD_KEEPERS_ONLY,
    run=_preview,
    fields=("content", "filename", "layout", "discipline"),
)

#: Write a previewed import into the record.
confirm_record_import = Action(
    name="scoring.confirm_record_import",
    permission=MANAGE_RECORD,
    who=RECORD_KEEPERS_ONLY,
    run=_confirm,
    when=(importing.still_previewed,),
    fields=("skip_bad_lines",),
    form="scoring.record.import_forms.RecordConfirmForm",
    serializer="scoring.api.record.RecordConfirmSerializer",
)
