"""REST API routes (Django REST framework)."""

urlpatterns: list = []
