"""The service's URLs: console, API and its schema, login, health, metrics."""

from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from floor import admin as staff_admin
from floor.health import healthz
from floor.logins import ConsoleLoginView
from floor.monitoring import metrics
from floor.player import desk as player_desk
from ledger import console as cage
from ledger.api import converters  # noqa: F401  (registers <gaming_day:...>)
from ledger.views import close_report, receipt

urlpatterns = [
    path("", include("floor.urls")),
    path("accounts/login/", ConsoleLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The player's own page (issue 24), and the desk's sign-in codes for players.
    path("jugador/", include("floor.player.urls")),
    path("players/sign-in-code/", player_desk.desk_code, name="player-desk-code"),
    path(
        "api/player-sign-in-codes/",
        player_desk.SignInCodeView.as_view(),
        name="player-sign-in-codes",
    ),
    path("api/reports/", include("floor.reports.urls")),
    path("api/reports/", include("ledger.reports.urls")),
    path("api/", include("floor.api.urls")),
    path("api/", include("ledger.api.urls")),
    path("cage/", cage.console, name="cage-console"),
    path("cage/live/", cage.live, name="cage-live"),
    path("cage/receipts/<uuid:transaction_id>/", receipt, name="receipt"),
    path("cage/gaming-days/<gaming_day:day>/report/", close_report, name="close-report"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("healthz", healthz, name="healthz"),
    # Staff, roles, passwords and lockouts: the director's (floor.admin).
    path("admin/", staff_admin.site.urls),
    path("metrics", metrics, name="metrics"),
]

# Under /api/, the errors Django answers itself are the API's {"code", "message"}.
handler400 = "floor.api.errors.bad_request"
handler404 = "floor.api.errors.not_found"
handler500 = "floor.api.errors.server_error"
