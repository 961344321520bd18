"""URLs of the score sheet."""

from django.urls import path

from games import offline_views, play_views, views

app_name = "games"

urlpatterns = [
    # Played tables first: their polls are the most frequent requests of the site.
    path("play/", play_views.lobby, name="lobby"),
    path("play/new/", play_views.table_new, name="play_new"),
    path("play/join/<str:invite>/", play_views.join_link, name="play_invite"),
    path("play/<int:pk>/", play_views.table_detail, name="play"),
    path("play/<int:pk>/join/", play_views.join, name="play_join"),
    path("play/<int:pk>/move/", play_views.move, name="play_move"),
    path("play/<int:pk>/next/", play_views.next_round, name="play_next"),
    path("play/<int:pk>/back/", play_views.come_back, name="play_back"),
    path("play/<int:pk>/rematch/", play_views.rematch, name="play_rematch"),
    path("play/<int:pk>/rounds/<int:number>/", play_views.replay, name="play_replay"),
    path("rules/", views.rules, name="rules"),
    path("sw.js", offline_views.service_worker, name="service_worker"),
    path("offline/", offline_views.offline, name="offline"),
    path("matches/", views.match_list, name="match_list"),
    path("matches/new/", views.new_match, name="new_match"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/live/", views.match_live, name="match_live"),
    path("matches/<int:pk>/rounds/", views.round_new, name="round_new"),
    path("matches/<int:pk>/rounds/send/", views.round_send, name="round_send"),
    path("matches/<int:pk>/rounds/<int:round_id>/", views.round_edit, name="round_edit"),
    path("matches/<int:pk>/rounds/<int:round_id>/delete/", views.round_delete, name="round_delete"),
    path("matches/<int:pk>/history/", views.match_history, name="history"),
    path("matches/<int:pk>/rematch/", views.rematch, name="rematch"),
    path("matches/<int:pk>/rated/", views.set_rated, name="rated"),
    path("matches/<int:pk>/scorekeepers/", views.scorekeepers, name="scorekeepers"),
    path("matches/<int:pk>/delete/", views.match_delete, name="match_delete"),
    path("matches/<int:pk>/leave/", views.leave, name="leave"),
]
