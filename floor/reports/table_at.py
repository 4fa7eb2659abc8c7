"""A table as it stood at a past moment, replayed from the event store.

The table's last event at or before the moment gives its version; the
repository replays the aggregate up to that version, and the answer has the
shape of the table's current view (floor.api.serializers.TableFloorSerializer),
so a client reads a past table as it reads the present one. A moment still to
come, or none, is the table as it stands now.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING
from uuid import UUID

from floor.domain.table import Table
from floor.kernel.errors import invalid, not_found
from floor.models import EventJournalEntry, TableView
from floor.projections.floor_views import SEAT_FLAGS
from floor.reports.common import event_of, iso, now
from floor.runtime import floor_app
from floor.selectors import journal
from floor.selectors import reports as selected
from games.limits import small_blind_for

if TYPE_CHECKING:  # the read models as types; the selectors read them
    from floor.models import EventJournalEntry, TableView

# The event that closed a table dates its closing.
CLOSED = Table.Closed
SEAT_COLUMNS = (
    "table_id",
    "moment",
    "version",
    "seat",
    "player_id",
    "card_number",
    "display_name",
    "stack_cents",
    *SEAT_FLAGS,
)


def parse_moment(text: str | None) -> datetime:
    """``moment``: an ISO date and time with its zone (a table's past is only
    unambiguous in UTC or with an offset); without one, now."""
    if text is None:
        return now()
    try:
        moment = datetime.fromisoformat(text.replace(" ", "+"))
        if moment.tzinfo is None:
            raise ValueError("no zone")
        return moment.astimezone(UTC)
    except (ValueError, OverflowError):  # not one, or past the calendar's ends in UTC
        raise invalid("report_filter_invalid", field="moment") from None


def _table_view(text: str) -> TableView:
    try:
        table_id = UUID(str(text))
    except ValueError:
        table_id = None
    found = selected.table_or_none(table_id)
    if table_id is None or found is None:
        raise not_found("table_not_found")
    return found


def _when(text: str | None) -> str | None:
    return iso(datetime.fromisoformat(text)) if text else None


def _seats(table: Table) -> list[dict]:
    """The occupied seats as the seat view shows them, by seat number."""
    occupants = sorted(table.occupants.items(), key=lambda kv: int(kv[0]))
    ids = [UUID(state["player_id"]) for _, state in occupants]
    players = selected.players_by_id(ids)
    seats = []
    for seat, state in occupants:
        player = players.get(UUID(state["player_id"]))
        seats.append(
            {
                "seat": int(seat),
                "player_id": str(UUID(state["player_id"])),
                "card_number": player.card_number if player else None,
                "display_name": player.display_name if player else None,
                "stack_cents": state["stack"],
                **{flag: state[flag] for flag in SEAT_FLAGS},
            }
        )
    return seats


def _state(table: Table, view: TableView, last: EventJournalEntry) -> dict:
    """The table's fields as the table view has them after ``last``
    (floor.projections.floor_views, FloorProjection._table)."""
    suspension = table.suspension or {}
    profile = floor_app().profile
    seats = _seats(table)
    taken = {s["seat"] for s in seats}
    return {
        "id": str(table.id),
        "sector_id": str(view.sector_id),
        "sector_name": view.sector.name,
        "number": table.number,
        "variant": table.variant,
        "limit": table.limit,
        "minimum_cents": table.minimum_cents,
        "maximum_cents": table.maximum_cents,
        "small_blind_cents": small_blind_for(table.minimum_cents),
        "ante_cents": getattr(table, "ante_cents", 0),
        "rake": getattr(table, "rake", None),
        "seats": table.seats,
        "status": table.status,
        "dealer": getattr(table, "dealer", None) or "",
        "opened_at": iso(view.opened_at),
        "opened_by": view.opened_by,
        "second_variant": table.second_variant or "",
        "players": table.player_count,
        "button": table.button,
        "hands_played": table.hands_played,
        "hand_in_progress": table.hand["number"] if table.hand else None,
        "draw_open": table.draw_open,
        "suspended_at": _when(suspension.get("at")),
        "closes_at": _when(suspension.get("closes_at")),
        "closed_at": iso(last.occurred_at) if event_of(last) is CLOSED else None,
        "seat_change_requests": [str(UUID(p)) for p in table.seat_change_requests],
        "action_clock": table.action_clock,
        "session": table.session_read(profile),
        "session_rule": table.session_rule_read(profile),
        "last_hands_left": table.last_hands["left"] if table.last_hands else None,
        "occupied_seats": seats,
        "free_seats": [n for n in range(1, table.seats + 1) if n not in taken],
    }


def table_at(table_text: str, moment_text: str | None) -> dict:
    """The table in the URL at ``moment``: its version then, the time of the
    event that made it, and its state."""
    view = _table_view(table_text)
    moment = parse_moment(moment_text)
    last = journal.last_event_until(view.id, moment)
    if last is None:
        raise not_found("report_moment_before_table", opened_at=iso(view.opened_at))
    table = floor_app().repository.get(view.id, version=last.originator_version)
    return {
        "moment": iso(moment),
        "version": last.originator_version,
        "last_event_at": iso(last.occurred_at),
        "table": _state(table, view, last),
    }


def seat_rows(found: dict) -> list[dict]:
    """The table at the moment as CSV rows: one per occupied seat."""
    head = {"table_id": found["table"]["id"], "moment": found["moment"]}
    head["version"] = found["version"]
    return [{**head, **seat} for seat in found["table"]["occupied_seats"]]
