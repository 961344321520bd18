"""The site's URLs and one page of the tests' own: the web push panel on a page of its own,
as the Notifications page shows it (tests/browser/test_push.py)."""

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path

from config.urls import urlpatterns as site
from notify.channels import CHANNELS

PAGE = engines["django"].from_string(
    """{% extends "base.html" %}{% load i18n %}{% block main %}
<h1>{% translate "Notifications" %}</h1>
{% include panel_template %}
{% endblock %}"""
)


def panel_page(request: HttpRequest) -> HttpResponse:
    channel = CHANNELS["push"]
    context = {"panel_template": channel.panel_template, **channel.panel_context(request)}
    return HttpResponse(PAGE.render(context, request))


urlpatterns = [*site, path("test/push-panel/", panel_page)]
