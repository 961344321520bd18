"""URLs of the score sheet."""

from django.urls import path

from core import live
from games import offline_views, views
from games.models import Match

app_name = "games"

urlpatterns = [
    path("rules/", views.rules, name="rules"),
    path("sw.js", offline_views.service_worker, name="service_worker"),
    path("offline/", offline_views.offline, name="offline"),
    path("matches/", views.match_list, name="match_list"),
    path("matches/new/", views.new_match, name="new_match"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/live/", views.match_live, name="match_live"),
    path("matches/<int:pk>/events/", live.events_view(Match), name="match_events"),
    path("matches/<int:pk>/rounds/", views.round_new, name="round_new"),
    path("matches/<int:pk>/rounds/send/", views.round_send, name="round_send"),
    path("matches/<int:pk>/rounds/<int:round_id>/", views.round_edit, name="round_edit"),
    path("matches/<int:pk>/rounds/<int:round_id>/delete/", views.round_delete, name="round_delete"),
    path(
        "matches/<int:pk>/rounds/<int:round_id>/confirm/",
        views.round_confirm,
        name="round_confirm",
    ),
    path("matches/<int:pk>/history/", views.match_history, name="history"),
    path("matches/<int:pk>/rematch/", views.rematch, name="rematch"),
    path("matches/<int:pk>/rated/", views.set_rated, name="rated"),
    path("matches/<int:pk>/scorekeepers/", views.scorekeepers, name="scorekeepers"),
    path("matches/<int:pk>/delete/", views.match_delete, name="match_delete"),
    path("matches/<int:pk>/leave/", views.leave, name="leave"),
    path("large-print/", views.switch_large_print, name="large_print"),
]
