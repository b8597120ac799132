"""Routes of this part (filled in by its module's views)."""

urlpatterns: list = []
