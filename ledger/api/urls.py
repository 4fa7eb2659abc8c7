"""The cage API's routes: the reads here, the commands' from their declarations
(ledger.api.commands)."""

from django.urls import path

from floor.kernel.web.endpoints import url_patterns
from ledger.api import converters  # noqa: F401  (registers <gaming_day:...>)
from ledger.api import views as v
from ledger.api.commands import CAGE_ENDPOINTS

app_name = "cage-api"

urlpatterns = [
    path("cage/position/", v.CagePositionView.as_view(), name="cage-position"),
    path("cage/gaming-days/", v.GamingDayListView.as_view(), name="gaming-days"),
    path("cage/gaming-days/<gaming_day:day>/", v.GamingDayDetailView.as_view(), name="gaming-day"),
    path("cage/tray-requests/", v.TrayRequestListView.as_view(), name="tray-requests"),
    path("jackpots/", v.JackpotListView.as_view(), name="jackpots"),
    path("ledger/accounts/", v.AccountListView.as_view(), name="accounts"),
    path("ledger/transactions/", v.TransactionListView.as_view(), name="transactions"),
    path(
        "ledger/transactions/<uuid:transaction_id>/",
        v.TransactionDetailView.as_view(),
        name="transaction",
    ),
    *url_patterns(CAGE_ENDPOINTS),
]
