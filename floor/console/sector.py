"""The jefe de sector's console: a sector's tables, seats, lists and proposals.

The page is rendered once; htmx then asks ``live/`` for the live part every
second and morphs it in (templates/floor/console/_script.html). ``live/``
answers 204 while nothing the console shows has changed (its sector's marks,
floor.kernel.web.live), so an idle console costs one small query a second,
however busy the other sectors are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from floor.access import may_read
from floor.console import must_move
from floor.console.corrections import former_tables, reasons, seat_corrections
from floor.domain.absence import absence_refusal
from floor.domain.action_clock import action_clock_refusal
from floor.domain.balance import table_change_request_refusal, table_change_to, tolerance
from floor.domain.draws import ListedPlayer, draw_candidates, draw_refusal, seat_to_take
from floor.domain.hand_rules import (
    deal_refusal,
    dealt_without_blinds,
    expected_button,
    owes_big_blind,
    seat_deal_refusal,
)
from floor.domain.must_move import must_move_refusal
from floor.domain.player import absence_left_today
from floor.domain.positions import step
from floor.domain.rests import rest_end_refusal, rest_refusal
from floor.domain.table_jackpots import (
    EMPTY_HAND,
    between_hands_refusal,
    stake_refusal,
    winner_refusal,
)
from floor.domain.table_status import TableStatus
from floor.domain.waiting_list import call_refusal
from floor.forms import LIMIT_LABELS, STATUS_LABELS, VARIANT_LABELS
from floor.kernel.composition import ROOM, TableJackpot
from floor.kernel.registry import COMMANDS
from floor.kernel.roles import Role, runs_sector
from floor.kernel.web.access import console_read
from floor.kernel.web.gateway import actor_for
from floor.kernel.web.host import host
from floor.kernel.web.live import (
    WANTED,
    log_position,
    sector_scope,
    server_now,
    stamp,
    table_scope,
)
from floor.messages import balance_reason
from floor.selectors import balancing, console, dealer_box, interest, players, waits
from floor.selectors import tables as floor_tables
from floor.selectors.player_hours import hours_of_players
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
        undo_to = None
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
            # A rest [GA art. 20; PT 13]: the command's own checks (floor.domain.rests).
            offers["start_rest"] = (
                rest_refusal(
                    number,
                    seat,
                    repeated_rests_leave=room.profile.rest.idle_hands_must_leave is not None,
                )
                is None
            )
            offers["end_rest"] = rest_end_refusal(seat) is None
            offers["request_table_change"] = (
                table_change_request_refusal(seat.stack_cents, room.profile) is None
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
            # The corrections (issue 22): each only when its command takes it now.
            more, undo_to = seat_corrections(
                table,
                number,
                seat,
                taken_here=set(occupied),
                offered=room.offered,
                former=room.former,
            )
            offers.update(more)
        else:
            # Seating a player named by the jefe: not while the draw is open
            # (the seat is drawn [CM-3]), nor while a seated player of this
            # table or another asked for the vacancy first [PT 12; CM-11],
            # nor while the must-move table's next player may take it.
            moving = room.must_move_next(table, group)
            # A seat held for a called player stays theirs [CM-6] (seat_player's
            # ``called_here``).
            offers["seat_player"] = (
                not table.draw_open
                and not table.seat_change_requests
                and (moving is None or number in held)
                and not room.table_change_first(table, group)
            )
            # The must-move table's next player moves here (move_from_must_move),
            # between that table's hands.
            offers["move_from_must_move"] = (
                moving is not None
                and not moving.after_hand
                and not table.seat_change_requests
                and number not in held
            )
            offers["call_next"] = (
                table.status != "closed"
                and moving is None
                and (
                    call_refusal(number, held, someone_to_call=room.someone_to_call(table, group))
                    is None
                )
            )
        rows.append(
            {
                "number": number,
                "seat": seat,
                "on_the_clock": clock if clock.get("seat") == number else None,
                "offered_to": held.get(number),
                "offers": offers,
                "undo_to": undo_to,
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
    # The tables seated players' undoable moves came from (floor.console.corrections).
    former: dict[UUID, Any] = field(default_factory=dict)
    counts: dict[Any, dict[str, int]] = field(default_factory=dict)
    # Each main table's next player from its must-move table, found once.
    movers: dict[Any, SeatView | None] = field(default_factory=dict)

    @classmethod
    def now(cls) -> SeatRules:
        profile = host().application().profile
        calls = console.seat_calls()
        return cls(
            profile=profile,
            day=profile.gaming_day.of(server_now()),
            offered=calls,
            waiting_games=frozenset(console.games_with_free_waiting()),
            former=former_tables(),
        )

    def someone_to_call(self, table: TableView, group: BalanceGroupView | None) -> bool:
        """Whether ``call_next`` would find someone for a free seat here: a
        player of the table who asked to change seat, one of another table of
        the game who asked to change table, or one waiting on the game's list
        and free to sit [PT 12; CM-5, CM-11]. A table change counts only
        where the command would take it (floor.domain.balance.table_change_to:
        the balance [CM-10], PT 26), or the card would offer a call the command
        refuses as ``nobody_to_call``."""
        if table.seat_change_requests or self.table_change_first(table, group):
            return True
        key = game_key(table.variant, table.limit, table.minimum_cents, table.maximum_cents)
        return key in self.waiting_games

    def table_change_first(self, table: TableView, group: BalanceGroupView | None) -> bool:
        """Whether a free seat here goes first to a player of another table
        who asked to change table [CM-11], by the command's own check
        (floor.domain.balance.table_change_to): ``call_next`` offers it to
        them, and ``seat_player`` refuses anyone else."""
        if group is None or not group.change_requests or table.status not in PLAYING:
            return False
        counts = self.playing_counts(group)
        return (
            table_change_to(group.change_requests, table.id.hex, counts, self.profile) is not None
        )

    def must_move_next(self, table: TableView, group: BalanceGroupView | None) -> SeatView | None:
        """The seat of the must-move table's player who moves next to a free
        seat of ``table``, or None (floor.console.must_move.next_mover)."""
        if group is None or not group.must_move:
            return None
        if table.id not in self.movers:
            counts = self.playing_counts(group)
            self.movers[table.id] = must_move.next_mover(
                table, group, counts, tolerance(self.profile)
            )
        return self.movers[table.id]

    def playing_counts(self, group: BalanceGroupView) -> dict[str, int]:
        """The group's playing tables (hex id -> players), read once a group."""
        if group.id not in self.counts:
            self.counts[group.id] = {
                t.id.hex: t.players
                for t in console.tables_in(group.table_ids)
                if t.status in PLAYING
            }
        return self.counts[group.id]


