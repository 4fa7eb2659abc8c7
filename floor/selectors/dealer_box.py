"""The dealer box of a sector, as the jefe's console shows it (issue 26): who
deals where and since when, who goes where next and at what time, who is on
break and since when, who waits in the box.

The plan is the commands' own (floor.application.dealers.read_plan) over the
roster (the one aggregate read from the store) and the sector's open tables
as the read models hold them, computed at the time of reading: what the
console offers to push is what ``push_dealer`` would carry out once the read
models have caught up (a stale offer is refused: ``push_changed``) [GA art. 19].
A push whose dealer still deals another open table (a chain waiting for its
first push) is listed without its button: it cannot be carried out yet.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from floor.application.dealers import dealing_elsewhere, read_plan
from floor.domain.dealer_rotation import DEALING, IDLE, ON_BREAK
from floor.kernel.unit_of_work import UnitOfWork
from floor.models import TableView
from floor.runtime import floor_app


def _minutes(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() // 60))


def sector_dealer_box(
    sector_id: UUID, tables: list[TableView], now: datetime | None = None
) -> dict[str, Any]:
    """The dealer box of the sector whose open tables (read models) are
    ``tables``: only the roster is read from the store."""
    app = floor_app()
    now = now or app.clock.now()
    work = UnitOfWork(app, app.profile)
    sector_id = UUID(str(sector_id))
    plan, box = read_plan(work, sector_id, tables, now)
    number = {t.id.hex: t.number for t in tables}
    dealers = box.slots(sector_id, set(number), now) if box is not None else []
    dealing, idle, on_break = [], [], []
    for d in dealers:
        row = {
            "name": d.username,
            "games": sorted(d.games),
            "since": d.since,
            "minutes": _minutes(now - d.since),
            "dealt_minutes": _minutes(d.dealt_by(now)),
        }
        if d.state == DEALING:
            dealing.append({**row, "table": number.get(d.table_id or "")})
        elif d.state == ON_BREAK:
            on_break.append({**row, "back_at": plan.back_at.get(d.username)})
        elif d.state == IDLE:
            idle.append({**row, "break_due": d.username in plan.breaks_due})
    pushes = [
        {
            "table_id": str(UUID(p.table_id)),
            "table": p.number,
            "dealer_in": p.dealer_in,
            "dealer_out": p.dealer_out,
            "out_to": p.out_to,
            "at": p.at,
            "due": p.at <= now,
            # The other open table its dealer still deals (a chained push
            # waits for that table's push: push_dealer refuses it till then).
            "waits_for": dealing_elsewhere(box, tables, p.dealer_in, p.table_id),
        }
        for p in plan.pushes
    ]
    for push in pushes:
        push["ready"] = push["waits_for"] is None
    clocked = {d.username for d in dealers}
    rules = app.profile.dealer_rotation
    return {
        "now": now,
        "dealing": sorted(dealing, key=lambda r: r["table"] or 0),
        "idle": idle,
        "on_break": on_break,
        "pushes": pushes,
        # The summary's next push: the first that can be carried out now.
        "next_push": next((p for p in pushes if p["ready"]), pushes[0] if pushes else None),
        "uncovered": [number[t] for t in plan.uncovered],
        "tables": [{"id": str(t.id), "number": t.number, "dealer": t.dealer} for t in tables],
        "clocked": clocked,
        "seconds": {
            "down": rules.down.total_seconds(),
            "break_length": rules.break_length.total_seconds(),
            "break_after": rules.break_after.total_seconds(),
        },
    }
