from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from floor.api import views

app_name = "api"

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="token"),
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
]
