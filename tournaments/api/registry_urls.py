"""The registry's API routes (inside the ``api`` namespace): ``api:person-list``,
``api:person-detail``, ``api:person-merge``, ``api:person-claim``, ``api:person-matches``
(``tournaments.api.registry``)."""

from rest_framework.routers import SimpleRouter

from tournaments.api.registry import PersonViewSet

router = SimpleRouter()
router.register("people", PersonViewSet, basename="person")

urlpatterns: list = router.urls
