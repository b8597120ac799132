"""Tournament endpoints: thin viewsets over serializers and the services of the organizer pages.

Every write (create, change, delete) goes through ``tournaments.services``: the serializers
check the shape of a request, the services decide and say why, in the words the pages show.

Anyone may read; signed-in users may create a tournament (and become its organizer); the rest of
the writes need the organizer role on the tournament concerned. Every list is fetched with its
related rows joined or prefetched, so a page of 100 costs as many queries as a page of 3.
"""

from django.db import transaction
from django.db.models import Model, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework import serializers as drf_serializers
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from scoring.rulings import actions as rulings
from tournaments.api import filters, serializers
from tournaments.api.actions import refused
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.permissions import ManageTournamentOrReadOnly
from tournaments.api.registry import PersonChoiceSerializer, person_choice_answer
from tournaments.models import (
    ENTRY_PEOPLE,
    Category,
    Entry,
    Game,
    Match,
    Player,
    Stage,
    Team,
    Tournament,
    people_paths,
)
from tournaments.services import categories, entries, people, registration
from tournaments.services.links import link_of, renew_link
from tournaments.staff_actions import delete_tournament


class PrivateLinkSerializer(drf_serializers.Serializer):
    entry = drf_serializers.IntegerField()
    url = drf_serializers.URLField()
    renewed_at = drf_serializers.DateTimeField()


class TournamentResourceViewSet(ServiceErrorsMixin, viewsets.ModelViewSet):
    """Read for everyone; create, change and delete for the tournament's organizers."""

    permission_classes = [IsAuthenticatedOrReadOnly, ManageTournamentOrReadOnly]
    #: The validated field whose tournament the organizer check applies to on create.
    parent_field = ""

    # Each write runs in its own savepoint: should the database still refuse it (a race with
    # another request), only the savepoint rolls back and the error becomes a 409, not a 500.

    def perform_create(self, serializer: BaseSerializer) -> None:
        # The parent is known only once the body is parsed, so the organizer check comes here.
        if self.parent_field:
            self.check_object_permissions(
                self.request, serializer.validated_data[self.parent_field]
            )
        with transaction.atomic():
            serializer.save()

    def perform_update(self, serializer: BaseSerializer) -> None:
        with transaction.atomic():
            serializer.save()

    def perform_destroy(self, instance: Model) -> None:
        with transaction.atomic():
            self.remove(instance)

    def remove(self, instance: Model) -> None:
        """Remove the row through its service, which refuses what results still rest on."""
        raise NotImplementedError