# The statuses whose players count for the balance (floor.application.groups).
PLAYING = (TableStatus.RUNNING, TableStatus.SUSPENDED)


def game_key(variant: str, limit: str, minimum: int, maximum: int) -> tuple:
    return (variant, limit, minimum, maximum)


def jackpot_forms(
    table: TableView, rows: list[dict[str, Any]], jackpots: list[TableJackpot]
) -> list[dict[str, Any]]:
    """The stake and prize forms of the jackpots a poker table plays for [GA
    art. 8b; PT-SD 8, 12], each offered only when its command would take it:
    between hands at an open table (``between_hands_refusal``); the stake to
    the seats ``stake_refusal`` lets stake the jackpot's stake on the next
    hand, when the jackpot's rule takes that stake here; the prize to the seats
    ``winner_refusal`` lets be paid for the hand just played, while a gaming
    day is open to book it. The checks are the Table's own (floor.domain.
    table_jackpots); the jackpot's are the books' (``ROOM.table_jackpots``)."""
    closed = table.status == TableStatus.CLOSED
    if between_hands_refusal(
        table.number, closed=closed, hand_in_play=bool(table.hand_in_progress)
    ):
        return []
    forms = []
    for jackpot in jackpots:
        hands = (table.jackpot_stakes or {}).get(UUID(str(jackpot.id)).hex, {})
        coming = hands.get(str(table.hands_played + 1), EMPTY_HAND)
        played = hands.get(str(table.hands_played), EMPTY_HAND)
        stake, win = [], []
        for row in rows:
            seat, number = row["seat"], row["number"]
            if seat is None:
                continue
            if jackpot.stake_allowed and (
                stake_refusal(
                    number,
                    seat,
                    stack=seat.stack_cents,
                    staked=coming["seats"],
                    cents=jackpot.stake_cents,
                )
                is None
            ):
                stake.append(row)
            if jackpot.pays_now and winner_refusal(number, seat.player_id.hex, played) is None:
                win.append(row)
        if stake or win:
            forms.append({"jackpot": jackpot, "stake_rows": stake, "winner_rows": win})
    return forms


