"""What the dealer reports of play at the table: a player's rest and return
[PT 90], a hand dealt and ended, and what an end would pay, asked before it is
confirmed (floor.domain.settlement).
"""

from __future__ import annotations

from floor.application.groups import rebalance
from floor.application.house_clocks import start_asked_absences
from floor.application.players import player as find_player
from floor.application.seat_support import close_players_out, suspend_or_resume
from floor.domain.table import Table, TableStatus
from floor.kernel.registry import command
from floor.kernel.roles import TABLE_REPORTERS
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork


# The dealer reports what happens at the table; in a small room the jefe does it.
@command(roles=TABLE_REPORTERS, scope="table")
def start_rest(work: UnitOfWork, *, table_id: str, player: str) -> Decision:
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    table.start_rest(
        found.id, repeated_rests_leave=work.profile.rest.idle_hands_must_leave is not None
    )
    return [table], {"table_id": str(table.id), "player_id": str(found.id)}


@command(roles=TABLE_REPORTERS, scope="table")
def end_rest(work: UnitOfWork, *, table_id: str, player: str) -> Decision:
    """Back from a rest; blinds missed meanwhile are posted dead [PT 90]."""
    table = work.load(Table, table_id, "table")
    found = find_player(work, player)
    seat, state = table.seated_state(found.id)
    owes = state["owes_cents"]
    table.end_rest(found.id)
    return [table], {"table_id": str(table.id), "seat": seat, "owes_cents": owes}


def _dealt_payload(
    *,
    table_id: object,
    dealt_in: list,
    button: int | None = None,
    blinds: dict | None = None,
    variant: str | None = None,
) -> dict:
    """A hand dealt is fingerprinted with every term, the unset ones as None."""
    return {
        "table_id": str(table_id),
        "dealt_in": dealt_in,
        "button": button,
        "blinds": blinds,
        "variant": variant,
    }


@command(roles=TABLE_REPORTERS, scope="table", payload=_dealt_payload)
def start_hand(
    work: UnitOfWork,
    *,
    table_id: str,
    dealt_in: list,
    button: int | None = None,
    blinds: dict | None = None,
    variant: str | None = None,
) -> Decision:
    """The dealer reports a hand dealt: the button, who is dealt in, the blinds."""
    table = work.load(Table, table_id, "table")
    decided = table.start_hand(
        work.profile,
        work.now(),
        variant=variant,
        button=button,
        dealt_in=dealt_in,
        blinds=blinds or {},
    )
    return [table], {"table_id": str(table.id), **decided}


REPORT = ("contributions", "winnings", "rake_cents", "pot_winners", "shown", "board", "folded")


def _report_payload(*, table_id: object, **report: object) -> dict:
    """A hand's end is fingerprinted with what the dealer reported, the unset
    terms left out."""
    known = {k: report.get(k) for k in REPORT}
    return {"table_id": str(table_id), **{k: v for k, v in known.items() if v is not None}}


@command(roles=TABLE_REPORTERS, scope="table", payload=_report_payload)
def end_hand(
    work: UnitOfWork,
    *,
    table_id: str,
    contributions: dict,
    winnings: dict | None = None,
    rake_cents: int | None = None,
    pot_winners: list | None = None,
    shown: dict | None = None,
    board: str | None = None,
    folded: list | None = None,
) -> Decision:
    """The dealer reports a hand's end: what each seat put in, and either
    what each won and the rake, or who won each pot (or the hands shown),
    from which the service settles the pots (floor.domain.settlement)."""
    table = work.load(Table, table_id, "table")
    decided = table.end_hand(
        work.profile,
        work.now(),
        contributions=contributions,
        winnings=winnings,
        rake_cents=rake_cents,
        pot_winners=pot_winners,
        shown=shown,
        board=board,
        folded=folded,
    )
    changed = [table]
    if table.last_hands_done:  # the last hand of the night [CM-24]
        changed = close_players_out(work, table, "closing_time")
    else:
        # Those who asked to step away during the hand go now [CM-18];
        # players gone during the hand (the absence clock) count now;
        # and the blinds moved, so does the seat a move should take.
        changed += start_asked_absences(work, table)
        changed += suspend_or_resume(work, table)
        if table.status != TableStatus.CLOSED:
            changed += rebalance(work, table.game)
    return changed, {"table_id": str(table.id), **decided, "status": table.status}


def _table_only(*, table_id: object, **_report: object) -> dict:
    """A preview is checked against the actor's reach by its table alone."""
    return {"table_id": str(table_id)}


# What a hand end would pay, recording nothing: asked before confirming it.
@command(roles=TABLE_REPORTERS, scope="table", query=True, payload=_table_only)
def preview_settlement(
    work: UnitOfWork,
    *,
    table_id: str,
    contributions: dict,
    winnings: dict | None = None,
    rake_cents: int | None = None,
    pot_winners: list | None = None,
    shown: dict | None = None,
    board: str | None = None,
    folded: list | None = None,
) -> dict:
    """What ``end_hand`` with this report would pay, recording nothing: the
    pots (amount, eligible seats, rake, winners), the chips returned, what
    each seat takes back and the stacks after. The same roles and scope
    as ``end_hand``; the same refusals. Asked with the contributions
    alone, it answers the pots (and their rake limit) before anyone is
    named the winner: ``payments`` then holds only the chips returned
    and ``stacks`` is null."""
    table = work.load(Table, table_id, "table")
    decided = table.settle_hand(
        work.profile,
        pots_only=True,
        contributions=contributions,
        winnings=winnings,
        rake_cents=rake_cents,
        pot_winners=pot_winners,
        shown=shown,
        board=board,
        folded=folded,
    )
    keys = ("number", "pot_cents", "rake_cents", "pots", "returned", "folded")
    stacks = decided["stacks"]
    if stacks is not None:
        stacks = {s: v for s, v in stacks.items() if int(s) in table.hand["dealt_in"]}
    return {
        "table_id": str(table.id),
        **{k: decided[k] for k in keys},
        "payments": decided["winnings"],
        "stacks": stacks,
    }
