"""The room's dealers (issue 26, "Dealer rotation"): who is clocked in, in
which sector, the games each may deal, and where each is now and since when.

GA art. 19 requires a dealer at every table at all times and the jefe names
them [GA art. 19.1]: the roster records every step of the rotation the jefe
carries out (a clock-in, a push at a table, a break), each event naming the
actor, role and command (floor.kernel.aggregate) and the sector or table it
touches (the consoles showing it re-render: floor.projections.live_marks), so
the dealers' breaks have the audit trail the staff trusts (ANCHORS.md, "Dealer
breaks staff trust"). One roster
per room, keyed by the dealer's username (the crupier's login): the plan
(floor.domain.dealer_rotation) reads it whole, so a sector's dealers are
known without a read model. A break counts as the dealer's rest only when it
lasted the house's break length (games.profile_rules.DealerRotationRules): a
break cut short (ended, or the dealer pushed or named back in, before it) leaves
the minutes dealt since the last full break as they stood when it began (see
``rested``). The table keeps its own dealer too
(``Table.assign_dealer``), which is what the dealer's scope reads; naming a
dealer by hand records them here too (``name_at_table``), so the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.dealer_rotation import DEALING, IDLE, ON_BREAK, TO_BREAK, DealerSlot
from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict, invalid
from floor.kernel.identity import name_based_id
from games.variants import Variant

MAX_USERNAME_LENGTH = 150  # Django's username field


def clean_dealer(username: object) -> str:
    """The dealer's username, trimmed, or the rule it breaks."""
    cleaned = str(username or "").strip()
    if not cleaned:
        raise invalid("dealer_required")
    if len(cleaned) > MAX_USERNAME_LENGTH or not cleaned.isprintable():
        raise invalid("dealer_invalid")
    return cleaned


def clean_games(games: Iterable[object] | None) -> list[str]:
    """The games (variants) named, each known, in a stable order."""
    if games is None or isinstance(games, str | bytes):
        raise invalid("dealer_games_required")
    chosen = set()
    for game in games:
        try:
            chosen.add(str(Variant(str(game))))
        except ValueError:
            raise invalid("unknown_game", game=str(game)[:40]) from None
    if not chosen:
        raise invalid("dealer_games_required")
    return sorted(chosen)


