from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("<slug:slug>/", views.tournament_detail, name="detail"),
]
