"""The API's routes: the reads here, the commands' from their declarations
(floor.api.commands)."""

from django.urls import path

from floor.api import auth_views as auth
from floor.api import floor_views as fv
from floor.api import identity_views, views
from floor.api.commands import FLOOR_ENDPOINTS
from floor.kernel.web.endpoints import url_patterns

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
    path("sectors/<uuid:sector_id>/", views.SectorDetailView.as_view(), name="sector"),
    path("tables/", views.TableListView.as_view(), name="tables"),
    path("tables/<uuid:table_id>/", views.TableDetailView.as_view(), name="table"),
    path("sectors/<uuid:sector_id>/floor/", fv.SectorFloorView.as_view(), name="sector-floor"),
    path("balance-groups/", fv.BalanceGroupsView.as_view(), name="balance-groups"),
    path("tables/<uuid:table_id>/floor/", fv.TableFloorView.as_view(), name="table-floor"),
    path("tables/<uuid:table_id>/hands/", fv.TableHandsView.as_view(), name="table-hands"),
    path("tables/<uuid:table_id>/history/", fv.TableHistoryView.as_view(), name="table-history"),
    path("players/<uuid:player_id>/", fv.PlayerDetailView.as_view(), name="player"),
    path(
        "players/<uuid:player_id>/history/", fv.PlayerHistoryView.as_view(), name="player-history"
    ),
    path("players/<uuid:player_id>/hours/", fv.PlayerHoursView.as_view(), name="player-hours"),
    path(
        "players/<uuid:player_id>/personal-data/",
        identity_views.PersonalDataView.as_view(),
        name="player-personal-data",
    ),
    *url_patterns(FLOOR_ENDPOINTS),
]
