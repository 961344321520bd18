"""The Telegram channel's URLs, under /notifications/telegram/ (config/urls.py)."""

from django.urls import path

from notify import telegram_views

app_name = "telegram"

urlpatterns = [
    path("link/", telegram_views.link, name="link"),
    path("unlink/", telegram_views.unlink, name="unlink"),
    path("<str:secret>/", telegram_views.webhook, name="webhook"),
]
