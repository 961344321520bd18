"""URLs of clubs: a club's page, its members and nights (clubs.views), its seasons
(clubs.season_views)."""

from django.urls import path

from clubs import season_views, views

app_name = "clubs"

urlpatterns = [
    # --- a club, its members and nights (clubs.views) ---
    path("", views.club_list, name="list"),
    path("new/", views.club_new, name="new"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/settings/", views.club_edit, name="edit"),
    path("<slug:slug>/members/", views.members, name="members"),
    path("<slug:slug>/members/<int:member_pk>/", views.member_action, name="member"),
    path("<slug:slug>/invitation/", views.new_invitation, name="new_invitation"),
    path("<slug:slug>/invitation.svg", views.invitation_qr, name="invitation_qr"),
    path("<slug:slug>/join/<str:code>/", views.join, name="join"),
    path("<slug:slug>/ask/", views.ask_to_join, name="ask"),
    path("<slug:slug>/requests/<int:request_pk>/", views.join_request, name="request"),
    path("<slug:slug>/nights/new/", views.night_new, name="night_new"),
    path("<slug:slug>/nights/<int:pk>/roll-call/", views.roll_call, name="roll_call"),
    # --- seasons, their tables and awards, shared and embedded (clubs.season_views) ---
    path("<slug:slug>/seasons/", season_views.season_list, name="seasons"),
    path("<slug:slug>/seasons/new/", season_views.season_new, name="season_new"),
    path("<slug:slug>/seasons/<int:season_id>/", season_views.season_detail, name="season"),
    path("<slug:slug>/seasons/<int:season_id>/edit/", season_views.season_edit, name="season_edit"),
    path(
        "<slug:slug>/seasons/<int:season_id>/close/",
        season_views.season_close,
        name="season_close",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/table.json",
        season_views.season_json,
        name="season_json",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/table.csv",
        season_views.season_csv,
        name="season_csv",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/print/",
        season_views.season_print,
        name="season_print",
    ),
    path(
        "<slug:slug>/seasons/<int:season_id>/embed/",
        season_views.season_embed,
        name="season_embed",
    ),
    path("<slug:slug>/last-night.json", season_views.last_night_json, name="last_night_json"),
    path("<slug:slug>/last-night.csv", season_views.last_night_csv, name="last_night_csv"),
]
