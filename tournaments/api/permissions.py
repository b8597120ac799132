"""Who may write through the tournament endpoints.

Reading is public (the default ``IsAuthenticatedOrReadOnly`` lets anyone read and only signed-in
users write); changing a tournament or anything in it needs ``tournaments.manage_tournament`` on
that tournament, i.e. its organizer role. The object a create is about (the tournament of a new
category, the category of a new entry) is checked the same way before anything is saved.
"""

from django.utils.translation import gettext_lazy
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView


class ManageTournamentOrReadOnly(BasePermission):
    message = gettext_lazy("Only the tournament's organizers may change it.")

    def has_object_permission(self, request: Request, view: APIView, obj: object) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return request.user.has_perm("tournaments.manage_tournament", obj)
