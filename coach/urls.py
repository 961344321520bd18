"""coach's addresses (under /coach/): a match's review, and practice from your own mistakes."""

from django.urls import path  # noqa: F401 - the patterns below use it

app_name = "coach"

# The review of played matches.
urlpatterns = []

# Practice.
urlpatterns += []