class DealerRoster(AuditedAggregate):
    @staticmethod
    def create_id() -> UUID:
        return name_based_id("dealer_roster", "room")

    @event("Opened")
    def __init__(self) -> None:
        # username -> {"games", "sector_id" (hex or None), "state" ("off",
        # "idle", "dealing", "break"), "since" (ISO), "dealt" (seconds dealt
        # since the last break, before "since"), "table_id" (hex or None)}.
        self.dealers: dict[str, dict] = {}

    # --- reading -------------------------------------------------------------------

    def entry(self, username: str) -> dict | None:
        return self.dealers.get(username)

    def clocked_in(self, username: str, sector_id: UUID) -> dict:
        """The dealer's entry, clocked in at this sector, or the refusal."""
        found = self.dealers.get(username)
        if found is None or found["state"] == "off":
            raise conflict("dealer_not_clocked_in", dealer=username)
        if found["sector_id"] != sector_id.hex:
            raise conflict("dealer_in_another_sector", dealer=username)
        return found

    def slots(self, sector_id: UUID, open_tables: set[str], now: datetime) -> list[DealerSlot]:
        """The sector's clocked-in dealers as the plan reads them; one whose
        table has closed since is back in the box, their down counted."""
        found = []
        for name, entry in sorted(self.dealers.items()):
            if entry["state"] == "off" or entry["sector_id"] != sector_id.hex:
                continue
            slot = DealerSlot(
                name,
                frozenset(entry["games"]),
                entry["state"],
                datetime.fromisoformat(entry["since"]),
                timedelta(seconds=entry["dealt"]),
                entry["table_id"],
            )
            if slot.state == DEALING and slot.table_id not in open_tables:
                slot = DealerSlot(name, slot.games, IDLE, now, slot.dealt_by(now))
            found.append(slot)
        return found

    # --- games and the clock ----------------------------------------------------------

    def set_games(self, username: str, games: Iterable[object] | None) -> list[str]:
        """The games the dealer may deal, set by the jefe or the director."""
        name, chosen = clean_dealer(username), clean_games(games)
        # The sector whose box shows the dealer, if clocked in (its console re-renders).
        sector_id = (self.dealers.get(name) or {}).get("sector_id")
        self._games_set(dealer=name, games=chosen, sector_id=sector_id)
        return chosen

    @event("DealerGamesSet")
    def _games_set(self, dealer: str, games: list[str], sector_id: str | None = None) -> None:
        entry = self.dealers.setdefault(dealer, _off())
        entry["games"] = list(games)

    def clock_in(self, username: str, sector_id: UUID, now: datetime) -> dict:
        """The dealer starts their shift at a sector, in the box."""
        name = clean_dealer(username)
        entry = self.dealers.get(name)
        if entry is not None and entry["state"] != "off":
            raise conflict("dealer_already_clocked_in", dealer=name)
        if entry is None or not entry["games"]:
            raise conflict("dealer_has_no_games", dealer=name)
        self._clocked_in(dealer=name, sector_id=sector_id.hex, at=now.isoformat())
        return self.dealers[name]

    @event("DealerClockedIn")
    def _clocked_in(self, dealer: str, sector_id: str, at: str) -> None:
        entry = self.dealers[dealer]
        entry.update(sector_id=sector_id, state=IDLE, since=at, dealt=0, table_id=None)

    def clock_out(self, username: str, sector_id: UUID, open_tables: set[str], now: datetime):
        """The dealer's shift ends; not while they deal an open table (push a
        relief in first): a table is never left without a dealer [GA art. 19]."""
        entry = self.clocked_in(username, sector_id)
        if entry["state"] == DEALING and entry["table_id"] in open_tables:
            raise conflict("dealer_still_dealing", dealer=username)
        self._clocked_out(dealer=username, sector_id=sector_id.hex, at=now.isoformat())

    @event("DealerClockedOut")
    def _clocked_out(self, dealer: str, sector_id: str, at: str) -> None:
        self.dealers[dealer].update(state="off", since=at, table_id=None, sector_id=None)

    # --- a dealer named by hand (floor.application.staffing.assign_dealer) ------------

    def name_at_table(
        self,
        *,
        table_id: UUID,
        sector_id: UUID,
        games: Iterable[str],
        dealer: str | None,
        relieved: str | None,
        now: datetime,
        break_length: timedelta | None = None,
    ) -> bool:
        """The jefe names ``dealer`` (None: nobody) at a table by hand [GA
        art. 19.1]: the roster follows the jefe's word, so the dealer box and
        the table card agree. The dealer named deals the table from now,
        clocked in at its sector on the way if they were not (the jefe has
        seen them at the table), the table's games added to theirs (the jefe
        vouches they deal it); the dealer it had, if the roster tracks them
        there, goes back to the box, their down counted. Whether anything
        changed (a dealer named again changes nothing)."""
        leaving = self.dealers.get(relieved or "")
        tracked = (
            leaving is not None
            and leaving["state"] == DEALING
            and leaving["table_id"] == table_id.hex
        )
        coming = self.dealers.get(dealer or "")
        if dealer is not None and dealer == relieved and tracked:
            return False
        if dealer is None and not tracked:
            return False
        known = coming["games"] if coming is not None else []
        self._named_at_table(
            dealer=dealer,
            relieved=relieved if tracked else None,
            table_id=table_id.hex,
            table_sector_id=sector_id.hex,
            games=sorted(set(known) | set(games)) if dealer is not None else None,
            clocked_in=dealer is not None and (coming is None or coming["state"] == "off"),
            at=now.isoformat(),
            rested=rested(coming, now, break_length),
        )
        return True

    @event("DealerNamedAtTable")
    def _named_at_table(
        self,
        dealer: str | None,
        relieved: str | None,
        table_id: str,
        table_sector_id: str,
        games: list[str] | None,
        clocked_in: bool,
        at: str,
        rested: bool = True,
    ) -> None:
        moment = datetime.fromisoformat(at)
        leaving = self.dealers.get(relieved or "")
        if leaving is not None:
            dealt = leaving["dealt"] + _seconds(moment, leaving["since"])
            leaving.update(state=IDLE, since=at, dealt=dealt, table_id=None)
        if dealer is None:
            return
        coming = self.dealers.setdefault(dealer, _off())
        coming["games"] = list(games or coming["games"])
        dealt = coming["dealt"]
        if clocked_in:
            dealt = 0
        elif coming["state"] == ON_BREAK:
            dealt = _after_break(coming, rested)
        elif coming["state"] == DEALING:  # from another table (it keeps its named dealer)
            dealt += _seconds(moment, coming["since"])
        coming.update(
            state=DEALING, since=at, dealt=dealt, table_id=table_id, sector_id=table_sector_id
        )

    # --- pushes and breaks ------------------------------------------------------------

    def push(
        self,
        *,
        table_id: UUID,
        dealer_in: str,
        dealer_out: str | None,
        out_to: str | None,
        now: datetime,
        reason: str | None = None,
        break_length: timedelta | None = None,
    ) -> None:
        """``dealer_in`` taps ``dealer_out`` out of the table: the one goes
        in, the other to the box or on break (``out_to``). ``reason``: why
        the jefe sent someone else than the plan's (an override)."""
        self._pushed(
            table_id=table_id.hex,
            dealer_in=dealer_in,
            dealer_out=dealer_out,
            out_to=out_to,
            at=now.isoformat(),
            planned=reason is None,
            reason=reason,
            rested=rested(self.dealers.get(dealer_in), now, break_length),
        )

    @event("DealerPushed")
    def _pushed(
        self,
        table_id: str,
        dealer_in: str,
        dealer_out: str | None,
        out_to: str | None,
        at: str,
        planned: bool,
        reason: str | None,
        rested: bool = True,
    ) -> None:
        moment = datetime.fromisoformat(at)
        leaving = self.dealers.get(dealer_out or "")
        if leaving is not None and leaving["state"] == DEALING and leaving["table_id"] == table_id:
            dealt = leaving["dealt"] + _seconds(moment, leaving["since"])
            if out_to == TO_BREAK:
                leaving.update(state=ON_BREAK, since=at, dealt=0, table_id=None, before=dealt)
            else:
                leaving.update(state=IDLE, since=at, dealt=dealt, table_id=None)
        coming = self.dealers[dealer_in]
        dealt = coming["dealt"]
        if coming["state"] == ON_BREAK:
            dealt = _after_break(coming, rested)
        elif coming["state"] == DEALING:  # from a table that has closed
            dealt += _seconds(moment, coming["since"])
        coming.update(state=DEALING, since=at, dealt=dealt, table_id=table_id)

    def start_break(
        self, username: str, sector_id: UUID, open_tables: set[str], now: datetime
    ) -> None:
        """An idle dealer goes on break; one dealing an open table is relieved
        first (a push), so the table keeps a dealer [GA art. 19]."""
        entry = self.clocked_in(username, sector_id)
        if entry["state"] == ON_BREAK:
            raise conflict("dealer_on_break", dealer=username)
        if entry["state"] == DEALING and entry["table_id"] in open_tables:
            raise conflict("dealer_still_dealing", dealer=username)
        self._break_started(dealer=username, sector_id=sector_id.hex, at=now.isoformat())

    @event("DealerBreakStarted")
    def _break_started(self, dealer: str, sector_id: str, at: str) -> None:
        entry = self.dealers[dealer]
        entry.update(state=ON_BREAK, since=at, dealt=0, table_id=None, before=entry["dealt"])

    def end_break(
        self,
        username: str,
        sector_id: UUID,
        now: datetime,
        break_length: timedelta | None = None,
    ) -> None:
        """The dealer is back from break, in the box; a break cut short of
        ``break_length`` leaves their time dealt as it stood (``rested``)."""
        entry = self.clocked_in(username, sector_id)
        if entry["state"] != ON_BREAK:
            raise conflict("dealer_not_on_break", dealer=username)
        self._break_ended(
            dealer=username,
            sector_id=sector_id.hex,
            at=now.isoformat(),
            rested=rested(entry, now, break_length),
        )

    @event("DealerBreakEnded")
    def _break_ended(self, dealer: str, sector_id: str, at: str, rested: bool = True) -> None:
        entry = self.dealers[dealer]
        entry.update(state=IDLE, since=at, dealt=_after_break(entry, rested))


