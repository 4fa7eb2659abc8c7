"""The floor's reports' URLs, under /api/reports/ (the cage's: ledger.reports.urls)."""

from django.urls import path

from floor.reports import exclusion_refusals, views

urlpatterns = [
    path("tables/", views.TablesReportView.as_view(), name="report-tables"),
    path("rake/", views.RakeReportView.as_view(), name="report-rake"),
    path("waiting-lists/", views.WaitingListsReportView.as_view(), name="report-waiting-lists"),
    path("clocks/", views.ClocksReportView.as_view(), name="report-clocks"),
    path("occupancy/", views.OccupancyReportView.as_view(), name="report-occupancy"),
    path("players/", views.PlayersReportView.as_view(), name="report-players"),
    path("game-hours/", views.GameHoursReportView.as_view(), name="report-game-hours"),
    path("dealers/", views.DealersReportView.as_view(), name="report-dealers"),
    path(
        "exclusion-refusals/",
        exclusion_refusals.ExclusionRefusalsReportView.as_view(),
        name="report-exclusion-refusals",
    ),
    path("history/", views.HistoryReportView.as_view(), name="report-history"),
    path("tables/<str:table_id>/at/", views.TableAtReportView.as_view(), name="report-table-at"),
]
