"""The read rule (floor.domain.reads) applied to the read models.

A view asks ``reader(user, resource)`` once: a role that does not read the
resource is refused there (403 ``role_not_allowed``). The reader then narrows
a list to the scope (``tables``, ``sectors``) and refuses a single thing
outside it (``check_table``, ``check_sector``: 403 ``not_your_sector`` or
``not_your_table``, the codes a command outside one's place answers). The API
turns the refusal into ``{"code", "message"}``, the consoles into a 403 page
(``console_read``, floor.kernel.web.access, which asks ``reader`` through the
host the floor installs, floor.hosting).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.db.models import QuerySet

from floor.domain.reads import READS, Scope, read_scopes
from floor.kernel.errors import DomainError, forbidden, not_found
from floor.kernel.roles import Actor, runs_sector
from floor.kernel.web.gateway import actor_for
from floor.selectors import scopes

if TYPE_CHECKING:  # the read models as types; the selectors read them
    from floor.models import SectorView, TableView

# The transactions a jefe reads: his tables' fills and credits.
TRAY_KINDS = ("fill", "credit")


@dataclass(frozen=True)
class Reader:
    """Who reads a resource, and how far."""

    actor: Actor
    resource: str
    scopes: frozenset[Scope]

    @property
    def everything(self) -> bool:
        return Scope.ALL in self.scopes

    @cached_property
    def sector_ids(self) -> frozenset[UUID] | None:
        """The sectors read (None: all): a jefe's, none for a dealer."""
        if self.everything:
            return None
        if not self.scopes & {Scope.SECTORS, Scope.TRAYS}:
            return frozenset()
        name = self.actor.username
        return frozenset(
            sector_id for sector_id, jefes in scopes.sector_jefes() if runs_sector(name, jefes)
        )

    @cached_property
    def table_ids(self) -> frozenset[UUID] | None:
        """The tables read (None: all): the jefe's sectors', the dealer's own."""
        if self.everything:
            return None
        found: set[UUID] = set()
        if self.sector_ids:
            found |= scopes.table_ids_in(self.sector_ids)
        if Scope.TABLE in self.scopes:
            found |= scopes.table_ids_dealt_by(self.actor.username)
        return frozenset(found)

    def sectors(self, queryset: QuerySet, field: str = "id") -> QuerySet:
        """``queryset`` narrowed to the sectors read."""
        if self.sector_ids is None:
            return queryset
        return queryset.filter(**{f"{field}__in": self.sector_ids})

    def tables(self, queryset: QuerySet, field: str = "id") -> QuerySet:
        """``queryset`` narrowed to the tables read."""
        if self.table_ids is None:
            return queryset
        return queryset.filter(**{f"{field}__in": self.table_ids})

    def transactions(self, queryset: QuerySet) -> QuerySet:
        """Transactions narrowed: a jefe's, the fills and credits of his tables."""
        if self.everything:
            return queryset
        return self.tables(queryset.filter(kind__in=TRAY_KINDS), "table_id")

    def check_sector(self, sector: SectorView) -> None:
        """403 ``not_your_sector`` for a sector outside the scope."""
        if self.sector_ids is not None and sector.id not in self.sector_ids:
            raise _not_your_sector(self.actor, sector)

    def check_sector_id(self, sector_id: Any) -> None:
        """``check_sector`` by id, reading the sector only to refuse it (a live
        part polled every second costs no more)."""
        if self.sector_ids is None or UUID(str(sector_id)) in self.sector_ids:
            return
        sector = scopes.sector_or_none(sector_id)
        if sector is None:
            raise not_found("sector_not_found")
        raise _not_your_sector(self.actor, sector)

    def check_table(self, table: TableView | None, table_id: Any = None) -> None:
        """403 for a table outside the scope: ``not_your_sector`` to a jefe,
        ``not_your_table`` to a dealer."""
        if self.table_ids is None:
            return
        table_id = table.id if table is not None else table_id
        try:
            table_id = UUID(str(table_id)) if table_id is not None else None
        except ValueError:
            table_id = None
        if table_id is not None and table_id in self.table_ids:
            return
        if table is None and table_id is not None:
            table = scopes.table_or_none(table_id)
            if table is None:
                raise not_found("table_not_found")
        if self.scopes & {Scope.SECTORS, Scope.TRAYS} and table is not None:
            raise _not_your_sector(self.actor, table.sector)
        if Scope.TABLE in self.scopes and table is not None:
            raise forbidden("not_your_table", table=table.number)
        raise _outside(self)

    def check_account(self, account: Any) -> None:
        """An account outside the scope is refused: a jefe reads his tables'."""
        if self.table_ids is None:
            return
        if account.table_id is None:
            raise _outside(self)
        self.check_table(None, account.table_id)

    def narrow_report(self, report: Any) -> Any:
        """A report's filter narrowed to the tables read; a sector or table
        asked outside the scope is refused, as its page would be."""
        if self.table_ids is None:
            return report
        if report.sector_id is not None and report.sector_id not in (self.sector_ids or ()):
            sector = scopes.sector_or_none(report.sector_id)
            if sector is not None:
                raise _not_your_sector(self.actor, sector)
        if report.table_id is not None:
            self.check_table(None, report.table_id)
        return replace(report, table_ids=frozenset(report.table_ids & self.table_ids), scoped=True)

    def check_card(self, card: str | None) -> None:
        """The cage reads players one card at a time: a list without ``?card=`` is refused."""
        if self.scopes == {Scope.CARD} and not (card or "").strip():
            raise _outside(self)

    def check_transaction(self, transaction: Any) -> None:
        """A transaction (or its receipt) outside the scope is refused."""
        if self.everything:
            return
        if transaction.kind not in TRAY_KINDS or transaction.table_id is None:
            raise _outside(self)
        self.check_table(None, transaction.table_id)


def _not_your_sector(actor: Actor, sector: SectorView) -> DomainError:
    jefes = ", ".join(sector.jefes)
    return forbidden("not_your_sector", sector=sector.name, jefes=jefes)


def _outside(reader: Reader) -> DomainError:
    """What the scope does not reach at all: refused as the role's."""
    readers = [str(r) for r, scope in READS[reader.resource].items() if scope == Scope.ALL]
    return forbidden("role_not_allowed", roles=readers)


def reader(user: Any, resource: str) -> Reader:
    """The reader of ``resource``: refused (403) when no role of ``user`` reads it."""
    actor = actor_for(user)
    return Reader(actor, resource, read_scopes(actor, resource))


def may_read(user: Any, resource: str) -> bool:
    """Whether ``user`` reads any of ``resource`` (a link to it is worth showing)."""
    try:
        reader(user, resource)
    except DomainError:
        return False
    return True
