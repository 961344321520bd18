"""The telegram app's URL: the webhook (config/urls.py mounts it with notify's Telegram pages,
under /notifications/telegram/, the "telegram" namespace)."""

from django.urls import path

from telegram import views

urlpatterns = [
    path("<str:secret>/", views.webhook, name="webhook"),
]
