"""URLs of claims and privacy, at the root as they were when the games app had them."""

from django.urls import path

from claims import views

app_name = "claims"

urlpatterns = [
    path("claims/", views.claims, name="claims"),
    path("claims/ask/<int:guest>/", views.ask, name="claim_ask"),
    path("claims/link/<int:guest>/", views.link, name="claim_link"),
    path("claims/<int:pk>/decide/", views.decide, name="claim_decide"),
    path("claims/<int:pk>/withdraw/", views.withdraw, name="claim_withdraw"),
    path("privacy/", views.privacy, name="privacy"),
]
