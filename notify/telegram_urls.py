"""The Telegram pages under /notifications/telegram/ (config/urls.py): linking and unlinking
on the account's Notifications page, and the telegram app's webhook, in the path where
webhooks set before point."""

from django.urls import path

from notify import telegram_views
from telegram import urls as telegram_urls

app_name = "telegram"

urlpatterns = [
    path("link/", telegram_views.link, name="link"),
    path("unlink/", telegram_views.unlink, name="unlink"),
    *telegram_urls.urlpatterns,
]
