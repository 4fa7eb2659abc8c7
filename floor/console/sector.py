"""The jefe de sector's console: a sector's tables, seats, lists and proposals.

The page is rendered once; its script then asks ``live/`` for the live part
every second and swaps in the blocks that changed (see console.js). ``live/``
answers 204 while the read models stand where the page saw them, so an idle
floor costs one small query a second per open console.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from floor.access import may_read
from floor.domain.absence import absence_refusal
from floor.domain.action_clock import action_clock_refusal
from floor.domain.draws import seat_to_take
from floor.domain.player import absence_left_today
from floor.domain.waiting_list import call_refusal
from floor.forms import LIMIT_LABELS, STATUS_LABELS, VARIANT_LABELS
from floor.kernel.composition import ROOM
from floor.kernel.registry import COMMANDS
from floor.kernel.roles import Role, runs_sector
from floor.kernel.web.access import console_read
from floor.kernel.web.gateway import actor_for
from floor.kernel.web.host import host
from floor.kernel.web.live import log_position, server_now, stamp
from floor.messages import balance_reason
from floor.selectors import balancing, console, players
from floor.selectors import tables as floor_tables
from games.variants import VARIANTS, Variant

if TYPE_CHECKING:  # the read models as types; the selectors read them
    from floor.models import (
        BalanceGroupView,
        HandView,
        SeatView,
        SectorView,
        TableView,
        WaitingEntryView,
    )


def table_label(table: TableView) -> dict[str, Any]:
    return {
        "variant": VARIANT_LABELS.get(table.variant, table.variant),
        "limit": LIMIT_LABELS.get(table.limit, table.limit),
        "status": STATUS_LABELS.get(table.status, table.status),
    }


def seat_rows(
    table: TableView,
    hand: HandView | None = None,
    room: SeatRules | None = None,
    group: BalanceGroupView | None = None,
) -> list[dict[str, Any]]:
    """Every seat of the table, free ones included, with what the floor watches
    and the actions the commands would take now (``offers``): each is asked of
    the command's own check in the domain, so the card offers no button the
    server would refuse (issue 22)."""
    occupied: dict[int, SeatView] = {s.seat: s for s in table.occupied_seats.all()}
    clock = table.action_clock or {}
    room = room or SeatRules.now()
    in_play = {"dealt_in": hand.dealt_in, "dead": hand.dead} if hand is not None else None
    held = room.offered.get(table.id, {})
    asked = [s for s, v in occupied.items() if v.away_after_hand]
    away = [s for s, v in occupied.items() if v.away and not v.away["posting_blinds"]]
    rows = []
    for number in range(1, table.seats + 1):
        seat = occupied.get(number)
        offers: dict[str, bool] = {}
        if seat is not None:
            offers["start_action_clock"] = (
                action_clock_refusal(
                    number,
                    enforced=room.profile.action_clock.enforced,
                    hand=in_play,
                    running=table.action_clock,
                )
                is None
            )
            rules = room.profile.absence
            offers["start_absence"] = (
                rules is not None
                and absence_refusal(
                    number,
                    seat,
                    stack=seat.stack_cents,
                    table_minimum=table.minimum_cents,
                    away_count=len([s for s in away + asked if s != number]),
                    rules=rules,
                )
                is None
                and absence_left_today(seat.player.absence_days, room.day, rules.uses_per_day)
            )
        else:
            offers["call_next"] = table.status != "closed" and (
                call_refusal(number, held, someone_to_call=room.someone_to_call(table, group))
                is None
            )
        rows.append(
            {
                "number": number,
                "seat": seat,
                "on_the_clock": clock if clock.get("seat") == number else None,
                "offered_to": held.get(number),
                "offers": offers,
            }
        )
    return rows


@dataclass(frozen=True)
class SeatRules:
    """What the table cards ask the domain's checks with: the rule profile,
    today's gaming day, the seats offered to called players (table id ->
    seat -> the call: its reservation and end) and who waits free to sit."""

    profile: Any
    day: Any
    offered: dict[UUID, dict[int, dict[str, Any]]]
    waiting_games: frozenset[tuple]

    @classmethod
    def now(cls) -> SeatRules:
        profile = host().application().profile
        calls = console.seat_calls()
        return cls(
            profile=profile,
            day=profile.gaming_day.of(server_now()),
            offered=calls,
            waiting_games=frozenset(console.games_with_free_waiting()),
        )

    def someone_to_call(self, table: TableView, group: BalanceGroupView | None) -> bool:
        """Whether ``call_next`` would find someone for a free seat here: a
        player of the table who asked to change seat, one of another table of
        the game who asked to change table, or one waiting on the game's list
        and free to sit [PT 12; CM-5, CM-11]. (A table change the balance
        would refuse still counts: the list may then be empty.)"""
        if table.seat_change_requests:
            return True
        requests = group.change_requests if group is not None else []
        if any(r["table_id"] != str(table.id) for r in requests):
            return True
        key = game_key(table.variant, table.limit, table.minimum_cents, table.maximum_cents)
        return key in self.waiting_games


def game_key(variant: str, limit: str, minimum: int, maximum: int) -> tuple:
    return (variant, limit, minimum, maximum)


def draw_needs(table: TableView, profile: Any, listed: dict[tuple, int], banked: bool) -> int:
    """How many more players the game's list needs before the table's draw
    would take them (0: the draw may run); one for a banked table, else the
    profile's least [GA art. 20, 23; PT 11, 24]."""
    needed = 1 if banked else profile.min_players
    key = game_key(table.variant, table.limit, table.minimum_cents, table.maximum_cents)
    return max(0, needed - listed.get(key, 0))


