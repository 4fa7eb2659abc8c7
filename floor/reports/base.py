"""What every report endpoint shares: its readers, its shapes, its schema parts.

A report is a GET that checks its readers once (floor.api.permissions.MayRead),
narrows the filter to the tables they read and answers a JSON page or CSV
(floor.reports.common). The floor's reports subclass ``ReportView`` here; so do
the ledger's, through floor.ports.report_reads, so every report refuses, pages
and exports alike.
"""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from floor.api.permissions import MayRead
from floor.kernel.errors import invalid
from floor.kernel.web.filters import parameter
from floor.reports.common import ReportFilter, answer, parse_filter


def json_or_csv(page: serializers.Serializer) -> dict:
    """A report's 200: a JSON page, or (``format=csv``) every row as CSV."""
    return {(200, "application/json"): page, (200, "text/csv"): OpenApiTypes.STR}


def page_of(name: str) -> serializers.Serializer:
    """The schema of a page of report rows."""
    return inline_serializer(
        name=f"{name}_page",
        fields={
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializers.ListField(child=serializers.DictField()),
        },
    )


def by_parameter(choices: list[str], default: str) -> OpenApiParameter:
    """The ``by`` parameter of a report with several shapes."""
    return parameter("by", "choice", f"Grouping (default {default})", choices=choices)


class ReportView(APIView):
    """A report: its readers, its rows from the filter, its CSV columns."""

    # Who reads it, and how far (floor.domain.reads): a jefe, his sectors' tables.
    permission_classes = [IsAuthenticated, MayRead]
    reads = "reports"
    name = ""
    # by -> (rows from the filter, CSV columns); "" when the report has one shape.
    shapes: dict[str, tuple[Callable[[ReportFilter], list[dict]], tuple[str, ...]]] = {}
    default_by = ""

    def perform_content_negotiation(self, request, force=False):
        """``?format=csv`` and ``Accept: text/csv`` are ours to answer (common.answer):
        DRF would refuse them for want of a CSV renderer."""
        return super().perform_content_negotiation(request, force=True)

    def get(self, request: Request):
        by = request.query_params.get("by", self.default_by)
        if by not in self.shapes:
            raise invalid("report_by_invalid", field="by")
        build, columns = self.shapes[by]
        rows = build(request.reader.narrow_report(parse_filter(request.query_params)))
        return answer(request, rows, columns, f"{self.name}-{by}" if by else self.name)