@dataclass(frozen=True)
class CardSeats:
    """A table as its card reads it, for the hand rules' button
    (floor.domain.hand_rules.expected_button): its seats, the occupied ones
    (the read model's rows), the button, and the last hand's (between hands,
    the button itself once a hand was played)."""

    seats: int
    button: int | None
    last_button: int | None
    taken: dict[int, Any]

    def occupied(self) -> list[int]:
        return sorted(self.taken)

    def seat_at(self, seat: int | str) -> Any:
        return self.taken.get(int(seat))


def occupied_row(rows: list[dict[str, Any]], number: int) -> Any:
    return next(r["seat"] for r in rows if r["number"] == number)


def posting_blinds(seat: SeatView) -> bool:
    """Away past the absence clock, their blinds posted [CM-18]."""
    return bool(seat.away and seat.away.get("posting_blinds"))


def button_to_come(table: TableView, rows: list[dict[str, Any]], room: SeatRules) -> tuple:
    """The seat the button goes to next and the newcomer it skips [PT 80], by
    the rule ``start_hand`` checks: the card ticks no skipped newcomer in and
    names the button where the rules put it."""
    taken = {r["number"]: r["seat"] for r in rows if r["seat"] is not None}
    seats = CardSeats(
        seats=table.seats,
        button=table.button,
        last_button=table.button if table.hands_played else None,
        taken=taken,
    )
    return expected_button(seats, step(room.profile))


