"""A sector: up to four tables run by one jefe de sector [GA art. 4, 11, 19]."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict, forbidden, invalid
from floor.kernel.identity import name_based_id
from floor.kernel.roles import runs_sector

MAX_SECTOR_NAME_LENGTH = 60


class Sector(AuditedAggregate):
    # Version 2 added the closing time, version 3 the jefes who run it: a
    # snapshot taken before them is brought up to date when loaded.
    class_version = 3

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        state.setdefault("closing", None)

    @staticmethod
    def upcast_v2_v3(state: dict) -> None:
        state.setdefault("jefes", [])

    @staticmethod
    def create_id(name: str) -> UUID:
        """Sector names are unique in a casino, whatever their case or spacing."""
        return name_based_id("sector", " ".join(name.split()).casefold())

    @staticmethod
    def clean_name(name: str) -> str:
        """The name with its spacing tidied, or the rule it breaks."""
        cleaned = " ".join(str(name).split())
        if not cleaned:
            raise invalid("sector_name_required")
        if not cleaned.isprintable():
            raise invalid("sector_name_invalid")
        if len(cleaned) > MAX_SECTOR_NAME_LENGTH:
            raise invalid("sector_name_too_long", max_length=MAX_SECTOR_NAME_LENGTH)
        return cleaned

    @classmethod
    def open(cls, name: str) -> Sector:
        """Opens a sector under a clean name (its id derives from the name)."""
        cleaned = cls.clean_name(name)
        return cls(name=cleaned)

    @event("Opened")
    def __init__(self, name: str) -> None:
        self.name = name
        # The open tables: id (hex) -> number in the sector, 1 to the
        # profile's maximum. A table closed is released (``release_table``).
        self.tables: dict[str, int] = {}
        # The casino's closing announced [CM-24]: {"closes_at", "last_hands_at",
        # "begun"}, or None.
        self.closing: dict | None = None
        # The jefes de sector the director named to run it [GA art. 19.1];
        # none named: any jefe runs it (a room with one jefe names nobody).
        self.jefes: list[str] = []

    # --- who runs it [GA art. 19.1] -----------------------------------------------

    def assign_jefes(self, usernames: list[str]) -> list[str]:
        """Names the jefes who run this sector (an empty list: any jefe)."""
        jefes = sorted({str(name).strip() for name in usernames if str(name).strip()})
        self._jefes_assigned(jefes=jefes)
        return jefes

    @event("JefesAssigned")
    def _jefes_assigned(self, jefes: list[str]) -> None:
        self.jefes = list(jefes)

    def check_run_by(self, username: str) -> None:
        """A jefe acts only on the sector they run, once the director named its jefes."""
        if not runs_sector(username, self.jefes):
            raise forbidden("not_your_sector", sector=self.name, jefes=", ".join(self.jefes))

    def closing_tonight(self, now: datetime) -> bool:
        """Whether the last hands of the night have begun and the casino has
        not closed yet: a closing ends with its night."""
        closing = self.closing
        return bool(
            closing and closing["begun"] and now < datetime.fromisoformat(closing["closes_at"])
        )

    def check_room(self, max_tables: int, now: datetime) -> None:
        """Refuses another table: the last hands of the night have begun
        [CM-24], or the sector holds ``max_tables`` already [GA art. 19]."""
        if self.closing_tonight(now):
            raise conflict("sector_closing", sector=self.name)
        if len(self.tables) >= max_tables:
            raise conflict("sector_full", sector=self.name, max_tables=max_tables)

    def add_table(self, table_id: UUID, max_tables: int, now: datetime) -> int:
        """Gives the table the lowest free number, or refuses a fifth table."""
        self.check_room(max_tables, now)
        taken = set(self.tables.values())
        number = next(n for n in range(1, max_tables + 1) if n not in taken)
        self._table_added(table_id=table_id, number=number)
        return number

    @event("TableAdded")
    def _table_added(self, table_id: UUID, number: int) -> None:
        self.tables[table_id.hex] = number

    def release_table(self, table_id: UUID) -> None:
        """A table closed: it counts no more among the sector's [GA art. 19],
        and its number may be given to the next table opened here (the
        physical table it names). Nothing when it was released already."""
        if table_id.hex in self.tables:
            self._table_released(table_id=table_id)

    @event("TableReleased")
    def _table_released(self, table_id: UUID) -> None:
        self.tables = {t: n for t, n in self.tables.items() if t != table_id.hex}

    # --- closing time [CM-24] -----------------------------------------------------

    def announce_closing(self, closes_at: datetime, lead: timedelta, now: datetime) -> datetime:
        """The casino closes at ``closes_at``: the last hands start ``lead``
        before it [CM-24]. Returns when they start. A later announcement moves
        the time, until the last hands have begun."""
        if closes_at <= now:
            raise conflict("closing_time_past", closes_at=closes_at.isoformat())
        if self.closing_tonight(now):
            raise conflict("sector_closing", sector=self.name)
        last_hands_at = max(closes_at - lead, now)
        self._closing_announced(closes_at=closes_at, last_hands_at=last_hands_at)
        return last_hands_at

    @event("ClosingAnnounced")
    def _closing_announced(self, closes_at: datetime, last_hands_at: datetime) -> None:
        self.closing = {
            "closes_at": closes_at.isoformat(),
            "last_hands_at": last_hands_at.isoformat(),
            "begun": False,
        }

    def last_hands_due(self, last_hands_at: datetime, now: datetime) -> bool:
        """Whether ``last_hands_at`` is the announced moment and it has come;
        False when a later announcement moved it or the hands have begun."""
        closing = self.closing
        if not closing or closing["begun"]:
            return False
        if datetime.fromisoformat(closing["last_hands_at"]) != last_hands_at:
            return False
        if now < last_hands_at:
            raise conflict("timer_not_due", due=last_hands_at.isoformat())
        return True

    def begin_last_hands(self) -> None:
        self._last_hands_begun(tables=sorted(self.tables, key=self.tables.get))

    @event("LastHandsBegun")
    def _last_hands_begun(self, tables: list[str]) -> None:
        self.closing["begun"] = True
