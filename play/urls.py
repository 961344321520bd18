"""URLs of tables played on the site (under /play/, mounted before games' URLs)."""

from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    # Their polls are the most frequent requests of the site.
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="new"),
    path("join/<str:invite>/", views.join_link, name="invite"),
    path("<int:pk>/", views.table_detail, name="table"),
    path("<int:pk>/join/", views.join, name="join"),
    path("<int:pk>/move/", views.move, name="move"),
    path("<int:pk>/next/", views.next_round, name="next"),
    path("<int:pk>/back/", views.come_back, name="back"),
    path("<int:pk>/rematch/", views.rematch, name="rematch"),
    path("<int:pk>/rounds/<int:number>/", views.replay, name="replay"),
    path("<int:pk>/chances/", views.chances, name="chances"),
]