def draw_offer(table: TableView, room: SeatRules) -> tuple[bool, int]:
    """Whether "Draw the seats" would be taken at this registering table now,
    and if not, how many more players the game's list needs: one count, the
    draw's own (floor.domain.draws) [CM-8, CM-9, CM-14; GA art. 20, 23; PT 11,
    24]. The list's players the draw may seat (not barred, seated nowhere,
    never two kept apart; a tournament player only on its dinner break, which
    the read models do not keep: here never, so the card offers less, never
    more), less the free seats the draw fills first at the game's playing
    tables under a balancing rule [CM-10], against one player at a banked
    table, else the profile's least. ``(False, 0)`` at a table not
    registering; while registering, never neither the draw nor a need."""
    if table.status != TableStatus.REGISTERING:
        return False, 0
    game = console.game_draw(table.variant, table.limit, table.minimum_cents, table.maximum_cents)
    candidates = draw_candidates(
        [
            ListedPlayer(
                player_id=p.id.hex,
                barred=p.barred,
                seated=p.table_id is not None,
                in_tournament=p.in_tournament,
                kept_apart=frozenset(p.kept_apart),
            )
            for p in game["listed"]
        ],
        on_break=False,
    )
    left = len(candidates)
    if tolerance(room.profile) is not None:
        left -= min(left, max(game["free_seats"], 0))
    banked = VARIANTS[Variant(table.variant)].banked
    needed = 1 if banked else room.profile.min_players
    if draw_refusal(left, needed) is None:
        return True, 0
    return False, needed - left


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
    # The jackpots a poker table plays for: staked and paid from its card (a
    # banked table's go with its hand's settlement).
    poker_jackpots = ROOM.table_jackpots([t for t in tables if t.id not in banked])
    room = SeatRules.now()
    cards = []
    # Each seated player's time today (issue 26: floor.selectors.player_hours).
    played = hours_of_players(
        {s.player_id.hex for table in tables for s in table.occupied_seats.all() if s.player_id}
    )
    for table in tables:
        hand = hands.get((table.id, table.hand_in_progress))
        group = next((g for g in groups if str(table.id) in g.table_ids), None)
        rows = seat_rows(table, hand, room, group)
        for row in rows:
            if row["seat"] is not None and row["seat"].player_id:
                row["hours"] = played.get(row["seat"].player_id.hex)
        # The seats a hand may be dealt to: the command's own check per seat,
        # and not the newcomer the button skips [PT 80].
        button, skipped = button_to_come(table, rows, room)
        dealable: list[int] = [
            r["number"]
            for r in rows
            if r["number"] != skipped
            and seat_deal_refusal(
                r["number"],
                r["seat"],
                stack=r["seat"].stack_cents if r["seat"] is not None else 0,
                session_running=table.session is not None,
            )
            is None
        ]
        if button is not None:  # the form posts no blinds: no one owing the big blind off it
            dealable = dealt_without_blinds(
                table.seats,
                button,
                step(room.profile),
                dealable,
                {n for n in dealable if owes_big_blind(occupied_row(rows, n), room.profile)},
                [r["number"] for r in rows if r["seat"] is not None and posting_blinds(r["seat"])],
            )
        asking = [
            r["player_id"]
            for r in (group.change_requests if group else [])
            if r["table_id"] == str(table.id)
        ]
        draw, draw_needs = draw_offer(table, room)
        cards.append(
            {
                "view": table,
                "labels": table_label(table),
                "rows": rows,
                "correction_reasons": reasons(),
                "free_seats": [r["number"] for r in rows if r["seat"] is None],
                # A seated player moves only to a seat not offered to a called
                # player (``change_seat``: the list first [CM-6]).
                "change_seats": [
                    r["number"] for r in rows if r["seat"] is None and not r["offered_to"]
                ],
                "playing_seats": dealable,
                # Where the rules put the button (None: the dealer names it).
                "button_to_come": button,
                # "Deal a hand" only when ``start_hand`` would take it
                # (floor.domain.hand_rules): the table may deal, two seats may be dealt in.
                "deal": len(dealable) >= 2
                and deal_refusal(
                    table.number,
                    status=table.status,
                    banked=table.id in banked,
                    hand_in_play=bool(table.hand_in_progress),
                    last_hands_left=table.last_hands_left,
                )
                is None,
                # "Draw the seats" when ``draw_seats`` would take it, else how
                # many more the list needs (one count, draw_offer) [GA art. 20; PT 11].
                "draw": draw,
                "draw_needs": draw_needs,
                "rake_cents": rake_boxes.get(table.id, 0),
                # A rest is two hands [GA art. 20; PT 13]: the badge says "resting 1/2".
                "rest_hands": getattr(room.profile.rest, "rest_hands", None),
                "hand": hand,
                "banked": table.id in banked,
                "jackpot_id": next((j for j, ids in jackpots if str(table.id) in ids), None),
                "jackpot_forms": jackpot_forms(table, rows, poker_jackpots.get(table.id, [])),
                # While the draw is open a player is seated at a drawn seat [CM-3],
                # unless a seated player asked for the vacancy first [PT 12; CM-11].
                "seat_drawn": table.draw_open
                and any(r["seat"] is None for r in rows)
                and not table.seat_change_requests
                and room.must_move_next(table, group) is None
                and not room.table_change_first(table, group),
                # Must-move tables (floor.console.must_move): what this table
                # feeds or is fed by, the order its players move in, and who
                # moves next to a free seat here.
                "must_move": must_move.card_facts(
                    table,
                    group,
                    tables,
                    allowed=must_move_refusal(room.profile) is None,
                ),
                "must_move_next": room.must_move_next(table, group),
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
    now = server_now()
    keeps_order = host().application().profile.waiting_list.remote_keeps_order
    for waiting_list in players.unseated_lists():
        key = game_key(
            waiting_list.variant,
            waiting_list.limit,
            waiting_list.minimum_cents,
            waiting_list.maximum_cents,
        )
        if key not in games:
            continue
        # Each waiting player's estimated wait, from the game's recent history
        # (floor.selectors.waits): none when there is too little of it.
        estimates = waits.estimates_for_list(waiting_list.game, now, remote_keeps_order=keeps_order)
        entries = []
        for entry in waiting_list.entries.all():
            entry.wait_estimate = estimates.get(entry.player_id.hex)
            entries.append(with_seat_to_take(entry, drawing))
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
                "entries": entries,
            }
        )
    return found


