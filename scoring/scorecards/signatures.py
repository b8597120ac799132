"""Who signed a row on a phone, in words: one home for the table, the dispute queue, the row's
history and the card itself, so that every official reads the same account of a signature."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import CardRow


def signer_words(row: CardRow) -> str:
    """Which identity signed on a phone, and on which device: "Kai N. (ID 111) with their
    private link, phone 3F9A, 14:02" or "... signed in as kai, phone 3F9A, 14:02". Rows signed
    before the app kept this say so."""
    if row.validated_entry_id is None and row.validated_by_id is None:
        return _("signer not recorded")
    entry = row.validated_entry
    who = (
        _("%(entry)s (ID %(number)s)") % {"entry": entry, "number": entry.number}
        if entry is not None
        else _("an opponent")
    )
    if row.validated_by_id:
        how = _("signed in as %(login)s") % {"login": row.validated_by.get_username()}
    else:
        how = _("with their private link")
    if row.validated_device:
        where = _("phone %(device)s") % {"device": row.validated_device}
    else:
        where = _("through the API")
    when = f", {timezone.localtime(row.validated_at):%H:%M}" if row.validated_at else ""
    return f"{who} {how}, {where}{when}"
