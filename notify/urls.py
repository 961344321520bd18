"""notify's addresses (under /notifications/): the account's Notifications page, its test
message, the e-mails' unsubscribe link, a browser's web push subscription, and linking a
Telegram chat (the bot's own addresses, its webhook, are the telegram app's)."""

from django.urls import path

from notify import push_views, telegram_views, views

app_name = "notify"

urlpatterns = [
    path("", views.settings_page, name="settings"),
    path("test/", views.test_message, name="test"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("push/subscribe/", push_views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", push_views.push_unsubscribe, name="push_unsubscribe"),
    path("push/renew/", push_views.push_renew, name="push_renew"),
    path("telegram/link/", telegram_views.link, name="telegram_link"),
    path("telegram/unlink/", telegram_views.unlink, name="telegram_unlink"),
]
