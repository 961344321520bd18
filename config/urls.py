"""Root URLs: the home page, the play, games, claims, tournaments and stats apps, accounts
(allauth), language switch, admin."""

from allauth.account.decorators import secure_admin_login
from allauth.socialaccount import views as socialaccount_views
from allauth.socialaccount.providers.telegram import views as telegram_login_views
from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csp import csp_override

from config import views
from core.limits import limit
from telegram import urls as telegram_urls

# The admin logs in through the site's login page, behind allauth's rate limits; its own
# login form has none.
admin.site.login = secure_admin_login(admin.site.login)

# "Sign in with Telegram" posts to the site, which answers with a redirect to Telegram's login
# page; a browser holds that redirect to the form-action of the page the form is on: this one.
TELEGRAM_LOGIN_FORMS = {
    **settings.SECURE_CSP,
    "form-action": [*settings.SECURE_CSP["form-action"], "https://oauth.telegram.org"],
}

urlpatterns = [
    path("", views.home, name="home"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    # What a browser asks for where a page names no icon (a CSV, a JSON answer opened).
    path("favicon.ico", views.favicon),
    # Played tables first: their polls are the most frequent requests of the site.
    path("play/", include("play.urls")),
    path("", include("games.urls")),
    path("", include("claims.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("clubs/", include("clubs.urls")),
    path("players/", include("stats.urls")),
    path("notifications/", include("notify.urls")),
    path("coach/", include("coach.urls")),
    path("telegram/", include("telegram.urls")),
    path("chats/", include("chats.urls")),
    # Where the webhook was until Telegram became an app of its own: a bot whose webhook was
    # set then goes on posting there until `manage.py telegram_webhook` is run again.
    path("notifications/telegram/", include(telegram_urls.before)),
    # allauth's pages of "Sign in with Telegram" (its Telegram provider) and of third-party
    # accounts, each under a limit like every other post; allauth's own below is then not reached.
    path(
        "accounts/telegram/login/",
        limit("telegram_login")(csp_override(TELEGRAM_LOGIN_FORMS)(telegram_login_views.login)),
        name="telegram_login",
    ),
    path(
        "accounts/telegram/login/callback/",
        limit("telegram_login")(telegram_login_views.callback),
        name="telegram_callback",
    ),
    path(
        "accounts/3rdparty/",
        limit("telegram_login")(socialaccount_views.connections),
        name="socialaccount_connections",
    ),
    path(
        "accounts/3rdparty/signup/",
        limit("telegram_login")(socialaccount_views.signup),
        name="socialaccount_signup",
    ),
    path("accounts/", include("allauth.urls")),
    # Django's own language switch, with a limit like every other post.
    path("i18n/setlang/", limit("language")(views.set_language_kept), name="set_language"),
    path("admin/", admin.site.urls),
]

# Each answers 503 rather than 500 while the database is away (config.views._or_unreachable).
handler400 = "config.views.bad_request"
handler403 = "config.views.forbidden"
handler404 = "config.views.not_found"
# allauth answers its own rate limits (signing up, resetting a password...) with this one.
handler429 = "config.views.rate_limited"