def may_be_dealt_in(seat: Any) -> bool:
    """Whether the deal form offers this seat: the hand's own check refuses a
    seat resting, away, without chips or bound to rebuy or to leave, so the
    form does not tick one (issue 22: nothing offered that would be refused)."""
    return (
        seat is not None
        and not seat.resting
        and not seat.away
        and seat.stack_cents > 0
        and not seat.must_rebuy
        and not seat.must_leave
    )


def table_cards(tables: list[TableView]) -> list[dict[str, Any]]:
    # The money on the tables, from the books (floor.kernel.composition, TableMoney).
    money = ROOM.table_money()
    rake_boxes = money.rake_in([t.id for t in tables])
    hands = console.hands_in_progress(tables)
    groups = balancing.all_balance_groups()
    banked = {t.id for t in tables if VARIANTS[Variant(t.variant)].banked}
    # The progressive a banked table feeds [GA art. 8b]: its stakes and prizes
    # go with the hand.
    jackpots = money.jackpots_fed() if banked else []
    labels = console.open_table_labels()
    room = SeatRules.now()
    listed = console.free_waiting_counts()
    cards = []
    for table in tables:
        hand = hands.get((table.id, table.hand_in_progress))
        group = next((g for g in groups if str(table.id) in g.table_ids), None)
        rows = seat_rows(table, hand, room, group)
        asking = [
            r["player_id"]
            for r in (group.change_requests if group else [])
            if r["table_id"] == str(table.id)
        ]
        cards.append(
            {
                "view": table,
                "labels": table_label(table),
                "rows": rows,
                "free_seats": [r["number"] for r in rows if r["seat"] is None],
                # The seats a hand may be dealt to, as start_hand checks them
                # (floor.domain.hand_rules): not resting, not away, with chips
                # and free to play [CM-18; GA art. 20; PT 13].
                "playing_seats": [r["number"] for r in rows if may_be_dealt_in(r["seat"])],
                # Deal a hand is offered only where check_may_deal and the
                # two seats a hand needs would let it: a running table, not
                # past its last hand [CM-24; PT 24].
                "may_deal": (
                    table.status == "running"
                    and table.last_hands_left != 0
                    and sum(1 for r in rows if may_be_dealt_in(r["seat"])) >= 2
                ),
                # The draw is offered once the list holds the players it needs
                # (draw_seats refuses fewer: not_enough_players) [GA art. 20; PT 11].
                "draw_needs": draw_needs(table, room.profile, listed, table.id in banked),
                "rake_cents": rake_boxes.get(table.id, 0),
                # A rest is two hands [GA art. 20; PT 13]: the badge says "resting 1/2".
                "rest_hands": getattr(room.profile.rest, "rest_hands", None),
                "hand": hand,
                "banked": table.id in banked,
                "jackpot_id": next((j for j, ids in jackpots if str(table.id) in ids), None),
                "boxes": [
                    r["number"]
                    for r in rows
                    if r["seat"] is not None and not r["seat"].resting and not r["seat"].away
                ],
                "asks_seat_change": set(table.seat_change_requests),
                "asks_table_change": set(asking),
                "change_targets": [
                    (other, labels[other])
                    for other in (group.table_ids if group and asking else [])
                    if other != str(table.id) and other in labels
                ],
            }
        )
    return cards


