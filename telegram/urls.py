"""The telegram app's addresses, under /telegram/ (config/urls.py): the webhook Telegram posts
the bot's updates to."""

from django.urls import path

from telegram import views

app_name = "telegram"

urlpatterns = [
    path("webhook/<str:secret>/", views.webhook, name="webhook"),
]
