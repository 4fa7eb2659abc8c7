"""The draw of a table's seats [GA art. 20; PT 11, 25, 27; CM-8]: the open
tables of the game completed first, then the players drawn to seats and, by
suit, to tables; the first button drawn as the profile says [CM; PT 29; GA art.
23.1].
"""

from __future__ import annotations

from uuid import UUID

from floor.application import exclusion_gate
from floor.application.groups import (
    balance_group,
    dinner_break,
    must_move_first,
    playing_tables,
    rebalance,
    table_change_first,
)
from floor.application.players import waiting_list
from floor.application.seat_support import leave_lists, random_source, suspend_or_resume
from floor.domain import balance, draws
from floor.domain.player import Player
from floor.domain.table import Table, TableStatus
from floor.domain.waiting_list import is_checked_in
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command
from floor.kernel.roles import JEFE
from floor.kernel.service import Decision
from floor.kernel.unit_of_work import UnitOfWork
from games.profile_rules import FirstButton

MAX_TABLES_PER_DRAW = 4  # one suit per table [PT 25]


def _first_button(work: UnitOfWork, seats: list[int]) -> tuple[int | None, dict | None]:
    """The first hand's button among the drawn seats: by card draw [CM], the
    first seat at the dealer's left [PT 29], or marked by the dealer at the
    first hand [GA art. 23.1]."""
    first = work.profile.button.first
    if first is FirstButton.CARD_DRAW:
        cards, winner = draws.draw_button(seats, random_source(work))
        return winner, {"cards": {str(s): c for s, c in cards.items()}, "winner": winner}
    if first is FirstButton.FIRST_SEAT_LEFT_OF_DEALER:
        return min(seats), None
    return None, None


def _complete_open_tables(
    work: UnitOfWork, drawing: list[Table], candidates: list[Player]
) -> tuple[list[Player], list[Table], list[Player]]:
    """Before a new table's seats are drawn, the open tables of the game are
    completed in list order [CM-8]: each free seat (not held for a called
    player, nor kept for a seated player who comes before the list) goes to
    the next candidate who may sit there. Returns those seated, the tables
    they sat at and the candidates left for the draw."""
    if balance.tolerance(work.profile) is None:
        return [], [], candidates
    group = balance_group(work, drawing[0].game)
    drawing_ids = {t.id for t in drawing}
    open_tables = [
        t for t in (playing_tables(work, group) if group else []) if t.id not in drawing_ids
    ]
    waiting = waiting_list(work, drawing[0].game)
    seated: list[Player] = []
    touched: list[Table] = []
    left = list(candidates)
    for table in open_tables:
        held = waiting.seats_called(table.id) if waiting else {}
        # A seated player the table's vacancy goes to first keeps a seat: the
        # must-move table's next, one asking to change table [PT 12; CM-11].
        firsts = [must_move_first(work, table), table_change_first(work, table)]
        kept = len([f for f in firsts if f is not None])
        for seat in [s for s in table.free_seats() if s not in held][kept:]:
            taker = next(
                (
                    p
                    for p in left
                    if not any(o["player_id"] in p.kept_apart for o in table.occupants.values())
                ),
                None,
            )
            if taker is None:
                break
            table.seat_player(
                taker.id,
                seat,
                posts_big_blind=False,
                drawn_from=None,
                time_due=table.owes_on_joining(work.profile, work.now()),
            )
            taker.take_seat(table.id, seat, table.game.key)
            seated.append(taker)
            left.remove(taker)
            if table not in touched:
                touched.append(table)
    return seated, touched, left


def _draw_payload(*, table_ids: object) -> dict:
    """A draw is fingerprinted with its tables' ids as text (none: not a list)."""
    return {"table_ids": [str(t) for t in table_ids] if isinstance(table_ids, list) else []}


