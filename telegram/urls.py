"""The telegram app's addresses, under /telegram/ (config/urls.py): the webhook Telegram posts
the bot's updates to, and the Mini App's page and sign-in."""

from django.urls import path

from telegram import views

app_name = "telegram"

urlpatterns = [
    path("webhook/<str:secret>/", views.webhook, name="webhook"),
    path("app/", views.app, name="app"),
    path("app/login/", views.app_login, name="app_login"),
]

# Where the webhook was until Telegram became an app of its own (/notifications/telegram/): a
# bot whose webhook was set then posts there until `manage.py telegram_webhook` runs again.
before = [path("<str:secret>/", views.webhook)]
