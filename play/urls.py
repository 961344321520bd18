"""URLs of tables played on the site (under /play/, mounted before games' URLs)."""

from django.urls import path

from core import live
from play import views
from play.models import PlayTable

app_name = "play"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="new"),
    path("vacation/", views.vacation, name="vacation"),
    path("join/<str:invite>/", views.join_link, name="invite"),
    path("<int:pk>/", views.table_detail, name="table"),
    path("<int:pk>/events/", live.events_view(PlayTable), name="events"),
    path("<int:pk>/join/", views.join, name="join"),
    path("<int:pk>/move/", views.move, name="move"),
    path("<int:pk>/next/", views.next_round, name="next"),
    path("<int:pk>/back/", views.come_back, name="back"),
    path("<int:pk>/leave/", views.leave, name="leave"),
    path("<int:pk>/fast-forward/", views.fast_forward, name="fast_forward"),
    path("<int:pk>/rematch/", views.rematch, name="rematch"),
    path("<int:pk>/rounds/<int:number>/", views.replay, name="replay"),
    path("<int:pk>/chances/", views.chances, name="chances"),
    path("<int:pk>/round-end/", views.round_end, name="round_end"),
]
