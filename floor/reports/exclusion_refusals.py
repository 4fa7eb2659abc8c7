"""The compliance officer's report of refused attempts at the doors (issue 25,
item 2): each time the exclusion lists refused a patron (excluded, or a
possible match not yet resolved) at registration, on joining a list, at
seating or at the cage: when, who (the player's id, card and name as the floor
knows them), where (the door and the command), what the lists said and which
versions matched, who was at the desk and under which role, the command id.

It answers an inspector's "did this excluded patron try to get in, when,
where, who was at the desk" [Ley 10/2010 art. 7.5; RGIAJ and the regional
registers; PT: Decreto-Lei 422/89 arts. 36-38]. The rows are kept outside the
event log (a refused command records nothing there; floor.compliance.refusals).
``from``/``to`` bound the attempt's time, ``player`` names one patron. Read by
the director and the inspector (floor.domain.reads,
``report_exclusion_refusals``); never the jefe or the cage, who saw each
refusal as it happened.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request

from floor.compliance import refusals
from floor.kernel.web.filters import parameter
from floor.reports.base import ReportView, json_or_csv, page_of
from floor.reports.common import (
    FILTER_PARAMETERS,
    REPORT_REFUSALS,
    ReportFilter,
    answer,
    filters,
    parse_filter,
)
from floor.selectors import reports as selected

COLUMNS = (
    "at",
    "player_id",
    "card_number",
    "player",
    "door",
    "result",
    "lists",
    "command",
    "command_id",
    "actor",
    "actor_role",
)


def refusals_report(report: ReportFilter, player_id=None) -> list[dict]:
    """One row a refused attempt, oldest first."""
    found = refusals.refusals(start=report.start, end=report.end, player_id=player_id)
    players = selected.players_by_id({row.player_id for row in found})
    rows = []
    for row in found:
        player = players.get(row.player_id)
        shown = refusals.shown(row)
        rows.append(
            {
                **shown,
                "card_number": player.card_number if player else "",
                "player": player.display_name if player else "",
            }
        )
    return rows


# The range, the patron and the page: the doors are no table's.
PARAMETERS = [
    *(p for p in FILTER_PARAMETERS if p.name not in ("sector", "table", "game")),
    parameter("player", "uuid", "A patron's player id"),
]


class ExclusionRefusalsReportView(ReportView):
    name = "exclusion-refusals"
    reads = "report_exclusion_refusals"

    @extend_schema(
        parameters=PARAMETERS,
        responses={**json_or_csv(page_of("exclusion_refusals_report")), **REPORT_REFUSALS},
        summary="Exclusion lists: the attempts refused at the doors",
    )
    def get(self, request: Request):
        """Each attempt the exclusion lists refused (registration, a list, a
        seat, the cage): when, which patron, which door and command, excluded
        or a possible match, the list versions that matched, who was at the
        desk under which role, the command id (issue 25, item 2)."""
        report = request.reader.narrow_report(parse_filter(request.query_params))
        player_id = filters(request.query_params).uuid("player")
        return answer(request, refusals_report(report, player_id), COLUMNS, self.name)
