"""What a table card shows of must-move tables (floor.domain.must_move): on a
must-move table, the main table it feeds and its players in the order they
move; on a main table, who moves next to a free seat, asked of the command's
own checks, so the card offers the move exactly when ``move_from_must_move``
would take it; and the tables a table could feed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.utils.translation import gettext as _

from floor.domain import balance, must_move
from floor.kernel.errors import DomainError
from floor.models import SeatView, TableView

if TYPE_CHECKING:
    from floor.models import BalanceGroupView

# The statuses whose players count for the balance (floor.application.groups).
PLAYING = ("running", "suspended")


def _links(group: BalanceGroupView | None) -> dict[str, str]:
    """Must-move table (id text) -> the main table it feeds."""
    return dict(group.must_move or {}) if group is not None else {}


def _feeder_seats(table_id: str) -> list[SeatView]:
    return list(SeatView.objects.filter(table_id=table_id).select_related("player"))


def _as_feeder_seat(seat: SeatView) -> must_move.FeederSeat:
    return must_move.FeederSeat(
        seat=seat.seat, player_id=seat.player_id.hex, arrival=seat.arrival, away=bool(seat.away)
    )


def next_mover(
    table: TableView,
    group: BalanceGroupView | None,
    counts: dict[str, int],
    tolerance: int | None,
) -> SeatView | None:
    """The seat of the must-move table's player who moves next to a free seat
    of the main ``table``, or None: the command's choice
    (floor.application.groups.must_move_first) from the read models. Its
    ``after_hand`` says the must-move table is dealing: they come first, but
    move once the hand ends (the command refuses it during the hand)."""
    links = _links(group)
    feeder_id = next((f for f, m in links.items() if m == str(table.id)), None)
    if feeder_id is None or table.status not in PLAYING or UUID(feeder_id).hex not in counts:
        return None
    seats = _feeder_seats(feeder_id)
    kept_apart: set[str] = set()
    for seat in table.occupied_seats.all():
        kept_apart |= {UUID(p).hex for p in seat.player.kept_apart}
    chosen = must_move.next_to_move([_as_feeder_seat(s) for s in seats], kept_apart)
    if chosen is None:
        return None
    feeder, main = UUID(feeder_id).hex, table.id.hex
    try:
        balance.check_balance(
            counts, balance.moved(counts, feeder, main), tolerance, {k: k for k in counts}
        )
    except DomainError:
        return None
    mover = next(s for s in seats if s.seat == chosen.seat)
    dealing = TableView.objects.filter(id=feeder_id, hand_in_progress__isnull=False).exists()
    mover.after_hand = dealing
    return mover


def card_facts(
    table: TableView,
    group: BalanceGroupView | None,
    sector_tables: list[TableView],
    *,
    allowed: bool,
) -> dict[str, Any]:
    """The card's must-move part: ``main``, the name of the table this one
    feeds, with ``order``, its seats in the order they move; ``feeder``, the
    name of the table feeding this one; ``targets``, the (id, name) of the
    tables this one may start feeding (``allowed``: the profile runs them).
    Both tables are of one sector (``sector_tables``), so a table's number
    names it."""
    links = _links(group)
    here = str(table.id)
    known = {str(t.id): t.number for t in sector_tables if t.status != "closed"}
    if any(i not in known for i in (*links, *links.values())):  # a dealer's one table
        known.update(
            (str(i), n)
            for i, n in TableView.objects.filter(id__in=[*links, *links.values()])
            .exclude(status="closed")
            .values_list("id", "number")
        )
    labels = {i: _("Table %(number)s") % {"number": n} for i, n in known.items()}
    facts: dict[str, Any] = {"main": None, "order": [], "feeder": None, "targets": []}
    if here in links:
        facts["main"] = labels.get(links[here], "")
        seats = {s.seat: s for s in table.occupied_seats.all()}
        ordered = must_move.arrival_order(_as_feeder_seat(s) for s in seats.values())
        facts["order"] = [seats[s.seat] for s in ordered]
        return facts
    feeder = next((f for f, m in links.items() if m == here), None)
    if feeder is not None:
        facts["feeder"] = labels.get(feeder, "")
        return facts
    if allowed and group is not None and table.status != "closed":
        taken = set(links) | set(links.values())
        facts["targets"] = [
            (other, labels[other])
            for other in group.table_ids
            if other != here and other not in taken and other in labels
        ]  # the group's tables of this sector (``sector_tables``)
    return facts
