from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("<slug:slug>/stages/<int:stage_id>/standings/", views.stage_standings, name="standings"),
]