def rested(entry: dict | None, now: datetime, break_length: timedelta | None) -> bool:
    """Whether a dealer on break (``entry``) coming back at ``now`` had the
    house's full break (``break_length``; None: any break counts, as before
    the rule). A break cut short does not count as one: the minutes dealt
    since the last full break are kept, and the minutes of the short pause
    count neither as dealing nor as rest. Why not a pro-rata credit: the house
    sets one break length to rest its dealers (ANCHORS.md, "Dealer breaks
    staff trust"); crediting pauses would let a chain of one-minute pauses add
    up to a break nobody had, and the plan would send a dealer in for another
    down past the most dealing without a break (DealerRotationRules.break_after).
    Kept as the events say (the choice is recorded in the event), so the
    history replays the same when the house changes its break length."""
    if entry is None or entry["state"] != ON_BREAK or break_length is None:
        return True
    return now - datetime.fromisoformat(entry["since"]) >= break_length


def _after_break(entry: dict, rested: bool) -> int:
    """The seconds dealt without a break once back: none after a full
    break, else those dealt before it began."""
    return 0 if rested else int(entry.get("before") or 0)


def _off() -> dict:
    return {
        "games": [],
        "sector_id": None,
        "state": "off",
        "since": None,
        "dealt": 0,
        "table_id": None,
    }


def _seconds(moment: datetime, since: str) -> int:
    return max(0, int((moment - datetime.fromisoformat(since)).total_seconds()))
