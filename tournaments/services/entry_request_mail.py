"""The e-mails of the public entry form: who is told what, once the step's transaction commits.

- the applicant: the link to their request's page (to follow it and to withdraw), then each
  decision (accepted, refused with the reason, off the waitlist, withdrawn by the organizer);
- the doubles partner: the invitation, with the link to accept or decline it;
- the tournament's organizers and co-organizers: each request that comes up for their decision
  (new, its partner accepted, off the waitlist) and each withdrawal.

Sent with Django's ``send_mail`` through the site's ``EMAIL_BACKEND``; a mail server that fails
loses the e-mail, never the request (``fail_silently``): the request's page and the organizer's
list show the same.
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import EntryRequest, TournamentRole

TEMPLATES = "tournaments/registration/mail"


def status_url(request: EntryRequest, site: str = "") -> str:
    """The applicant's page of the request (``site``: the site's address, for an e-mail)."""
    slug = request.category.tournament.slug
    return site + reverse("registration:registration-status", args=[slug, request.token])


def partner_url(request: EntryRequest, site: str = "") -> str:
    """The partner's invitation page."""
    slug = request.category.tournament.slug
    return site + reverse("registration:registration-partner", args=[slug, request.partner_token])


def organizer_url(request: EntryRequest, site: str = "") -> str:
    """The organizer's list of requests."""
    return site + reverse("registration:registrations", args=[request.category.tournament.slug])


def organizer_emails(tournament) -> list[str]:
    """The addresses of the tournament's organizers and co-organizers that have one."""
    roles = TournamentRole.objects.filter(
        tournament=tournament,
        role__in=[TournamentRole.Role.ORGANIZER, TournamentRole.Role.CO_ORGANIZER],
    ).exclude(user__email="")
    return sorted(set(roles.values_list("user__email", flat=True)))


def _send(subject: str, template: str, context: dict, to: list[str]) -> None:
    if not to:
        return
    body = render_to_string(f"{TEMPLATES}/{template}", context)
    transaction.on_commit(
        partial(
            send_mail,
            subject,
            body,
            settings.DEFAULT_FROM_EMAIL,
            to,
            fail_silently=True,
        )
    )


def _context(request: EntryRequest, site: str) -> dict:
    return {
        "request": request,
        "category": request.category,
        "tournament": request.category.tournament,
        "status_url": status_url(request, site),
        "partner_url": partner_url(request, site),
        "organizer_url": organizer_url(request, site),
    }


def _to_organizers(request: EntryRequest, site: str, subject: str) -> None:
    tournament = request.category.tournament
    _send(
        subject,
        "organizer.txt",
        _context(request, site),
        organizer_emails(tournament),
    )


def submitted(request: EntryRequest, site: str) -> None:
    """A new request: the applicant's link; the partner's invitation (doubles); the organizers
    told (of a request they may decide, or of one on the waitlist)."""
    context = _context(request, site)
    tournament = request.category.tournament
    _send(
        _("Your request to enter %(tournament)s") % {"tournament": tournament.name},
        "applicant_submitted.txt",
        context,
        [request.email],
    )
    if request.status == EntryRequest.Status.AWAITING_PARTNER:
        _send(
            _("%(name)s invites you to play %(category)s at %(tournament)s")
            % {
                "name": f"{request.first_name} {request.last_name}",
                "category": request.category.name,
                "tournament": tournament.name,
            },
            "partner_invitation.txt",
            context,
            [request.partner_email],
        )
        return
    _new_request_to_organizers(request, site)


def _new_request_to_organizers(request: EntryRequest, site: str) -> None:
    """A request now waits for the organizers' decision: they are told."""
    _to_organizers(
        request,
        site,
        _("New request to enter %(category)s: %(request)s")
        % {"category": request.category.name, "request": request},
    )


def partner_accepted(request: EntryRequest, site: str) -> None:
    """The partner accepted: the applicant and the organizers are told."""
    _send(
        _("%(name)s accepted your invitation") % {"name": request.partner_first_name},
        "applicant_update.txt",
        _context(request, site),
        [request.email],
    )
    _new_request_to_organizers(request, site)


def partner_declined(request: EntryRequest, site: str) -> None:
    _send(
        _("%(name)s declined your invitation") % {"name": request.partner_first_name},
        "applicant_update.txt",
        _context(request, site),
        [request.email],
    )


def decided(request: EntryRequest, site: str) -> None:
    """Accepted or refused: the applicant (and the partner of a team) is told."""
    to = [request.email]
    if request.partner_email and request.partner_accepted_at:
        to.append(request.partner_email)
    _send(
        _("Your request to enter %(category)s: %(status)s")
        % {"category": request.category.name, "status": request.get_status_display()},
        "applicant_update.txt",
        _context(request, site),
        to,
    )


def promoted(request: EntryRequest, site: str) -> None:
    """Off the waitlist: the applicant is told, and the organizers have one more to decide."""
    _send(
        _("A place freed in %(category)s") % {"category": request.category.name},
        "applicant_update.txt",
        _context(request, site),
        [request.email],
    )
    _to_organizers(
        request,
        site,
        _("Off the waitlist of %(category)s: %(request)s")
        % {"category": request.category.name, "request": request},
    )


def withdrawn(request: EntryRequest, site: str, *, by_organizer: bool) -> None:
    """A withdrawal: the organizers are told when the applicant withdrew, the applicant when
    the organizer did."""
    if by_organizer:
        _send(
            _("Your request to enter %(category)s was withdrawn")
            % {"category": request.category.name},
            "applicant_update.txt",
            _context(request, site),
            [request.email],
        )
        return
    _to_organizers(
        request,
        site,
        _("Withdrawn from %(category)s: %(request)s")
        % {"category": request.category.name, "request": request},
    )
