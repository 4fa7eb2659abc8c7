from django.urls import path

from floor.api import auth_views as auth
from floor.api import floor_views as fv
from floor.api import views

app_name = "api"

urlpatterns = [
    path("auth/token/", auth.TokenView.as_view(), name="token"),
    path("auth/logout/", auth.LogoutView.as_view(), name="logout"),
    path("auth/logout-all/", auth.LogoutAllView.as_view(), name="logout-all"),
    path("auth/tokens/", auth.TokenListView.as_view(), name="tokens"),
    path("auth/tokens/<str:prefix>/", auth.TokenDetailView.as_view(), name="token-detail"),
    path("auth/lockouts/", auth.LockoutListView.as_view(), name="lockouts"),
    path("auth/lockouts/lift/", auth.LiftLockoutView.as_view(), name="lift-lockout"),
    path("me/", views.MeView.as_view(), name="me"),
    path("sectors/", views.SectorListView.as_view(), name="sectors"),
    path("sectors/<uuid:sector_id>/", views.SectorDetailView.as_view(), name="sector"),
    path(
        "sectors/<uuid:sector_id>/tables/",
        views.SectorTablesView.as_view(),
        name="sector-tables",
    ),
    path("tables/", views.TableListView.as_view(), name="tables"),
    path("tables/<uuid:table_id>/", views.TableDetailView.as_view(), name="table"),
    path("sectors/<uuid:sector_id>/floor/", fv.SectorFloorView.as_view(), name="sector-floor"),
    path(
        "sectors/<uuid:sector_id>/closing/",
        fv.AnnounceClosingView.as_view(),
        name="announce-closing",
    ),
    path("sectors/<uuid:sector_id>/jefes/", fv.AssignJefesView.as_view(), name="assign-jefes"),
    path("tables/<uuid:table_id>/dealer/", fv.AssignDealerView.as_view(), name="assign-dealer"),
    path("tables/<uuid:table_id>/absence/", fv.StartAbsenceView.as_view(), name="start-absence"),
    path("tables/<uuid:table_id>/absence/end/", fv.EndAbsenceView.as_view(), name="end-absence"),
    path("balance-groups/", fv.BalanceGroupsView.as_view(), name="balance-groups"),
    path("balance-groups/<uuid:group_id>/accept/", fv.AcceptMoveView.as_view(), name="accept-move"),
    path(
        "balance-groups/<uuid:group_id>/override/",
        fv.OverrideMoveView.as_view(),
        name="override-move",
    ),
    path(
        "tables/<uuid:table_id>/table-change-request/",
        fv.RequestTableChangeView.as_view(),
        name="request-table-change",
    ),
    path(
        "tables/<uuid:table_id>/table-change-request/withdraw/",
        fv.WithdrawTableChangeView.as_view(),
        name="withdraw-table-change",
    ),
    path(
        "tables/<uuid:table_id>/grant-table-change/",
        fv.GrantTableChangeView.as_view(),
        name="grant-table-change",
    ),
    path("tables/<uuid:table_id>/break/", fv.BreakTableView.as_view(), name="break-table"),
    path("players/<uuid:player_id>/keep-apart/", fv.KeepApartView.as_view(), name="keep-apart"),
    path(
        "players/<uuid:player_id>/allow-together/",
        fv.AllowTogetherView.as_view(),
        name="allow-together",
    ),
    path(
        "players/<uuid:player_id>/tournament/",
        fv.EnterTournamentView.as_view(),
        name="enter-tournament",
    ),
    path(
        "players/<uuid:player_id>/tournament/leave/",
        fv.LeaveTournamentView.as_view(),
        name="leave-tournament",
    ),
    path("tournament/dinner-break/", fv.DinnerBreakView.as_view(), name="dinner-break"),
    path("tables/<uuid:table_id>/floor/", fv.TableFloorView.as_view(), name="table-floor"),
    path("tables/<uuid:table_id>/hands/", fv.TableHandsView.as_view(), name="table-hands"),
    path("tables/<uuid:table_id>/history/", fv.TableHistoryView.as_view(), name="table-history"),
    path("tables/<uuid:table_id>/draw/", fv.DrawSeatsView.as_view(), name="draw-seats"),
    path("tables/<uuid:table_id>/seat/", fv.SeatPlayerView.as_view(), name="seat-player"),
    path(
        "tables/<uuid:table_id>/seat-change-request/",
        fv.RequestSeatChangeView.as_view(),
        name="request-seat-change",
    ),
    path(
        "tables/<uuid:table_id>/seat-change-request/withdraw/",
        fv.WithdrawSeatChangeView.as_view(),
        name="withdraw-seat-change",
    ),
    path("tables/<uuid:table_id>/call-next/", fv.CallNextView.as_view(), name="call-next"),
    path("tables/<uuid:table_id>/change-seat/", fv.ChangeSeatView.as_view(), name="change-seat"),
    path("tables/<uuid:table_id>/leave/", fv.LeaveTableView.as_view(), name="leave-table"),
    path("tables/<uuid:table_id>/buy-in/", fv.BuyInView.as_view(), name="buy-in"),
    path("tables/<uuid:table_id>/rest/", fv.StartRestView.as_view(), name="start-rest"),
    path("tables/<uuid:table_id>/rest/end/", fv.EndRestView.as_view(), name="end-rest"),
    path("tables/<uuid:table_id>/close/", fv.CloseTableView.as_view(), name="close-table"),
    path("tables/<uuid:table_id>/hands/start/", fv.StartHandView.as_view(), name="start-hand"),
    path("tables/<uuid:table_id>/hands/end/", fv.EndHandView.as_view(), name="end-hand"),
    path(
        "tables/<uuid:table_id>/banked-hands/",
        fv.SettleBankedHandView.as_view(),
        name="settle-banked-hand",
    ),
    path(
        "tables/<uuid:table_id>/banked-hands/preview/",
        fv.PreviewBankedHandView.as_view(),
        name="preview-banked-hand",
    ),
    path(
        "tables/<uuid:table_id>/hands/settlement/",
        fv.PreviewSettlementView.as_view(),
        name="preview-settlement",
    ),
    path(
        "tables/<uuid:table_id>/action-clock/start/",
        fv.StartActionClockView.as_view(),
        name="start-action-clock",
    ),
    path(
        "tables/<uuid:table_id>/action-clock/stop/",
        fv.StopActionClockView.as_view(),
        name="stop-action-clock",
    ),
    path("players/", fv.PlayerListView.as_view(), name="players"),
    path("players/<uuid:player_id>/", fv.PlayerDetailView.as_view(), name="player"),
    path(
        "players/<uuid:player_id>/history/", fv.PlayerHistoryView.as_view(), name="player-history"
    ),
    path("players/<uuid:player_id>/bar/", fv.BarPlayerView.as_view(), name="bar-player"),
    path("players/<uuid:player_id>/lift-bar/", fv.LiftBarView.as_view(), name="lift-bar"),
    path("waiting-lists/", fv.WaitingListsView.as_view(), name="waiting-lists"),
    path("waiting-lists/leave/", fv.LeaveWaitingListView.as_view(), name="leave-waiting-list"),
]
