"""Banked hands: the dealer reports the boxes and the bank's hand, the service
settles them with the games engine and books every payment (docs/games.md,
"A banked hand through the floor").

The money of one hand, booked from the Table's ``BankedHandSettled`` event
(ledger.domain.floor_money): each box's result against the bank's tray (the
bank's chips), the Pai Gow commission to the table's rake box (the house's
benefit, as the rake is at a circle table [PG III.2]), the jackpot stakes into
the progressive's fund and its prizes out of it [GA art. 8b]. A fund left
below its starting amount is brought back to it from the cage [PT-SD 10], as
``pay_jackpot`` does.
"""

from __future__ import annotations

from typing import Any

from floor.domain.banked_hand import JackpotInPlay
from floor.domain.table import Table
from floor.kernel.registry import command, current_command
from floor.kernel.roles import TABLE_REPORTERS, Actor
from floor.kernel.service import Decision, Outcome
from ledger.domain import accounts
from ledger.domain.jackpot import Jackpot
from ledger.domain.transaction import TransactionKind


class BankedCommands:
    """The banked tables' hand: settle it, or preview it first."""

    def _banked_payload(self, table_id: str, boxes: object, bank: object, jackpot_id: object):
        return {
            "table_id": str(table_id),
            "boxes": boxes,
            "bank": bank,
            "jackpot_id": str(jackpot_id) if jackpot_id else None,
        }

    def _jackpot_in_play(self, table: Table, jackpot_id: object) -> tuple[Jackpot | None, Any]:
        """The progressive the table feeds (one fund for all its tables [GA
        art. 8b]), its fund as the hand begins; None when none is named."""
        if not jackpot_id:
            return None, None
        jackpot = self.load(Jackpot, jackpot_id, "jackpot")
        jackpot.check_table(table.id)
        fund = self.balance_of(accounts.jackpot_fund(jackpot.id))
        return jackpot, JackpotInPlay(jackpot.id.hex, jackpot.rules, fund)

    def _decide_banked(
        self, table_id: str, boxes: object, bank: object, jackpot_id: object
    ) -> Decision:
        table = self.load(Table, table_id, "table")
        jackpot, in_play = self._jackpot_in_play(table, jackpot_id)
        if jackpot is not None and isinstance(boxes, dict):
            for box in boxes.values():  # a PT-SD stake is the fixed amount [PT-SD 8]
                stake = box.get("jackpot_cents") if isinstance(box, dict) else None
                if stake:
                    jackpot.check_stake(stake, table.minimum_cents)
        decided = table.settle_banked_hand(self.profile, boxes=boxes, bank=bank, jackpot=in_play)
        changed: list = [table]
        played = decided["jackpot"]
        if jackpot is not None and played is not None:
            played = {**played, "jackpot_id": str(jackpot.id)}
            short = jackpot.seed_cents - played["fund_after_cents"]
            if short > 0:
                self._open_day()  # the cage's chips bring the fund back
                changed += self.book(
                    TransactionKind.JACKPOT_SEED,
                    [(accounts.CAGE_CHIPS, -short), (accounts.jackpot_fund(jackpot.id), short)],
                    reason="back to the starting amount",
                    reason_code="jackpot_reseed",
                    reference=jackpot.id.hex,
                )
                played = {**played, "fund_after_cents": jackpot.seed_cents}
        closing = table.last_hands_done  # the last hand of the night [GA art. 7, 15.3]
        if closing:
            changed = [*self.close_players_out(table, "closing_time"), *changed[1:]]
        boxes_out = {
            seat: {k: v for k, v in box.items() if k != "player_id"}
            for seat, box in decided["boxes"].items()
        }
        return changed, {
            "table_id": str(table.id),
            **{k: v for k, v in decided.items() if k not in ("boxes", "jackpot")},
            "boxes": boxes_out,
            "jackpot": played,
            "last_hands_left": table.last_hands["left"] if table.last_hands else None,
            "status": table.status,
        }

    # A banked hand, box by box [GA art. 6-16; PT-SD; PG], and its preview.
    @command(roles=TABLE_REPORTERS, scope="table")
    def settle_banked_hand(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        boxes: object,
        bank: object,
        jackpot_id: object = None,
    ) -> Outcome:
        """The dealer reports a banked hand: each box's bets and cards, the
        bank's hand; the service settles and books it, and closes the table
        after its last hand [GA art. 6-16; PT-SD; PG]."""
        payload = self._banked_payload(table_id, boxes, bank, jackpot_id)
        return self.execute(
            current_command(),
            actor,
            command_id,
            payload,
            lambda: self._decide_banked(table_id, boxes, bank, jackpot_id),
        )

    @command(roles=TABLE_REPORTERS, scope="table", query=True)
    def preview_banked_hand(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        boxes: object,
        bank: object,
        jackpot_id: object = None,
    ) -> Outcome:
        """The settlement ``settle_banked_hand`` would make, computed the same
        way, recording nothing: the dealer checks it before confirming."""
        payload = self._banked_payload(table_id, boxes, bank, jackpot_id)
        result = self.dry_run(
            current_command(),
            actor,
            payload,
            lambda: self._decide_banked(table_id, boxes, bank, jackpot_id),
        )
        return Outcome({**result, "preview": True}, False, None)
