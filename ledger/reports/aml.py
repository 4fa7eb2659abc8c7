"""The compliance officer's report of the cage's money-laundering threshold
(issue 25, item 3): the patrons whose chips bought, or cashed, at the cage in
one gaming day reached the profile's threshold [ES: Ley 10/2010 art. 7.5, as
amended by Real Decreto-ley 11/2018; PT: Lei 83/2017], and the operations that
formed each total: when, which kind, how much, by which cashier.

Purchases and cash-outs are summed apart, as the cage's check sums them
(ledger.application.aml); a voided entry is left out, as it came off the
total. The days are the gaming days with an operation booked in the range
asked (``from``, ``to``), taken whole; the table filters do not apply (these
are the cage's patrons). Whether the patron is identified is said, never the
document (the floor's record of identities, floor.compliance). Read by the
director and the inspector (floor.domain.reads, ``report_aml``).
"""

from __future__ import annotations

from collections import defaultdict
from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request

from floor.ports.compliance import is_identified
from floor.ports.reads import players_by_id
from floor.ports.report_reads import (
    FILTER_PARAMETERS,
    REPORT_REFUSALS,
    ReportFilter,
    ReportView,
    by_parameter,
    iso,
    json_or_csv,
    page_of,
    rule_profile,
)
from ledger import selectors as books
from ledger.application.aml import instrument_of

COLUMNS = (
    "gaming_day",
    "player_id",
    "card_number",
    "player",
    "identified",
    "direction",
    "day_total_cents",
    "threshold_cents",
    "source",
    "at",
    "kind",
    "instrument",
    "amount_cents",
    "cashier",
    "cashier_role",
    "transaction_id",
    "table_id",
)


def direction_of(kind: str) -> str:
    return "cashed" if kind == "cash_out" else "bought"


def aml_report(report: ReportFilter) -> list[dict]:
    """One row per operation of a patron's day total at or over the threshold,
    by day, patron and direction, each operation oldest first."""
    rule = rule_profile().cage_identification
    if rule.threshold_cents is None:
        return []
    groups: dict[tuple, list] = defaultdict(list)
    for entry in books.patron_cage_operations(report.start, report.end):
        groups[(entry.gaming_day, entry.player_id, direction_of(entry.kind))].append(entry)
    over = {
        key: entries
        for key, entries in groups.items()
        if sum(e.amount_cents for e in entries) >= rule.threshold_cents
    }
    players = players_by_id({player for _, player, _ in over})
    rows = []
    for (day, player_id, direction), entries in sorted(
        over.items(), key=lambda item: (item[0][0], item[1][0].position)
    ):
        player = players.get(player_id)
        identified = is_identified(player_id)
        total = sum(e.amount_cents for e in entries)
        for entry in entries:
            rows.append(
                {
                    "gaming_day": day,
                    "player_id": str(player_id),
                    "card_number": player.card_number if player else "",
                    "player": player.display_name if player else "",
                    "identified": identified,
                    "direction": direction,
                    "day_total_cents": total,
                    "threshold_cents": rule.threshold_cents,
                    "source": rule.source,
                    "at": iso(entry.at),
                    "kind": entry.kind,
                    "instrument": instrument_of(entry.reason_params),
                    "amount_cents": entry.amount_cents,
                    "cashier": entry.actor,
                    "cashier_role": entry.actor_role,
                    "transaction_id": str(entry.id),
                    "table_id": str(entry.table_id) if entry.table_id else None,
                }
            )
    return rows


CERTIFICATE_COLUMNS = (
    "gaming_day",
    "certificate",
    "player_id",
    "card_number",
    "player",
    "identified",
    "amount_cents",
    "at",
    "cashier",
    "cashier_role",
)


def certificates_report(report: ReportFilter) -> list[dict]:
    """Every certificate of winnings given on the gaming days in the range,
    oldest first (``by=certificates``): a certificate goes only to an
    identified patron (ledger.application.aml), and this is the list an
    inspector asks for."""
    given = books.winnings_certificates(report.start, report.end)
    players = players_by_id({UUID(c["player_id"]) for _, c in given})
    rows = []
    for day, certificate in given:
        player = players.get(UUID(certificate["player_id"]))
        rows.append(
            {
                "gaming_day": day,
                "certificate": certificate["number"],
                "player_id": str(UUID(certificate["player_id"])),
                "card_number": player.card_number if player else "",
                "player": player.display_name if player else "",
                "identified": is_identified(certificate["player_id"]),
                "amount_cents": certificate["amount_cents"],
                "at": certificate["at"],
                "cashier": certificate["by"],
                "cashier_role": certificate["by_role"],
            }
        )
    return rows


# Only the range and the page: the cage's patrons are no table's.
PARAMETERS = [p for p in FILTER_PARAMETERS if p.name not in ("sector", "table", "game")]


class AmlReportView(ReportView):
    name = "aml"
    reads = "report_aml"
    shapes = {
        "": (aml_report, COLUMNS),
        "certificates": (certificates_report, CERTIFICATE_COLUMNS),
    }

    @extend_schema(
        parameters=[*PARAMETERS, by_parameter(["", "certificates"], "")],
        responses={**json_or_csv(page_of("aml_report")), **REPORT_REFUSALS},
        summary="Cage identification threshold: patrons over it on a gaming day",
    )
    def get(self, request: Request):
        """Each patron whose chips bought, or cashed, at the cage in a gaming
        day reached the identification threshold (Ley 10/2010 art. 7.5; Lei
        83/2017), with the operations that formed the total: when, which kind,
        how much, which cashier, and whether the patron is identified.
        ``by=certificates``: the certificates of winnings given instead."""
        return super().get(request)