def wanted_games() -> list[dict[str, Any]]:
    """The games players asked for that no table plays, with how many wait
    in the room and whether that is enough to open a table (issue 24, item 4;
    floor.selectors.interest) [GA art. 23; PT 24; CM-7, CM-8]."""
    return [
        {
            "wanted": wanted,
            "view": wanted.waiting_list,
            "label": VARIANT_LABELS.get(wanted.waiting_list.variant, wanted.waiting_list.variant),
            "limit": LIMIT_LABELS.get(wanted.waiting_list.limit, wanted.waiting_list.limit),
        }
        for wanted in interest.wanted_games(host().application().profile)
    ]


def sector_scopes(sector_id: UUID) -> tuple[str, str]:
    """What the jefe's console of a sector shows: the sector, and the games
    asked for that no table plays (floor.projections.live_marks)."""
    return sector_scope(sector_id), WANTED


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
        # The seat lines' corrections are the jefe's who runs the sector (issue 22).
        "corrects": COMMANDS.may(actor, COMMANDS.fix_stack) and acts_on_sector(user, sector),
        # Whether the console offers this user the sector's commands.
        "acts": acts_on_sector(user, sector),
        # Opening a table, here or for a game asked for (issue 24, item 4).
        "can_open_table": COMMANDS.may(actor, COMMANDS.open_table) and acts_on_sector(user, sector),
        "jefes_to_name": players.staff_members(Role.JEFE_SECTOR.value) if names_jefes else [],
        "dealers_to_name": players.staff_members(Role.CRUPIER.value) if names_dealers else [],
        # The dealer box's clock-in (issue 26): the crupiers (those not in
        # the box are offered) and the games one may deal.
        "crupiers": players.staff_members(Role.CRUPIER.value) if names_dealers else [],
        "dealer_games": [(v.value, label) for v, label in VARIANT_LABELS.items()],
    }


def with_game_labels(box: dict[str, Any] | None) -> dict[str, Any] | None:
    """The dealer box with each dealer's games named as people read them."""
    if box is None:
        return None
    for row in (r for part in ("dealing", "idle", "on_break") for r in box[part]):
        row["games"] = [str(VARIANT_LABELS.get(g, g)) for g in row["games"]]
    return box


def live_context(sector_id: UUID, position: str | None = None) -> dict[str, Any]:
    """Everything the live part of the console shows. The position is read
    before anything shown (or passed in, read so): a command answered while
    the page is being read is then never claimed as shown, and the next poll
    brings it (read after it, the page could stay without it until the next
    change in its scope)."""
    position = position or log_position(*sector_scopes(sector_id))
    sector = floor_tables.sector(sector_id)
    open_tables = console.open_tables_of(sector)
    return {
        "sector": sector,
        "tables": table_cards(open_tables),
        "closed_tables": console.closed_tables_count(sector),
        "lists": sector_lists(open_tables),
        "wanted": wanted_games(),
        "proposals": sector_proposals(open_tables),
        # Who deals where, the next pushes, the breaks (issue 26; GA art. 19).
        "box": with_game_labels(dealer_box.sector_dealer_box(sector_id, open_tables)),
        "position": position,
        "server_now": server_now(),
        "back": reverse("floor:sector", args=[sector_id]),
    }


@console_read("sectors")
def live(request: HttpRequest, sector_id: UUID) -> HttpResponse:
    """The console's live part, or 204 when nothing changed since ``since``."""
    request.reader.check_sector_id(sector_id)
    position = log_position(*sector_scopes(sector_id))
    if request.GET.get("since") == position:
        return stamp(HttpResponse(status=204), position)
    context = live_context(sector_id, position)
    context.update(staff_forms(request.user, context["sector"]))
    return stamp(render(request, "floor/console/_live.html", context), context["position"])


def table_live_context(table_id: UUID, position: str | None = None) -> dict[str, Any]:
    """The one table a dealer's tablet shows (the position read first, as in
    live_context)."""
    position = position or log_position(table_scope(table_id))
    table = floor_tables.table_floor(table_id)
    return {
        "table": table,
        "tables": table_cards([table]),
        "dealer": True,
        "position": position,
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
    position = log_position(table_scope(table_id))
    if request.GET.get("since") == position:
        return stamp(HttpResponse(status=204), position)
    context = table_live_context(table_id, position)
    return stamp(render(request, "floor/console/_table_live.html", context), context["position"])
