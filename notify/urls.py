"""notify's addresses (under /notify/)."""

from django.urls import path

from notify import push_views

app_name = "notify"

urlpatterns = [
    path("push/subscribe/", push_views.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", push_views.push_unsubscribe, name="push_unsubscribe"),
    path("push/renew/", push_views.push_renew, name="push_renew"),
]