@command(roles=JEFE, scope="table", payload=_draw_payload)
def draw_seats(work: UnitOfWork, *, table_ids: list) -> Decision:
    """Starts one or more tables of one game: draws their seats among the
    players registered for it [GA art. 20; PT 11]; several tables by suit
    [PT 25]; more players than seats: those of the previous session first
    [PT 27], then list order [CM-8]. The draw is recorded for replay."""
    if not isinstance(table_ids, list) or not table_ids:
        raise invalid("table_ids_required")
    if len(set(map(str, table_ids))) > MAX_TABLES_PER_DRAW:
        raise invalid("too_many_tables")
    tables = [work.load(Table, t, "table") for t in dict.fromkeys(map(str, table_ids))]
    game = tables[0].game
    for table in tables:
        table.check_not_closed()
        if table.game != game:
            raise conflict("tables_not_same_game")
        if table.status != TableStatus.REGISTERING:
            raise conflict("table_not_registering", table=table.number)
    waiting = waiting_list(work, game)
    listed = {}
    for entry in waiting.entries if waiting else []:
        if not is_checked_in(entry):  # a remote entry: not in the room yet (issue 24)
            continue
        player = work.find(Player, UUID(entry["player_id"]))
        # Left out of the draw, as a barred player is: a patron the exclusion
        # lists refuse, or a possible match not yet resolved (issue 25, item 2).
        if player is not None and exclusion_gate.may_enter(work, player):
            listed[player.id.hex] = player
    candidates = [
        listed[c.player_id]
        for c in draws.draw_candidates(
            [
                draws.ListedPlayer(
                    player_id=p.id.hex,
                    barred=p.barred,
                    seated=p.seated_at is not None,
                    in_tournament=p.in_tournament,
                    kept_apart=frozenset(p.kept_apart),
                )
                for p in listed.values()
            ],
            on_break=dinner_break(work),  # CM-23
        )
    ]
    changed: list = [*tables]
    completed, touched, candidates = _complete_open_tables(work, tables, candidates)
    for table in touched:
        changed += [table, *suspend_or_resume(work, table)]
    for player in completed:
        changed += [
            player,
            *leave_lists(work, player, player.lists_left_on_seating(game.key), "seated"),
        ]
    needed = 1 if tables[0].banked else work.profile.min_players
    refusal = draws.draw_refusal(len(candidates), needed * len(tables))
    if refusal is not None:
        raise refusal
    capacity = {t.id.hex: t.seats for t in tables}
    priority = [p for p in candidates if p.played_previous_session(game.key)]
    chosen = (priority + [p for p in candidates if p not in priority])[: sum(capacity.values())]
    ids = [p.id.hex for p in chosen]
    if len(tables) > 1:
        by_suit = draws.draw_by_suit(ids, list(capacity), capacity, random_source(work))
    else:
        by_suit = {pid: {"card": None, "table_id": tables[0].id.hex} for pid in ids}
    players = {p.id.hex: p for p in chosen}
    changed += chosen
    result: dict = {"tables": {}, "completed": [str(p.id) for p in completed]}
    for table in tables:
        here = [pid for pid in ids if by_suit[pid]["table_id"] == table.id.hex]
        drawn = draws.draw_seats(here, table.free_seats(), random_source(work))
        record = {
            "order": list(drawn.players),
            "seats": list(drawn.seats),
            "suits": {pid: by_suit[pid]["card"] for pid in here if len(tables) > 1},
            "priority": [p.id.hex for p in priority if p.id.hex in here],
        }
        button, button_draw = _first_button(work, list(drawn.seats))
        # In list order (those of the previous session first [PT 27]): the
        # order they arrive in (floor.domain.must_move), not the draw's.
        assignment = drawn.assignment()
        table.record_draw(
            {pid: assignment[pid] for pid in here},
            record,
            button,
            button_draw,
            work.profile.seating.draw_open_until_full,
        )
        for pid, seat in drawn.assignment().items():
            players[pid].take_seat(table.id, seat, game.key)
        result["tables"][str(table.id)] = {
            "seats": {str(s): str(UUID(p)) for p, s in drawn.assignment().items()},
            "button": button,
        }
    for player in chosen:
        changed += leave_lists(work, player, player.lists_left_on_seating(game.key), "seated")
    changed += rebalance(work, game)
    result["left_on_list"] = len(candidates) - len(chosen)
    return changed, result
