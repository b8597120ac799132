"""Bulk check-in through the API: a category's entries checked in at once.

The same step as the check-in page's bulk form (``entry_actions.check_in_many``: everyone, the
players' ID numbers, or a list of entry ids); one entry is checked in or out with
``PATCH /api/entries/{id}/ {"checked_in": ...}``. Withdrawn
entries are left alone and reported, as the page reports them. Organizers only.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.actions import OrganizerActionView, parse, refused
from tournaments.api.serializers import EntrySummarySerializer
from tournaments.entry_actions import check_in_many


class BulkCheckInSerializer(serializers.Serializer):
    """Exactly one of ``all``, ``entries`` and ``numbers``."""

    all = serializers.BooleanField(
        required=False,
        help_text=gettext_lazy("Check in every entry of the category that has not withdrawn."),
    )
    entries = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_empty=False,
        help_text=gettext_lazy("These entries of the category (ids)."),
    )
    numbers = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        allow_empty=False,
        help_text=gettext_lazy(
            "The entries of the players with these ID numbers, as typed at the check-in "
            "desk (a team once both partners are listed)."
        ),
    )

    def validate(self, attrs: dict) -> dict:
        given = [k for k in ("entries", "numbers") if k in attrs]
        if attrs.get("all"):
            given.append("all")
        if len(given) != 1:
            raise serializers.ValidationError(
                gettext(
                    "Send one of: all (true), entries (a list of entry ids) or numbers (a list of "
                    "player ID numbers)."
                )
            )
        return attrs


class BulkCheckInResultSerializer(serializers.Serializer):
    checked_in = EntrySummarySerializer(many=True, help_text=gettext_lazy("Checked in now."))
    already = EntrySummarySerializer(many=True, help_text=gettext_lazy("Checked in before."))
    withdrawn = EntrySummarySerializer(many=True, help_text=gettext_lazy("Withdrawn: left out."))
    waiting = EntrySummarySerializer(
        many=True,
        help_text=gettext_lazy("Teams with one partner's number listed: not checked in yet."),
    )


class CategoryCheckInView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Check in a category's entries at once"),
        description=gettext_lazy(
            "Every entry not withdrawn (``all``), the entries listed, or the entries "
            "of the players whose ID numbers are listed. An unknown entry or number checks in "
            "nobody and is named (400)."
        ),
        request=BulkCheckInSerializer,
        responses={200: BulkCheckInResultSerializer, **refused(400, 401, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        category = self.category(request, pk)
        data = parse(BulkCheckInSerializer, request)
        whom: dict = {"everyone": True}
        if "entries" in data:
            whom = {"entries": data["entries"]}
        elif "numbers" in data:
            whom = {"numbers": list(dict.fromkeys(data["numbers"]))}
        done = check_in_many(request.user, category.tournament, category=category, **whom)
        return Response(BulkCheckInResultSerializer(done).data)
