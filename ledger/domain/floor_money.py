"""What the floor's events do to the books.

Every change of a stack the floor decides (a buy-in, a hand, a time charge, a
player leaving or moving table, a table closing) is booked from the Table's
own events, in the same save: the stacks the floor shows and the stack
accounts of the ledger cannot drift apart, and no floor command has to
remember to post.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from floor.ports.aggregates import Table
from ledger.domain import accounts
from ledger.domain.accounts import AccountRef
from ledger.domain.transaction import TransactionKind


@dataclass
class Booking:
    """A transaction to post: its kind, postings and references."""

    kind: TransactionKind
    postings: list[tuple[AccountRef, int]]
    reason: str = ""
    table_id: str | None = None
    player_id: str | None = None
    reference: str | None = None
    extra: dict = field(default_factory=dict)
    # The reason as a code and its params, for each reader's language (ledger.reasons).
    reason_code: str = ""
    reason_params: dict = field(default_factory=dict)


def _buy_in_postings(table: str, player: str, amount: int, paid_with: str) -> list:
    seat_stack = accounts.stack(table, player)
    if paid_with == "chips":
        return [(accounts.player_chips(player), -amount), (seat_stack, amount)]
    if paid_with == "cage":
        cash, chips = accounts.CAGE_CASH, accounts.CAGE_CHIPS
    else:  # cash at the table: into its drop box, chips from its tray
        cash, chips = accounts.drop(table), accounts.tray(table)
    return [(accounts.EXTERNAL, -amount), (cash, amount), (chips, -amount), (seat_stack, amount)]


def bookings_for(event: object, table_id: UUID) -> list[Booking]:
    """The transactions one Table event makes; none for most."""
    table = table_id.hex
    if isinstance(event, Table.ChipsBought):
        player = event.player_id
        return [
            Booking(
                TransactionKind.BUY_IN,
                _buy_in_postings(table, player, event.amount, event.paid_with),
                reason=event.paid_with,
                reason_code="buy_in",
                reason_params={"paid_with": event.paid_with},
                table_id=table,
                player_id=player,
            )
        ]
    if isinstance(event, Table.TimeCharged):
        return [
            Booking(
                TransactionKind.TIME_CHARGE,
                [
                    (accounts.stack(table, event.player_id), -event.cents),
                    (accounts.rake_box(table), event.cents),
                ],
                reason=f"session {event.session}",
                reason_code="time_charge",
                reason_params={"session": event.session},
                table_id=table,
                player_id=event.player_id,
            )
        ]
    if isinstance(event, Table.HandEnded):
        players = event.players or {}
        away = event.away_posted or {}
        postings = [(accounts.rake_box(table), event.rake_cents)]
        for seat, player in players.items():
            change = (
                event.winnings.get(seat, 0) - event.contributions.get(seat, 0) - away.get(seat, 0)
            )
            postings.append((accounts.stack(table, player), change))
        if not any(amount for _, amount in postings):
            return []  # a hand where nobody put anything in moves nothing
        return [
            Booking(
                TransactionKind.HAND,
                postings,
                reason=f"hand {event.number}",
                reason_code="hand",
                reason_params={"number": event.number},
                table_id=table,
                reference=str(event.number),
            )
        ]
    if isinstance(event, Table.BankedHandSettled):
        return _banked_hand(table, event)
    if isinstance(event, Table.PlayerLeft):
        return _stack_leaves(table, event.player_id, event.stack, event.reason)
    if isinstance(event, Table.Closed):
        bookings = []
        for state in event.players.values():
            bookings += _stack_leaves(table, state["player_id"], state["stack"], event.reason)
        return bookings
    if isinstance(event, Table.PlayerMovedOut) and event.stack:
        return [
            Booking(
                TransactionKind.STACK_MOVED,
                [
                    (accounts.stack(table, event.player_id), -event.stack),
                    (accounts.stack(event.to_table, event.player_id), event.stack),
                ],
                reason=event.kind,
                reason_code="stack_moved",
                reason_params={"why": event.kind},
                table_id=table,
                player_id=event.player_id,
                reference=event.to_table,
            )
        ]
    if isinstance(event, Table.ChipsTakenOff):
        box = accounts.tip_box(table) if event.purpose == "tip" else accounts.HOSPITALITY
        kind = TransactionKind.TIP if event.purpose == "tip" else TransactionKind.HOSPITALITY
        return [
            Booking(
                kind,
                [(accounts.stack(table, event.player_id), -event.amount), (box, event.amount)],
                reason=event.purpose,
                reason_code="chips_off",
                reason_params={"purpose": event.purpose},
                table_id=table,
                player_id=event.player_id,
            )
        ]
    if isinstance(event, Table.StackCorrected):
        # The jefe set the stack to what is really there: the difference goes
        # to the table's difference account, where a reviewer finds it.
        difference = event.stack - event.stack_before
        return [
            Booking(
                TransactionKind.STACK_FIX,
                [
                    (accounts.stack(table, event.player_id), difference),
                    (accounts.table_difference(table), -difference),
                ],
                reason=f"stack of seat {event.seat} corrected: {event.reason_code}",
                reason_code="stack_fixed",
                reason_params={"seat": event.seat, "fix": event.reason_code, "note": event.note},
                table_id=table,
                player_id=event.player_id,
            )
        ]
    if isinstance(event, Table.JackpotStaked):
        # The whole stake feeds the fund [GA art. 8b].
        postings = [(accounts.jackpot_fund(event.jackpot_id), sum(event.stakes.values()))]
        postings += [
            (accounts.stack(table, event.players[seat]), -cents)
            for seat, cents in event.stakes.items()
        ]
        return [
            Booking(
                TransactionKind.JACKPOT_BET,
                postings,
                reason=f"jackpot stakes, hand {event.hand}",
                reason_code="jackpot_stakes",
                reason_params={"hand": event.hand},
                table_id=table,
                reference=event.jackpot_id,
            )
        ]
    if isinstance(event, Table.JackpotPaid):
        total = sum(event.prizes.values())
        postings = [(accounts.jackpot_fund(event.jackpot_id), -total)]
        postings += [
            (accounts.stack(table, event.players[seat]), cents)
            for seat, cents in event.prizes.items()
        ]
        return [
            Booking(
                TransactionKind.JACKPOT_PAID,
                postings,
                reason="jackpot prizes",
                reason_code="jackpot_prizes",
                table_id=table,
                reference=event.jackpot_id,
            )
        ]
    return []


def _banked_hand(table: str, event: Table.BankedHandSettled) -> list[Booking]:
    """A banked hand's money: each box against the bank's tray, the house's
    commission to the rake box [PG I, III.2]; the jackpot stakes into the fund
    and its prizes out, booked as the separate stakes and prizes are
    [GA art. 8b]."""
    boxes = event.boxes
    bookings = []
    hand = [(accounts.tray(table), event.bank_cents)]
    hand.append((accounts.rake_box(table), event.commission_cents))
    hand += [
        (accounts.stack(table, box["player_id"]), box["main_cents"] + box["side_cents"])
        for box in boxes.values()
    ]
    if any(amount for _, amount in hand):
        bookings.append(
            Booking(
                TransactionKind.HAND,
                hand,
                reason=f"hand {event.number}",
                reason_code="hand",
                reason_params={"number": event.number},
                table_id=table,
                reference=str(event.number),
            )
        )
    jackpot = event.jackpot
    if jackpot:
        fund = accounts.jackpot_fund(jackpot["jackpot_id"])
        stakes = {s: b["jackpot_stake_cents"] for s, b in boxes.items() if b["jackpot_stake_cents"]}
        prizes = {s: b["jackpot_won_cents"] for s, b in boxes.items() if b["jackpot_won_cents"]}
        if stakes:
            postings = [(fund, sum(stakes.values()))]
            postings += [
                (accounts.stack(table, boxes[s]["player_id"]), -c) for s, c in stakes.items()
            ]
            bookings.append(
                Booking(
                    TransactionKind.JACKPOT_BET,
                    postings,
                    reason=f"jackpot stakes, hand {event.number}",
                    reason_code="jackpot_stakes",
                    reason_params={"hand": event.number},
                    table_id=table,
                    reference=jackpot["jackpot_id"],
                )
            )
        if prizes:
            postings = [(fund, -sum(prizes.values()))]
            postings += [
                (accounts.stack(table, boxes[s]["player_id"]), c) for s, c in prizes.items()
            ]
            bookings.append(
                Booking(
                    TransactionKind.JACKPOT_PAID,
                    postings,
                    reason="jackpot prizes",
                    reason_code="jackpot_prizes",
                    table_id=table,
                    reference=jackpot["jackpot_id"],
                )
            )
    return bookings


def _stack_leaves(table: str, player: str, stack: int, reason: str) -> list[Booking]:
    """The stack stays the player's: off the table, theirs to keep, play
    elsewhere or cash at the cage."""
    if not stack:
        return []
    return [
        Booking(
            TransactionKind.STACK_LEFT,
            [(accounts.stack(table, player), -stack), (accounts.player_chips(player), stack)],
            reason=reason,
            reason_code="stack_left",
            reason_params={"why": reason},
            table_id=table,
            player_id=player,
        )
    ]
