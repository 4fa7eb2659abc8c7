"""The entries voided (ANCHORS.md item 8; issue 22): each void with the entry
it reversed, who booked it and who voided it, when, and why (its reason code,
in words, and its note). Read by the cage, the director and the inspector, as
the cage report is (``report_cage``); filtered by when the void was booked
and, for some tables, by the entry's table.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request

from floor.ports.report_reads import (
    FILTER_PARAMETERS,
    REPORT_REFUSALS,
    ReportFilter,
    ReportView,
    iso,
    json_or_csv,
    page_of,
    table_columns,
    table_labels,
)
from ledger import selectors as books
from ledger.reasons import PARAM_LABELS, transaction_reason
from ledger.reports.cage import filtered

TABLE = ("table_id", "sector", "table", "game")
COLUMNS = (
    "gaming_day",
    "voided_at",
    "voided_by",
    "voided_role",
    "void_id",
    "entry_id",
    "entry_kind",
    "entry_at",
    "entry_by",
    "amount_cents",
    *TABLE,
    "reason_code",
    "reason",
    "note",
    "text",
)


def voids_report(report: ReportFilter) -> list[dict]:
    """One row per void, oldest first, within the filter."""
    tables = {t for t in report.table_ids} if filtered(report) else None
    pairs = [
        (void, original)
        for void, original in reversed(books.voids())
        if report.covers(void.at) and (tables is None or void.table_id in tables)
    ]
    labels = table_labels({v.table_id for v, _ in pairs if v.table_id})
    rows = []
    for void, original in pairs:
        params = void.reason_params or {}
        code = params.get("code", "")
        table = labels.get(void.table_id)
        rows.append(
            {
                "gaming_day": void.gaming_day,
                "voided_at": iso(void.at),
                "voided_by": void.actor,
                "voided_role": void.actor_role,
                "void_id": str(void.id),
                "entry_id": str(original.id) if original else void.reference,
                "entry_kind": original.kind if original else params.get("kind", ""),
                "entry_at": iso(original.at) if original else None,
                "entry_by": original.actor if original else None,
                "amount_cents": void.amount_cents,
                **(table_columns(table) if table else dict.fromkeys(TABLE)),
                "reason_code": code,
                "reason": str(PARAM_LABELS["code"].get(code, code)),
                "note": params.get("note", ""),
                "text": transaction_reason(void),
            }
        )
    return rows


class VoidsReportView(ReportView):
    name = "voids"
    reads = "report_cage"
    shapes = {"": (voids_report, COLUMNS)}

    @extend_schema(
        parameters=list(FILTER_PARAMETERS),
        responses={**json_or_csv(page_of("voids_report")), **REPORT_REFUSALS},
        summary="Voided entries: who voided which cage entry, when and why",
    )
    def get(self, request: Request):
        """Each cage entry voided (a chip sale, a cash-out, a fill, a credit):
        the entry, who booked it and when, who voided it and when, its amount,
        the reason code and note."""
        return super().get(request)
