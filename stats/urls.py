"""URLs of player statistics."""

from django.urls import path

from stats import views

app_name = "stats"

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("<int:pk>/", views.profile, name="profile"),
    path("<int:pk>/vs/<int:other>/", views.head_to_head, name="head_to_head"),
]
