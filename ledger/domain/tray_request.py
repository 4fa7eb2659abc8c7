"""Fills and credits: chips between the cage and a table's tray.

The jefe asks, the cage confirms: two people, two events, and only the
confirmation moves chips [GA art. 19.1; CM "Personal"]. A request may be
cancelled until it is confirmed.
"""

from __future__ import annotations

from enum import StrEnum

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict, forbidden, invalid


class TrayMove(StrEnum):
    FILL = "fill"  # cage -> tray
    CREDIT = "credit"  # tray -> cage


class RequestStatus(StrEnum):
    PENDING = "pending"
    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"


class TrayRequest(AuditedAggregate):
    @classmethod
    def ask(cls, move: str, table_id: str, amount: int, requested_by: str) -> TrayRequest:
        try:
            move = TrayMove(move)
        except ValueError:
            raise invalid("tray_move_invalid") from None
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise invalid("amount_invalid")
        return cls(move=str(move), table_id=table_id, amount=amount, requested_by=requested_by)

    @event("Requested")
    def __init__(self, move: str, table_id: str, amount: int, requested_by: str) -> None:
        self.move = move
        self.table_id = table_id
        self.amount = amount
        self.requested_by = requested_by
        self.status = RequestStatus.PENDING
        self.confirmed_by: str | None = None
        self.transaction_id: str | None = None

    def check_pending(self) -> None:
        if self.status != RequestStatus.PENDING:
            raise conflict("tray_request_not_pending", status=str(self.status))

    def confirm(self, confirmed_by: str, transaction_id: str) -> None:
        """The cage confirms what the jefe asked; never the same person."""
        self.check_pending()
        if confirmed_by == self.requested_by:
            raise forbidden("same_person_confirms")
        self._confirmed(confirmed_by=confirmed_by, transaction_id=transaction_id)

    @event("Confirmed")
    def _confirmed(self, confirmed_by: str, transaction_id: str) -> None:
        self.status = RequestStatus.CONFIRMED
        self.confirmed_by = confirmed_by
        self.transaction_id = transaction_id

    def cancel(self, reason: str) -> None:
        self.check_pending()
        self._cancelled(reason=reason)

    @event("Cancelled")
    def _cancelled(self, reason: str) -> None:
        self.status = RequestStatus.CANCELLED