@extend_schema_view(
    create=extend_schema(
        description=gettext_lazy("Create a tournament; you become its organizer.")
    ),
)
class TournamentViewSet(
    ServiceErrorsMixin,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    """Tournaments, by slug. Deleting one (and everything played in it) is the step of the
    delete page, ``tournaments.delete_tournament``: its organizer's only, with its web address
    or name typed again."""

    queryset = Tournament.objects.all()
    serializer_class = serializers.TournamentSerializer
    permission_classes = [IsAuthenticatedOrReadOnly, ManageTournamentOrReadOnly]
    lookup_field = "slug"

    def get_queryset(self) -> QuerySet[Tournament]:
        """The list is the front page's: published tournaments and the user's own drafts and dry
        runs' copies. One tournament is read by its slug, as its pages are."""
        tournaments = Tournament.objects.all()
        if self.action != "list":
            return tournaments
        listed = Q(published=True, dry_run_copy__isnull=True)
        if self.request.user.is_authenticated:
            listed |= Q(roles__user=self.request.user)
        return tournaments.filter(listed).distinct()

    @extend_schema(
        summary=gettext_lazy("Delete the tournament and everything in it"),
        description=gettext_lazy(
            "For good: its categories, players, teams, matches, results and scorecards. Only its "
            "organizer (not a co-organizer) may, with its web address or its name typed again in "
            "`confirm`, as on the delete page; download `/t/{slug}/export/` first to keep a copy."
        ),
        parameters=[
            OpenApiParameter(
                "confirm",
                str,
                required=True,
                description=gettext_lazy("The tournament's web address (slug) or its name."),
            )
        ],
        request=None,
        responses={204: None, **refused(400, 401, 403, 404)},
    )
    def destroy(self, request: Request, slug: str | None = None) -> Response:
        """The delete page's step, with its refusals in the page's words (the organizer check
        of the other writes would say "organizers", where a co-organizer may not delete)."""
        tournament = get_object_or_404(Tournament, slug=slug)
        delete_tournament(request.user, tournament, confirm=request.query_params.get("confirm", ""))
        return Response(status=204)


class CategoryViewSet(TournamentResourceViewSet):
    serializer_class = serializers.CategorySerializer
    filterset_class = filters.CategoryFilter
    parent_field = "tournament"

    def get_queryset(self) -> QuerySet[Category]:
        return Category.objects.select_related("tournament").order_by("tournament_id", "name")

    def remove(self, instance: Category) -> None:
        categories.delete_category(category=instance)


@extend_schema_view(
    create=extend_schema(
        responses={
            201: serializers.PlayerSerializer,
            400: PersonChoiceSerializer,
        },
        description=gettext_lazy(
            "Register a player. When the registry of people knows someone like them and neither "
            "``person`` nor ``new_person`` says who they are, nothing is saved and the answer is "
            "400 with the registration page's question (``person``) and the ``candidates``."
        ),
    )
)
class PlayerViewSet(TournamentResourceViewSet):
    serializer_class = serializers.PlayerSerializer
    filterset_class = filters.PlayerFilter
    parent_field = "tournament"

    def create(self, request: Request, *args, **kwargs) -> Response:
        """The registration; the registry's question as a 400 with its candidates."""
        try:
            return super().create(request, *args, **kwargs)
        except registration.PersonChoiceNeeded as exc:
            return person_choice_answer(exc)

    def get_queryset(self) -> QuerySet[Player]:
        return Player.objects.select_related("tournament").order_by("last_name", "first_name", "id")

    def remove(self, instance: Player) -> None:
        people.delete_player(player=instance)


class TeamViewSet(TournamentResourceViewSet):
    serializer_class = serializers.TeamSerializer
    filterset_class = filters.TeamFilter
    parent_field = "tournament"

    def get_queryset(self) -> QuerySet[Team]:
        return Team.objects.select_related("tournament", "player_one", "player_two").order_by("id")

    def remove(self, instance: Team) -> None:
        people.delete_team(team=instance)


class EntryViewSet(TournamentResourceViewSet):
    serializer_class = serializers.EntrySerializer
    filterset_class = filters.EntryFilter
    parent_field = "category"

    def get_queryset(self) -> QuerySet[Entry]:
        return Entry.objects.select_related("category__tournament", *ENTRY_PEOPLE).order_by(
            "category_id", "seed", "id"
        )

    def remove(self, instance: Entry) -> None:
        entries.delete_entry(entry=instance)

    def perform_update(self, serializer: BaseSerializer) -> None:
        """A change of ``withdrawn`` is the ruling's step (``scoring.withdraw_entry`` or
        ``scoring.reinstate_entry``, as ``POST /api/entries/{id}/withdraw/`` and ``reinstate/``
        take them: their permission, their words, the knockout matches a walkover decides
        opened), taken before the rest of the change and in its transaction, so that a request
        that withdraws and checks in at once is refused as a whole."""
        entry = serializer.instance
        withdrawn = serializer.validated_data.pop("withdrawn", entry.withdrawn)
        with transaction.atomic():
            if withdrawn != entry.withdrawn:
                step = rulings.withdraw_entry if withdrawn else rulings.reinstate_entry
                step(self.request.user, entry)
                entry.refresh_from_db()
            serializer.save()

    def _private_link(self, request: Request, entry: Entry, link) -> Response:
        path = reverse("scoring:private_link", args=[entry.category.tournament.slug, link.token])
        return Response(
            {
                "entry": entry.id,
                "url": request.build_absolute_uri(path),
                "renewed_at": link.renewed_at,
            }
        )

    @extend_schema(
        summary=gettext_lazy("The entry's private link"),
        description=gettext_lazy(
            "The link that opens the entry's scorecards without an account (organizers "
            "only: whoever holds it fills the entry's card and validates its opponents' rows)."
        ),
        request=None,
        responses={200: PrivateLinkSerializer},
    )
    @action(detail=True, methods=["get"], url_path="private-link")
    def private_link(self, request: Request, pk: str | None = None) -> Response:
        entry = self.get_object()
        if not request.user.has_perm("tournaments.manage_tournament", entry):
            raise PermissionDenied(gettext("Only the tournament's organizers see private links."))
        return self._private_link(request, entry, link_of(entry))

    @extend_schema(
        summary=gettext_lazy("Renew the entry's private link"),
        description=gettext_lazy("A new link: the old one stops opening anything at once."),
        request=None,
        responses={200: PrivateLinkSerializer},
    )
    @action(detail=True, methods=["post"], url_path="private-link/renew")
    def renew_private_link(self, request: Request, pk: str | None = None) -> Response:
        entry = self.get_object()  # the organizer check of every write
        return self._private_link(request, entry, renew_link(entry))


class StageViewSet(TournamentResourceViewSet):
    serializer_class = serializers.StageSerializer
    filterset_class = filters.StageFilter
    parent_field = "category"

    def get_queryset(self) -> QuerySet[Stage]:
        return Stage.objects.select_related("category__tournament").order_by("category_id", "order")

    def remove(self, instance: Stage) -> None:
        registration.delete_stage(stage=instance)


class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    """Matches with their games and official rounds. Draws create them; results arrive through
    the scorecards, so there is nothing to write here."""

    serializer_class = serializers.MatchSerializer
    filterset_class = filters.MatchFilter

    def get_queryset(self) -> QuerySet[Match]:
        people = [*people_paths("entry_a", "entry_b", "entry_c")]
        return Match.objects.select_related("pool", "board", *people).prefetch_related(
            Prefetch("games", queryset=Game.objects.prefetch_related("rounds"))
        )
