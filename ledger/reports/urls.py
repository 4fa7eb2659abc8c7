"""The ledger's reports' URLs, under /api/reports/ beside the floor's
(config.urls includes both; floor.reports.urls)."""

from django.urls import path

from ledger.reports import aml, views, voids

urlpatterns = [
    path("cage/", views.CageReportView.as_view(), name="report-cage"),
    path("voids/", voids.VoidsReportView.as_view(), name="report-voids"),
    path("aml/", aml.AmlReportView.as_view(), name="report-aml"),
]
