"""URLs of tournaments."""

from django.urls import path

from core import live
from tournaments import views
from tournaments.models import Tournament

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_new, name="new"),
    path("<int:pk>/", views.tournament_detail, name="detail"),
    path("<int:pk>/events/", live.events_view(Tournament), name="events"),
    path("<int:pk>/edit/", views.tournament_edit, name="edit"),
    path("<int:pk>/directors/", views.directors, name="directors"),
    path("<int:pk>/players/", views.players, name="players"),
    path("<int:pk>/players/check-in/", views.check_in_everyone, name="check_in_everyone"),
    path("<int:pk>/players/<int:entrant_pk>/", views.entrant_action, name="entrant"),
    path("<int:pk>/register/", views.register, name="register"),
    path("<int:pk>/unregister/", views.unregister, name="unregister"),
    path("<int:pk>/projector/", views.projector, name="projector"),
    path("<int:pk>/standings.csv", views.standings_csv, name="standings_csv"),
    path("<int:pk>/tables.csv", views.results_csv, name="results_csv"),
    path("<int:pk>/reopen/", views.reopen, name="reopen"),
    path("<int:pk>/finish/", views.finish, name="finish"),
    path("<int:pk>/rounds/seat/", views.seat_round, name="seat"),
    path("<int:pk>/rounds/<int:number>/", views.round_detail, name="round"),
    path("<int:pk>/rounds/<int:number>/cards/", views.table_cards, name="cards"),
    path("<int:pk>/rounds/<int:number>/reseat/", views.reseat_round, name="reseat"),
    path("<int:pk>/rounds/<int:number>/swap/", views.swap, name="swap"),
    path("<int:pk>/rounds/<int:number>/close/", views.close_round, name="close_round"),
    path("<int:pk>/rounds/<int:number>/clock/", views.start_clock, name="clock"),
    path(
        "<int:pk>/rounds/<int:number>/tables/<int:table>/close/",
        views.close_table,
        name="close_table",
    ),
]
