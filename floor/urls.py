from django.urls import path

from floor import board, views
from floor.console import commands, compliance, sector

app_name = "floor"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.no_icon, name="favicon"),
    path("sectors/<uuid:sector_id>/", views.sector, name="sector"),
    path("sectors/<uuid:sector_id>/live/", sector.live, name="sector-live"),
    path("tables/<uuid:table_id>/", sector.table_view, name="table"),
    path("tables/<uuid:table_id>/live/", sector.table_live, name="table-live"),
    path("console/commands/<str:name>/", commands.console_command, name="console-command"),
    path("console/amount/", commands.amount_preview, name="console-amount"),
    path("board/", board.board, name="board"),
    path("compliance/", compliance.compliance, name="compliance"),
]
