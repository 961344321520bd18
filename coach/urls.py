"""coach's addresses (under /coach/): a match's review, and practice from your own mistakes."""

from django.urls import path

from coach import review_views, views

app_name = "coach"

# The review of played matches.
urlpatterns = [
    path("tables/<int:pk>/", review_views.table_review, name="table_review"),
    path("tables/<int:pk>/round-end/", review_views.round_end, name="round_end"),
]

# Practice.
urlpatterns += [
    path("practice/", views.practice_list, name="practice"),
    path("practice/<int:pk>/", views.practice_position, name="practice_position"),
    path("practice/<int:pk>/answer/", views.practice_answer, name="practice_answer"),
]
