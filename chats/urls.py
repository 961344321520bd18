"""chats' addresses, under /chats/ (config/urls.py)."""

from django.urls import path

from chats import views

app_name = "chats"

urlpatterns = [
    path("clubs/<slug:slug>/code/", views.new_code, name="club_code"),
    path("clubs/<slug:slug>/unlink/", views.unlink, name="club_unlink"),
]