def sector_lists(tables: list[TableView]) -> list[dict[str, Any]]:
    """The waiting lists of the games this sector's tables play."""
    games = {game_key(t.variant, t.limit, t.minimum_cents, t.maximum_cents): t for t in tables}
    # The tables whose draw is open: the button seating a player called there
    # names no seat (floor.domain.draws.seat_to_take, CM-3).
    drawing = {t.id for t in tables if t.draw_open}
    found = []
    for waiting_list in players.unseated_lists():
        key = game_key(
            waiting_list.variant,
            waiting_list.limit,
            waiting_list.minimum_cents,
            waiting_list.maximum_cents,
        )
        if key not in games:
            continue
        found.append(
            {
                "view": waiting_list,
                "label": VARIANT_LABELS.get(waiting_list.variant, waiting_list.variant),
                "limit": LIMIT_LABELS.get(waiting_list.limit, waiting_list.limit),
                "tables": [
                    t
                    for t in tables
                    if game_key(t.variant, t.limit, t.minimum_cents, t.maximum_cents) == key
                ],
                "entries": [with_seat_to_take(e, drawing) for e in waiting_list.entries.all()],
            }
        )
    return found


def with_seat_to_take(entry: WaitingEntryView, drawing: set) -> WaitingEntryView:
    """The entry, told the seat its player takes if called: the domain decides
    (floor.domain.draws.seat_to_take), the console only asks."""
    entry.seat_to_take = seat_to_take(entry.call_seat, entry.call_table in drawing)
    return entry


def sector_proposals(tables: list[TableView]) -> list[dict[str, Any]]:
    """Balancing proposals that move a player to or from this sector's tables."""
    ours = {str(t.id) for t in tables}
    proposals = []
    for group in balancing.proposing_groups():
        proposal = group.proposal
        if proposal["from_table"] not in ours and proposal["to_table"] not in ours:
            continue
        numbers = console.table_numbers([proposal["from_table"], proposal["to_table"]])
        player = players.find_player(proposal["player_id"])
        proposals.append(
            {
                "group": group,
                "proposal": proposal,
                "player": player,
                "from_number": numbers.get(UUID(proposal["from_table"])),
                "to_number": numbers.get(UUID(proposal["to_table"])),
                "why": proposal_reasons(proposal, numbers),
                "targets": console.tables_in(group.table_ids),
            }
        )
    return proposals


def proposal_reasons(proposal: dict, numbers: dict) -> list[str]:
    """Why the move, in the reader's language (older proposals carry English only)."""
    reasons = proposal.get("reasons")
    if not reasons:
        return list(proposal.get("why", {}).values())
    from_number = numbers.get(UUID(proposal["from_table"]))
    to_number = numbers.get(UUID(proposal["to_table"]))
    return [
        _(
            "Table %(from)s has %(from_count)s players and table %(to)s %(to_count)s: "
            "more than %(limit)s apart (CM-10)."
        )
        % {"from": from_number, "to": to_number, **reasons},
        _("Seat %(seat)s at table %(number)s: %(why)s.")
        % {
            "seat": proposal["from_seat"],
            "number": from_number,
            "why": balance_reason(reasons["player"]),
        },
        _("Seat %(seat)s at table %(number)s: %(why)s.")
        % {
            "seat": proposal["to_seat"],
            "number": to_number,
            "why": balance_reason(reasons["seat"]),
        },
    ]


