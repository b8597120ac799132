"""Imports of past results and an event's results file, through the API.

The same steps, permissions and words as the record keepers' pages
(``scoring.record.import_views``): ``POST /api/record/imports/`` reads a file and answers its
preview (nothing of the record is written), ``POST /api/record/imports/{id}/confirm/`` writes
it, ``GET /api/tournaments/{slug}/results.csv`` downloads an event's results in the Crokinole
Reference layout (anyone once the tournament is published, its organizers before).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.views import ScoringErrorsMixin, parse, refusals
from scoring.models.record import RecordImport
from scoring.record import importing
from scoring.record.export_views import csv_response
from scoring.record.exporting import export_refusal
from scoring.record.import_actions import confirm_record_import, preview_record_import
from tournaments.actions import Forbidden
from tournaments.models import Tournament


class RecordUploadSerializer(serializers.Serializer):
    """A file to preview: uploaded (multipart ``file``) or as text (``content``)."""

    file = serializers.FileField(
        required=False, help_text=_("The file, uploaded (multipart/form-data).")
    )
    content = serializers.CharField(
        required=False,
        trim_whitespace=False,
        help_text=_("The file's text, instead of an upload (JSON)."),
    )
    filename = serializers.CharField(required=False, allow_blank=True, default="")
    layout = serializers.ChoiceField(
        choices=RecordImport.Layout.choices, default=RecordImport.Layout.CROKINOLE_REFERENCE
    )
    #: Words, not an enum: "fingers" or "cue" (the service refuses anything else in words).
    discipline = serializers.CharField(
        default="fingers",
        help_text=_("fingers or cue: a Crokinole Reference file does not say."),
    )

    def validate(self, data: dict) -> dict:
        if not data.get("file") and not data.get("content"):
            raise serializers.ValidationError(
                {"file": [_("Give the file (an upload) or its text (content).")]}
            )
        return data


class RecordConfirmSerializer(serializers.Serializer):
    skip_bad_lines = serializers.BooleanField(
        default=False,
        help_text=_(
            "True: write the other games and leave the file's bad lines out. False (the "
            "default): a file with bad lines is refused and nothing is written."
        ),
    )


class RecordImportSerializer(serializers.ModelSerializer):
    """An import: its preview (``summary``: counts, new and matched people, bad and skipped
    lines by number) and, once confirmed, what was written (``summary.written``)."""

    created_by = serializers.CharField(
        source="created_by.username", read_only=True, allow_null=True
    )
    layout = serializers.CharField(
        read_only=True, help_text=_("crokinole-reference or app-export.")
    )
    status = serializers.CharField(
        read_only=True, help_text=_("previewed, then confirmed once written into the record.")
    )
    detail = serializers.SerializerMethodField()

    class Meta:
        model = RecordImport
        fields = [
            "id",
            "layout",
            "status",
            "filename",
            "summary",
            "created_by",
            "created_at",
            "confirmed_at",
            "detail",
        ]
        read_only_fields = fields

    def get_detail(self, obj: RecordImport) -> str:
        if obj.status == RecordImport.Status.CONFIRMED:
            return importing.written_message(obj)
        return ""


def _record_keeper(request: Request) -> None:
    """The pages' refusal, in the same words (403)."""
    refused = preview_record_import.forbidden(request.user, None)
    if refused is not None:
        raise refused


class RecordImportsView(ScoringErrorsMixin, APIView):
    """Preview a file of past results (nothing of the record is written)."""

    parser_classes = [MultiPartParser, FormParser, JSONParser]

    @extend_schema(
        summary=_("Preview an import of past results"),
        description=_(
            "Reads the file (Crokinole Reference CSV, or this app's tournament export) and "
            "keeps it with its preview: games new and recorded already, new and matched "
            "people, bad lines by number and column. Nothing is written into the record until "
            "it is confirmed. For the site's record keepers (its staff accounts)."
        ),
        request={
            "multipart/form-data": RecordUploadSerializer,
            "application/json": RecordUploadSerializer,
        },
        responses={201: RecordImportSerializer, **refusals(400, 403)},
    )
    def post(self, request: Request) -> Response:
        _record_keeper(request)
        data = parse(RecordUploadSerializer, request)
        upload = data.get("file")
        content = upload.read() if upload else data["content"]
        filename = data.get("filename") or (upload.name if upload else "")
        record_import = preview_record_import(
            request.user,
            None,
            content=content,
            filename=filename,
            layout=data["layout"],
            discipline=data["discipline"],
        )
        return Response(RecordImportSerializer(record_import).data, status=status.HTTP_201_CREATED)


class RecordImportView(ScoringErrorsMixin, APIView):
    """One import's preview, or what it wrote."""

    @extend_schema(
        summary=_("An import's preview"),
        responses={200: RecordImportSerializer, **refusals(403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        _record_keeper(request)
        record_import = get_object_or_404(RecordImport, pk=pk)
        return Response(RecordImportSerializer(record_import).data)


class RecordImportConfirmView(ScoringErrorsMixin, APIView):
    """Write a previewed import into the record."""

    @extend_schema(
        summary=_("Confirm an import"),
        description=_(
            "Writes the new people and games of a previewed import, all or nothing; games "
            "recorded already are left as they are. Refused (400) when the file has bad lines "
            "and skip_bad_lines is not true, (409) when it was confirmed already."
        ),
        request=RecordConfirmSerializer,
        responses={200: RecordImportSerializer, **refusals(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        _record_keeper(request)
        record_import = get_object_or_404(RecordImport, pk=pk)
        data = parse(RecordConfirmSerializer, request)
        done = confirm_record_import(
            request.user, record_import, skip_bad_lines=data["skip_bad_lines"]
        )
        return Response(RecordImportSerializer(done).data)


class TournamentRecordCsvView(ScoringErrorsMixin, APIView):
    """An event's results in the Crokinole Reference layout."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary=_("An event's results (Crokinole Reference CSV)"),
        description=_(
            "Every finished game of the tournament, round by round (points and 20s), one line a "
            "game. Anyone may download it once the tournament is published; its organizers "
            "before."
        ),
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR),
            **refusals(403, 404),
        },
    )
    def get(self, request: Request, slug: str):
        tournament = get_object_or_404(Tournament, slug=slug)
        refusal = export_refusal(request.user, tournament)
        if refusal is not None:
            raise Forbidden(refusal)
        return csv_response(tournament)
