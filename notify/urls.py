"""notify's addresses (under /notifications/): the account's Notifications page, its test
message, the e-mails' unsubscribe link, and a browser's web push subscription."""

from django.urls import path

from notify import push_views, views

app_name = "notify"

urlpatterns = [
    path("", views.settings_page, name="settings"),
    path("test/", views.test_message, name="test"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("push/subscribe/", push_views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", push_views.push_unsubscribe, name="push_unsubscribe"),
    path("push/renew/", push_views.push_renew, name="push_renew"),
]
