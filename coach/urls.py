"""coach's addresses (under /coach/): a match's review, and practice from your own mistakes."""

from django.urls import path

from coach import views

app_name = "coach"

# The review of played matches.
urlpatterns = []

# Practice.
urlpatterns += [
    path("practice/", views.practice_list, name="practice"),
    path("practice/<int:pk>/", views.practice_position, name="practice_position"),
    path("practice/<int:pk>/answer/", views.practice_answer, name="practice_answer"),
]
