"""What the QR codes of a scorecard open: ``/t/<slug>/scan/<card code>/`` (printed on every card)
and ``/t/<slug>/sign/<signing code>/`` (shown on the owner's phone next to a row to sign).

Neither makes the scanning phone act for anyone (``scoring.scorecards.codes``): a phone that
already acts for the opponent, by its own private link or login, is taken to the row to sign;
any other phone reads the card and is told how to prove who it is, and a phone that acts for
the card's owner is told that the opponent signs on their own phone.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.models import CardRow
from scoring.permissions import is_card_owner
from scoring.scorecards import selectors as select
from scoring.scorecards.codes import ExpiredCode, read_card_code, read_signing_code
from scoring.scorecards.views import RowPanel
from scoring.scorecards.views import _card_url as card_url
from scoring.scorecards.views import _load_page as load_page
from scoring.scorecards.views import _may_view as may_view
from tournaments.models import Tournament
from tournaments.views.access import missing, tournament_page


def _prove(request: HttpRequest) -> str:
    """Where a phone without an identity here proves who it is, then comes back."""
    return f"{reverse('login')}?next={request.path}"


@require_GET
@tournament_page()
def card_scan(request: HttpRequest, tournament: Tournament, code: str) -> HttpResponse:
    """The printed card's QR: the card itself for whoever may see it, else the card to read."""
    found = read_card_code(code)
    if found is None:
        return missing(request, _("This card's code is not one this site printed."), tournament)
    page = load_page(tournament.slug, found.stage_id, found.entry_id)
    if may_view(request.user, page):
        return redirect(card_url(page))
    panels = [RowPanel(page=page, line=line, read_only=True) for line in page.lines]
    context = {
        "tournament": tournament,
        "page": page,
        "panels": panels,
        "message": _(
            "You are reading %(owner)s's card. To validate a row, the opponent opens their own "
            "private link on this phone (the QR code of their player sheet) or signs in, then "
            "scans this card again."
        )
        % {"owner": page.entry.name},
        "prove_url": _prove(request),
    }
    return render(request, "scoring/cards/scan.html", context)


@require_GET
@tournament_page()
def sign_scan(request: HttpRequest, tournament: Tournament, code: str) -> HttpResponse:
    """The code on the owner's phone: the row to sign, on the opponent's own phone."""
    try:
        row_id = read_signing_code(code)
    except ExpiredCode:
        return _message(
            request,
            tournament,
            _(
                "This code has expired: ask your opponent to open the row on their card again, "
                "and scan the new code."
            ),
            status=410,
        )
    row = (
        CardRow.objects.select_related("card__entry", "card__stage", *select.ROW_SIGN_JOINS)
        .filter(pk=row_id, card__stage__category__tournament=tournament)
        .first()
        if row_id is not None
        else None
    )
    if row is None:
        return missing(request, _("This code is not one this site made."), tournament)
    page = load_page(tournament.slug, row.card.stage_id, row.card.entry_id)
    if request.user.has_perm("scoring.validate_row", row):
        return redirect(card_url(page, row.game_id))
    if is_card_owner.test(request.user, row):
        return _message(
            request,
            tournament,
            _(
                "This phone acts for %(owner)s, whose card it is: the opponent scans this code "
                "with their own phone, where they have opened their own private link or signed "
                "in."
            )
            % {"owner": row.card.entry},
            status=403,
        )
    return _message(
        request,
        tournament,
        _(
            "To sign %(owner)s's row, this phone must first show who you are: open your own "
            "private link (the QR code of your player sheet) or sign in, then scan the code "
            "again."
        )
        % {"owner": row.card.entry},
        prove_url=_prove(request),
        status=403,
    )


def _message(
    request: HttpRequest, tournament: Tournament, message: str, *, status: int, prove_url=""
) -> HttpResponse:
    return render(
        request,
        "scoring/cards/scan.html",
        {"tournament": tournament, "message": message, "prove_url": prove_url},
        status=status,
    )