def acts_on_sector(user: Any, sector: SectorView) -> bool:
    """Whether the console offers this user the sector's commands: a jefe who
    runs it, or the director; everyone else reads it (the commands would refuse)."""
    actor = actor_for(user)
    if Role.DIRECTOR in actor.roles:
        return True
    return Role.JEFE_SECTOR in actor.roles and runs_sector(actor.username, sector.jefes)


def acts_on_table(user: Any, table: TableView) -> bool:
    """The dealer of this table, or whoever acts on its sector."""
    actor = actor_for(user)
    if Role.CRUPIER in actor.roles and table.dealer == actor.username:
        return True
    return acts_on_sector(user, table.sector)


def staff_forms(user: Any, sector: SectorView) -> dict[str, Any]:
    """What the console's staff forms need [GA art. 19.1]: whether this user
    names the sector's jefes (the director) or its tables' dealers (the jefe
    who runs it, the director), and whom they may name."""
    actor = actor_for(user)
    names_jefes = COMMANDS.may(actor, COMMANDS.assign_jefes)
    names_dealers = COMMANDS.may(actor, COMMANDS.assign_dealer) and acts_on_sector(user, sector)
    return {
        "names_jefes": names_jefes,
        "names_dealers": names_dealers,
        "jefes_to_name": players.staff_members(Role.JEFE_SECTOR.value) if names_jefes else [],
        "dealers_to_name": players.staff_members(Role.CRUPIER.value) if names_dealers else [],
    }


def live_context(sector_id: UUID) -> dict[str, Any]:
    """Everything the live part of the console shows."""
    sector = floor_tables.sector(sector_id)
    open_tables = console.open_tables_of(sector)
    return {
        "sector": sector,
        "tables": table_cards(open_tables),
        "closed_tables": console.closed_tables_count(sector),
        "lists": sector_lists(open_tables),
        "proposals": sector_proposals(open_tables),
        "position": log_position(),
        "server_now": server_now(),
        "back": reverse("floor:sector", args=[sector_id]),
    }


@console_read("sectors")
def live(request: HttpRequest, sector_id: UUID) -> HttpResponse:
    """The console's live part, or 204 when nothing changed since ``since``."""
    request.reader.check_sector_id(sector_id)
    position = log_position()
    if request.GET.get("since") == position:
        return stamp(HttpResponse(status=204), position)
    context = live_context(sector_id)
    context.update(staff_forms(request.user, context["sector"]))
    return stamp(render(request, "floor/console/_live.html", context), context["position"])


def table_live_context(table_id: UUID) -> dict[str, Any]:
    """The one table a dealer's tablet shows."""
    table = floor_tables.table_floor(table_id)
    return {
        "table": table,
        "tables": table_cards([table]),
        "dealer": True,
        "position": log_position(),
        "server_now": server_now(),
        "back": reverse("floor:table", args=[table_id]),
    }


@console_read("table_floor")
def table_view(request: HttpRequest, table_id: UUID) -> HttpResponse:
    """The dealer's tablet: the table's seats, its hand, the action clock; a
    dealer reads his own table's, a jefe his sectors' (floor.domain.reads)."""
    context = table_live_context(table_id)
    request.reader.check_table(context["table"])
    context.update(
        {
            "reads_sector": may_read(request.user, "sectors"),
            "acts": acts_on_table(request.user, context["table"]),
            "poll_ms": settings.FLOOR_CONSOLE_POLL_MS,
            "live_url": reverse("floor:table-live", args=[table_id]),
        }
    )
    return stamp(render(request, "floor/table_view.html", context), context["position"])


@console_read("table_floor")
def table_live(request: HttpRequest, table_id: UUID) -> HttpResponse:
    """The table view's live part, or 204 when nothing changed since ``since``."""
    request.reader.check_table(None, table_id)
    position = log_position()
    if request.GET.get("since") == position:
        return stamp(HttpResponse(status=204), position)
    context = table_live_context(table_id)
    return stamp(render(request, "floor/console/_table_live.html", context), context["position"])
