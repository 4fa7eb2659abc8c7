"""The cage report's endpoint, on the floor's reports API: GET only, filtered,
paginated, JSON or CSV, as every report (floor.ports.report_reads)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request

from floor.ports.report_reads import (
    FILTER_PARAMETERS,
    REPORT_REFUSALS,
    ReportView,
    by_parameter,
    json_or_csv,
    page_of,
    parameter,
)
from ledger.reports import cage, cage_moves


class CageReportView(ReportView):
    name = "cage"
    reads = "report_cage"
    default_by = "day"

    @property
    def shapes(self):
        """by=day, or by=transaction narrowed to the ``kind`` asked (read per request)."""
        kinds = cage_moves.parse_kinds(self.request.query_params.get("kind"))
        return {
            "day": (cage.cage_days_report, cage.COLUMNS),
            "transaction": (
                lambda report: cage_moves.cage_moves_report(report, kinds),
                cage_moves.COLUMNS,
            ),
        }

    @extend_schema(
        parameters=[
            *FILTER_PARAMETERS,
            by_parameter(["day", "transaction"], "day"),
            parameter(
                "kind",
                "text",
                "by=transaction: fill, credit or exception (comma-separated)",
                pattern=r"^(fill|credit|exception)(,(fill|credit|exception))*$",
            ),
        ],
        responses={**json_or_csv(page_of("cage_report")), **REPORT_REFUSALS},
        summary="Cage: each gaming day's position and flows; fills, credits, exceptions",
    )
    def get(self, request: Request):
        """by=day: each gaming day's opening, money moved, differences and the
        cage's position; by=transaction: each fill and credit (asked, confirmed
        or cancelled and why) and each count difference with its reason."""
        return super().get(request)
