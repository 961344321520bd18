"""URLs of player statistics."""

from django.urls import path

from stats import views

app_name = "stats"

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("leaderboard.csv", views.leaderboard_export, name="leaderboard_csv"),
    path("<int:pk>/matches.csv", views.player_export, {"format": "csv"}, name="player_csv"),
    path("<int:pk>/matches.json", views.player_export, {"format": "json"}, name="player_json"),
    path("<int:pk>/", views.profile, name="profile"),
    path("<int:pk>/vs/<int:other>/", views.head_to_head, name="head_to_head"),
]
