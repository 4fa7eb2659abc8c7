from django.urls import path

from ledger.api import converters  # noqa: F401  (registers <gaming_day:...>)
from ledger.api import views as v

app_name = "cage-api"

urlpatterns = [
    path("cage/float/", v.FundCageView.as_view(), name="fund-cage"),
    path("cage/position/", v.CagePositionView.as_view(), name="cage-position"),
    path("cage/gaming-days/", v.GamingDayListView.as_view(), name="gaming-days"),
    path("cage/gaming-days/open/", v.OpenGamingDayView.as_view(), name="open-gaming-day"),
    path("cage/gaming-days/count/", v.CountGamingDayView.as_view(), name="count-gaming-day"),
    path("cage/gaming-days/explain/", v.ExplainDifferenceView.as_view(), name="explain"),
    path("cage/gaming-days/close/", v.CloseGamingDayView.as_view(), name="close-gaming-day"),
    path("cage/gaming-days/<gaming_day:day>/", v.GamingDayDetailView.as_view(), name="gaming-day"),
    path("cage/chips-sold/", v.SellChipsView.as_view(), name="sell-chips"),
    path("cage/cash-outs/", v.CashOutView.as_view(), name="cash-out"),
    path("cage/buy-ins/", v.BuyInAtCageView.as_view(), name="buy-in-at-cage"),
    path("cage/tray-requests/", v.TrayRequestListView.as_view(), name="tray-requests"),
    path(
        "cage/tray-requests/<uuid:request_id>/confirm/",
        v.ConfirmTrayMoveView.as_view(),
        name="confirm-tray-move",
    ),
    path(
        "cage/tray-requests/<uuid:request_id>/cancel/",
        v.CancelTrayMoveView.as_view(),
        name="cancel-tray-move",
    ),
    path(
        "tables/<uuid:table_id>/tray-requests/",
        v.RequestTrayMoveView.as_view(),
        name="request-tray-move",
    ),
    path("tables/<uuid:table_id>/chips-off/", v.ChipsOffView.as_view(), name="chips-off"),
    path("jackpots/", v.JackpotListView.as_view(), name="jackpots"),
    path("jackpots/create/", v.CreateJackpotView.as_view(), name="create-jackpot"),
    path("jackpots/<uuid:jackpot_id>/stakes/", v.StakeJackpotView.as_view(), name="stakes"),
    path("jackpots/<uuid:jackpot_id>/pay/", v.PayJackpotView.as_view(), name="pay-jackpot"),
    path("ledger/accounts/", v.AccountListView.as_view(), name="accounts"),
    path("ledger/transactions/", v.TransactionListView.as_view(), name="transactions"),
    path(
        "ledger/transactions/<uuid:transaction_id>/",
        v.TransactionDetailView.as_view(),
        name="transaction",
    ),
]
