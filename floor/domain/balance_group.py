"""The tables of one game and stakes, across the sectors, kept balanced
(RULES.md section 7; floor.domain.balance decides).

The group knows its open tables, the balancing move it proposes (with why),
the seated players who asked to change table [CM-11, PT 26], and who was moved
today, so that nobody is moved twice before the others. Its id derives from
the game, so there is one group a game.
"""

from __future__ import annotations

from types import MappingProxyType
from uuid import UUID

from eventsourcing.domain import event

from floor.domain.game import Game
from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict
from floor.kernel.identity import name_based_id

# Why a player changes table: the service's move, the jefe's own, the player's
# request, a table broken, a must-move table's player going to the main game.
MOVE_KINDS = ("balance", "override", "table_change", "break", "must_move")


class BalanceGroup(AuditedAggregate):
    # The must-move tables: each (hex) -> the main table (hex) it feeds
    # (floor.domain.must_move). A class default, so that a group snapshotted
    # before must-move tables existed loads with none; always replaced, never
    # changed in place.
    must_move = MappingProxyType({})

    @staticmethod
    def id_for(game: Game) -> UUID:
        return name_based_id("balance-group", game.key)

    @classmethod
    def open_for(cls, game: Game) -> BalanceGroup:
        return cls(id=cls.id_for(game), game_key=game.key)

    @event("Opened")
    def __init__(self, id: UUID, game_key: str) -> None:  # noqa: A002 - derived from the game
        self.game_key = game_key
        self.tables: list[str] = []  # open tables (hex), in the order they opened
        self.proposal: dict | None = None
        self.proposals_made = 0
        self.change_requests: list[dict] = []  # {"player_id", "table_id"}, in order
        self.moved_on: dict[str, str] = {}  # player (hex) -> gaming day last moved

    # --- tables ----------------------------------------------------------------------

    def add_table(self, table_id: UUID) -> None:
        if table_id.hex not in self.tables:
            self._table_added(table_id=table_id.hex)

    @event("TableAdded")
    def _table_added(self, table_id: str) -> None:
        self.tables = [*self.tables, table_id]

    def remove_table(self, table_id: UUID) -> None:
        if table_id.hex in self.tables:
            self._table_removed(table_id=table_id.hex)

    @event("TableRemoved")
    def _table_removed(self, table_id: str) -> None:
        self.tables = [t for t in self.tables if t != table_id]
        self.change_requests = [r for r in self.change_requests if r["table_id"] != table_id]

    # --- must-move tables (floor.domain.must_move) ---------------------------------

    def main_of(self, table_id: UUID) -> str | None:
        """The main table (hex) ``table_id`` feeds as a must-move table, or None."""
        return self.must_move.get(table_id.hex)

    def feeder_of(self, table_id: UUID) -> str | None:
        """The must-move table (hex) feeding ``table_id``, or None."""
        return next((f for f, m in self.must_move.items() if m == table_id.hex), None)

    def start_must_move(self, table_id: UUID, main_table_id: UUID) -> None:
        """``table_id`` becomes the must-move table of ``main_table_id``: one
        feeder a main table, no chains, both tables of this game and open."""
        feeder, main = table_id.hex, main_table_id.hex
        if feeder == main:
            raise conflict("must_move_same_table")
        if feeder not in self.tables or main not in self.tables:
            raise conflict("move_not_same_game")
        if feeder in self.must_move:
            raise conflict("must_move_already")
        if main in self.must_move or feeder in self.must_move.values():
            raise conflict("must_move_chain")
        if main in self.must_move.values():
            raise conflict("main_has_must_move")
        self._must_move_started(table_id=feeder, main_table_id=main)

    @event("MustMoveStarted")
    def _must_move_started(self, table_id: str, main_table_id: str) -> None:
        self.must_move = {**self.must_move, table_id: main_table_id}

    def end_must_move(self, table_id: UUID, reason: str) -> None:
        """The table is a must-move table no more (``reason``: the jefe ended
        it, or it or its main table closed)."""
        if table_id.hex not in self.must_move:
            raise conflict("not_must_move")
        self._must_move_ended(table_id=table_id.hex, reason=reason)

    @event("MustMoveEnded")
    def _must_move_ended(self, table_id: str, reason: str) -> None:
        self.must_move = {f: m for f, m in self.must_move.items() if f != table_id}

    def must_moves_of(self, table_id: UUID) -> list[str]:
        """The must-move tables (hex) a closing ``table_id`` ends: its own, as
        feeder or as main."""
        return [f for f, m in self.must_move.items() if table_id.hex in (f, m)]

    # --- proposals -----------------------------------------------------------------

    def propose(self, proposal: dict | None) -> bool:
        """Records the move the service now proposes (None: none is needed);
        returns whether it changed."""
        current = self.proposal
        if proposal is None:
            if current is None:
                return False
            self._proposal_withdrawn(proposal_id=current["id"], reason="balanced")
            return True
        same = current is not None and all(
            current[k] == proposal[k] for k in ("player_id", "from_table", "to_table", "to_seat")
        )
        if same:
            return False
        self._move_proposed(proposal={**proposal, "id": self.proposals_made + 1})
        return True

    @event("MoveProposed")
    def _move_proposed(self, proposal: dict) -> None:
        self.proposal = proposal
        self.proposals_made = proposal["id"]

    @event("ProposalWithdrawn")
    def _proposal_withdrawn(self, proposal_id: int, reason: str) -> None:
        self.proposal = None

    def check_proposal(self, proposal_id: object) -> dict:
        if self.proposal is None or self.proposal["id"] != proposal_id:
            raise conflict("no_such_proposal", proposal=proposal_id)
        return self.proposal

    # --- moves -----------------------------------------------------------------------

    def record_move(self, move: dict, day: str) -> None:
        """A player changed table; ``move`` says who, from where to where, and why."""
        self._player_moved(**move, gaming_day=day)

    @event("PlayerMoved")
    def _player_moved(
        self,
        player_id: str,
        from_table: str,
        from_seat: int,
        to_table: str,
        to_seat: int,
        stack: int,
        kind: str,
        why: dict,
        gaming_day: str,
    ) -> None:
        self.moved_on = {**self.moved_on, player_id: gaming_day}
        self.change_requests = [r for r in self.change_requests if r["player_id"] != player_id]
        if self.proposal is not None and self.proposal["player_id"] == player_id:
            self.proposal = None

    def record_undo(self, undone: dict, reason_code: str, note: str) -> None:
        """A move made by mistake is undone (floor.application.corrections):
        the player is back where ``undone`` took them from. A new event naming
        the move undone and why; the move itself stays on record."""
        self._move_undone(undone=undone, reason_code=reason_code, note=note)

    @event("MoveUndone")
    def _move_undone(self, undone: dict, reason_code: str, note: str) -> None:
        pass

    def moved_today(self, day: str) -> set[str]:
        return {p for p, d in self.moved_on.items() if d == day}

    # --- table-change requests [CM-11; PT 26] -------------------------------------------

    def requesters(self, table_id: UUID) -> list[str]:
        return [r["player_id"] for r in self.change_requests if r["table_id"] == table_id.hex]

    def request_change(self, player_id: UUID, table_id: UUID) -> None:
        if any(r["player_id"] == player_id.hex for r in self.change_requests):
            raise conflict("table_change_already_requested")
        self._change_requested(player_id=player_id.hex, table_id=table_id.hex)

    @event("TableChangeRequested")
    def _change_requested(self, player_id: str, table_id: str) -> None:
        self.change_requests = [
            *self.change_requests,
            {"player_id": player_id, "table_id": table_id},
        ]

    def withdraw_change(self, player_id: UUID, reason: str = "withdrew") -> None:
        if not any(r["player_id"] == player_id.hex for r in self.change_requests):
            if reason == "withdrew":
                raise conflict("no_table_change_request")
            return
        self._change_withdrawn(player_id=player_id.hex, reason=reason)

    @event("TableChangeWithdrawn")
    def _change_withdrawn(self, player_id: str, reason: str) -> None:
        self.change_requests = [r for r in self.change_requests if r["player_id"] != player_id]
