"""The account's Notifications page, its test message and the e-mails' unsubscribe link."""

from django.urls import path

from notify import views

app_name = "notify"

urlpatterns = [
    path("", views.settings_page, name="settings"),
    path("test/", views.test_message, name="test"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
