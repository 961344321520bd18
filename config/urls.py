"""Root URLs: the home page, the games and tournaments apps, accounts (allauth), language
switch, admin."""

from django.contrib import admin
from django.urls import include, path

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("", include("games.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
