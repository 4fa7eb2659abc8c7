"""Seating commands: draw a table's seats, seat and move players, chips, rests,
leaving and closing (RULES.md sections 3 to 5)."""

from __future__ import annotations

import secrets
from datetime import datetime
from random import Random
from uuid import UUID

from floor.application.groups import GroupSupport
from floor.domain import balance, draws
from floor.domain.game import Game
from floor.domain.player import Player
from floor.domain.table import CLOSING_REASONS, LEAVING_REASONS, Table, TableStatus
from floor.domain.waiting_list import EntryStatus
from floor.kernel.errors import conflict, invalid
from floor.kernel.registry import command, current_command
from floor.kernel.roles import JEFE, TABLE_REPORTERS, Actor
from floor.kernel.service import Decision, Outcome
from games.profile_rules import FirstButton

MAX_TABLES_PER_DRAW = 4  # one suit per table [PT 25]
# How a buy-in the table takes is paid; one paid at the cage is the cage's.
TABLE_PAYMENTS = ("cash", "chips")


class SeatingCommands(GroupSupport):
    # The draws' random source [issue 4: `secrets`]; tests may set a seeded one.
    random: Random = secrets.SystemRandom()

    # --- helpers ---------------------------------------------------------------------

    def _suspend_or_resume(self, table: Table) -> list:
        """Below four players a running table is suspended; at four it resumes
        [GA art. 23; PT 24]. The closing deadline is recorded (None under GA).
        Playing its last hands of the night, it closes instead [CM-24]. Returns
        what else changed."""
        needed = self.profile.min_players
        if table.hand is not None:
            return []  # a hand is played out first; its end decides [PT 24]
        if table.status == TableStatus.RUNNING and table.below_minimum(needed):
            if table.last_hands is not None:
                return self.close_players_out(table, "closing_time")
            delay = self.profile.suspension_closes_after
            now = self.now()
            table.suspend(now, now + delay if delay else None, needed)
        elif table.status == TableStatus.SUSPENDED and not table.below_minimum(needed):
            table.resume()
        return []

    def _first_button(self, seats: list[int]) -> tuple[int | None, dict | None]:
        """The first hand's button among the drawn seats: by card draw [CM], the
        first seat at the dealer's left [PT 29], or marked by the dealer at the
        first hand [GA art. 23.1]."""
        first = self.profile.button.first
        if first is FirstButton.CARD_DRAW:
            cards, winner = draws.draw_button(seats, self.random)
            return winner, {"cards": {str(s): c for s, c in cards.items()}, "winner": winner}
        if first is FirstButton.FIRST_SEAT_LEFT_OF_DEALER:
            return min(seats), None
        return None, None

    def _leave_lists(self, player: Player, keys: list[str], reason: str) -> list:
        changed = []
        for key in keys:
            waiting = self.waiting_list(Game.from_key(key))
            if waiting is not None and waiting.entry_of(player.id) is not None:
                waiting.remove(player.id, reason)
                changed.append(waiting)
            player.left_list(key)
        return changed

    def _complete_open_tables(
        self, drawing: list[Table], candidates: list[Player]
    ) -> tuple[list[Player], list[Table], list[Player]]:
        """Before a new table's seats are drawn, the open tables of the game are
        completed in list order [CM-8]: each free seat (not held for a called
        player) goes to the next candidate who may sit there. Returns those
        seated, the tables they sat at and the candidates left for the draw."""
        if balance.tolerance(self.profile) is None:
            return [], [], candidates
        group = self.balance_group(drawing[0].game)
        drawing_ids = {t.id for t in drawing}
        open_tables = [
            t for t in (self.playing_tables(group) if group else []) if t.id not in drawing_ids
        ]
        waiting = self.waiting_list(drawing[0].game)
        seated: list[Player] = []
        touched: list[Table] = []
        left = list(candidates)
        for table in open_tables:
            held = waiting.seats_called(table.id) if waiting else {}
            for seat in [s for s in table.free_seats() if s not in held]:
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
                    time_due=table.owes_on_joining(self.profile, self.now()),
                )
                taker.take_seat(table.id, seat, table.game.key)
                seated.append(taker)
                left.remove(taker)
                if table not in touched:
                    touched.append(table)
        return seated, touched, left

    def _left_group(self, table: Table, player: Player) -> list:
        """A player gone from a table: their table-change request lapses and
        the group may need a move."""
        group = self.balance_group(table.game)
        if group is None:
            return []
        group.withdraw_change(player.id, reason="left")
        return [group, *self.rebalance(table.game)]

    def _check_reseat_cooldown(self, player: Player, table: Table) -> None:
        """A player who left a table sits at another of the same game without
        the draw only once the cool-down has passed [CM-13]."""
        cooldown = self.profile.table_moves.reseat_cooldown
        left = player.last_left
        if cooldown is None or left is None or left["game"] != table.game.key:
            return
        if left["table_id"] == table.id.hex:
            return
        until = datetime.fromisoformat(left["at"]) + cooldown
        if self.now() < until:
            raise conflict(
                "reseat_cooldown",
                f"{player.display_name} left a table of this game less than "
                f"{int(cooldown.total_seconds() // 60)} minutes ago: they may sit here "
                f"without the draw from {until:%H:%M} (CM-13).",
                until=until.isoformat(),
            )

    def _offer_seat(self, table: Table, seat: int) -> tuple[list, dict | None]:
        """A freed seat goes first to a seated player who asked to change seat,
        then to one of another table of the game who asked to change table
        [CM-11], then to the list in order [PT 12; CM-5]: the first waiting player is
        called, with the call window's end where the profile has one [CM-6]."""
        if table.seat_change_requests:
            return [], {"seat_change_request": str(UUID(table.seat_change_requests[0]))}
        changing = self.table_change_first(table)
        if changing is not None:  # seated players before the list [CM-11]
            return [], changing
        waiting = self.waiting_list(table.game)
        first = None
        for entry in waiting.entries if waiting else []:
            if entry["status"] != EntryStatus.WAITING:
                continue
            # A player seated elsewhere (on a list of another game, CM-7) must
            # leave that table first: the seat goes to the next one free to take it.
            candidate = self.find(Player, UUID(entry["player_id"]))
            if candidate is not None and candidate.seated_at is None:
                first = entry
                break
        if first is None:
            return [], None
        window = self.profile.waiting_list.call_window
        now = self.now()
        player_id = UUID(first["player_id"])
        waiting.call(player_id, table.id, seat, now, now + window if window else None)
        return [waiting], {"called": str(player_id), "reservation": first["reservation"]}

    # --- the draw -------------------------------------------------------------------

    @command(roles=JEFE, scope="table")
    def draw_seats(self, actor: Actor, command_id: str, *, table_ids: list) -> Outcome:
        """Starts one or more tables of one game: draws their seats among the
        players registered for it [GA art. 20; PT 11]; several tables by suit
        [PT 25]; more players than seats: those of the previous session first
        [PT 27], then list order [CM-8]. The draw is recorded for replay."""
        payload = {"table_ids": [str(t) for t in table_ids] if isinstance(table_ids, list) else []}

        def decide() -> Decision:
            if not isinstance(table_ids, list) or not table_ids:
                raise invalid("table_ids_required", "Name the tables to draw.")
            if len(set(map(str, table_ids))) > MAX_TABLES_PER_DRAW:
                raise invalid("too_many_tables", "One draw serves at most four tables (PT 25).")
            tables = [self.load(Table, t, "table") for t in dict.fromkeys(map(str, table_ids))]
            game = tables[0].game
            for table in tables:
                table.check_not_closed()
                if table.game != game:
                    raise conflict("tables_not_same_game", "One draw is for one game.")
                if table.status != TableStatus.REGISTERING:
                    raise conflict(
                        "table_not_registering",
                        f"The seats of {table.label} were drawn already.",
                        table=table.number,
                    )
            waiting = self.waiting_list(game)
            candidates: list[Player] = []
            on_break = self.dinner_break()
            for entry in waiting.entries if waiting else []:
                player = self.find(Player, UUID(entry["player_id"]))
                if player is None or player.barred or player.seated_at is not None:
                    continue
                if player.in_tournament and not on_break:  # CM-23
                    continue
                if any(p.id.hex in player.kept_apart for p in candidates):  # CM-14
                    continue
                candidates.append(player)
            changed: list = [*tables]
            completed, touched, candidates = self._complete_open_tables(tables, candidates)
            for table in touched:
                changed += [table, *self._suspend_or_resume(table)]
            for player in completed:
                changed += [player, *self._leave_lists(player, [game.key], "seated")]
            needed = 1 if tables[0].banked else self.profile.min_players
            if len(candidates) < needed * len(tables):
                raise conflict(
                    "not_enough_players",
                    f"{len(candidates)} players are registered; {len(tables)} table(s) "
                    f"need {needed * len(tables)} (GA art. 23; PT 24).",
                    registered=len(candidates),
                    needed=needed * len(tables),
                )
            capacity = {t.id.hex: t.seats for t in tables}
            priority = [p for p in candidates if p.played_previous_session(game.key)]
            chosen = (priority + [p for p in candidates if p not in priority])[
                : sum(capacity.values())
            ]
            ids = [p.id.hex for p in chosen]
            if len(tables) > 1:
                by_suit = draws.draw_by_suit(ids, list(capacity), capacity, self.random)
            else:
                by_suit = {pid: {"card": None, "table_id": tables[0].id.hex} for pid in ids}
            players = {p.id.hex: p for p in chosen}
            changed += chosen
            result: dict = {"tables": {}, "completed": [str(p.id) for p in completed]}
            for table in tables:
                here = [pid for pid in ids if by_suit[pid]["table_id"] == table.id.hex]
                drawn = draws.draw_seats(here, table.free_seats(), self.random)
                record = {
                    "order": list(drawn.players),
                    "seats": list(drawn.seats),
                    "suits": {pid: by_suit[pid]["card"] for pid in here if len(tables) > 1},
                    "priority": [p.id.hex for p in priority if p.id.hex in here],
                }
                button, button_draw = self._first_button(list(drawn.seats))
                table.record_draw(
                    drawn.assignment(),
                    record,
                    button,
                    button_draw,
                    self.profile.seating.draw_open_until_full,
                )
                for pid, seat in drawn.assignment().items():
                    players[pid].take_seat(table.id, seat, game.key)
                result["tables"][str(table.id)] = {
                    "seats": {str(s): str(UUID(p)) for p, s in drawn.assignment().items()},
                    "button": button,
                }
            for player in chosen:
                changed += self._leave_lists(player, [game.key], "seated")
            changed += self.rebalance(game)
            result["left_on_list"] = len(candidates) - len(chosen)
            return changed, result

        return self.execute(current_command(), actor, command_id, payload, decide)

    # --- joining and moving ------------------------------------------------------------

    @command(roles=JEFE, scope="table")
    def seat_player(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        player: str,
        seat: int | None = None,
        post_big_blind: bool = False,
        leave_other_lists: bool = False,
    ) -> Outcome:
        """A player takes a vacant seat: a seated player who asked to change seat
        first, then the list in order [PT 12; CM-5]. While the draw is open the
        seat is drawn among the free ones [CM-3]. A newcomer posts the big blind
        or waits for it [CM-17]."""
        payload = {
            "table_id": str(table_id),
            "player": player,
            "seat": seat,
            "post_big_blind": post_big_blind,
            "leave_other_lists": leave_other_lists,
        }

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            found.check_may_play()
            found.check_not_seated()
            table.check_not_closed()
            waiting = self.waiting_list(table.game)
            drawn_from = None
            if seat is None:
                if not table.free_seats():
                    raise conflict("table_full", f"{table.label} has no free seat.")
                if not table.draw_open:
                    raise invalid("seat_required", "Say which seat the player takes.")
                # Seats offered to a called player are not in the draw [CM-6].
                held = waiting.seats_called(table.id, but_for=found.id) if waiting else {}
                drawn_from = [s for s in table.free_seats() if s not in held] or table.free_seats()
                chosen = self.random.choice(drawn_from)
            else:
                chosen = table.check_seat_number(seat)
                if table.draw_open:
                    raise conflict(
                        "seat_is_drawn",
                        "The draw is open until the table is full: the seat is drawn (CM-3).",
                    )
            table.check_seat_free(chosen)
            table.check_seat_change_first(chosen)
            if drawn_from is None:
                self._check_reseat_cooldown(found, table)
            if waiting is not None:
                waiting.check_turn(found.id, table.id, chosen)
            self.check_may_sit(found, table)
            table.seat_player(
                found.id,
                chosen,
                posts_big_blind=bool(post_big_blind),
                drawn_from=drawn_from,
                time_due=table.owes_on_joining(self.profile, self.now()),
            )
            found.take_seat(table.id, chosen, table.game.key)
            keys = list(found.waiting_lists) if leave_other_lists else []
            if table.game.key not in keys:
                keys.append(table.game.key)
            changed = [table, found, *self._leave_lists(found, keys, "seated")]
            changed += self._suspend_or_resume(table)
            changed += self.rebalance(table.game)
            return changed, {
                "table_id": str(table.id),
                "seat": chosen,
                "player_id": str(found.id),
                "status": table.status,
            }

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def request_seat_change(
        self, actor: Actor, command_id: str, *, table_id: str, player: str
    ) -> Outcome:
        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            table.request_seat_change(found.id)
            return [table], {"table_id": str(table.id), "player_id": str(found.id)}

        payload = {"table_id": str(table_id), "player": player}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def withdraw_seat_change(
        self, actor: Actor, command_id: str, *, table_id: str, player: str
    ) -> Outcome:
        """The player keeps their seat after all: the list comes next again."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            table.withdraw_seat_change(found.id)
            return [table], {"table_id": str(table.id), "player_id": str(found.id)}

        payload = {"table_id": str(table_id), "player": player}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def call_next(self, actor: Actor, command_id: str, *, table_id: str, seat: int) -> Outcome:
        """Offers a free seat: to a seated player who asked to change seat, or
        to the first on the list, who is called [PT 12; CM-5, CM-6]."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            table.check_not_closed()
            free = table.check_seat_number(seat)
            table.check_seat_free(free)
            waiting = self.waiting_list(table.game)
            if waiting is not None and free in waiting.seats_called(table.id):
                raise conflict(
                    "seat_already_offered", f"Seat {free} is already offered to a called player."
                )
            changed, offer = self._offer_seat(table, free)
            if offer is None:
                raise conflict("nobody_to_call", "Nobody free to take the seat is on the list.")
            return changed, {"table_id": str(table.id), "seat": free, "offered": offer}

        payload = {"table_id": str(table_id), "seat": seat}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def change_seat(
        self, actor: Actor, command_id: str, *, table_id: str, player: str, seat: int
    ) -> Outcome:
        """A seated player moves to a free seat of the same table, between hands."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            new_seat = table.check_seat_number(seat)
            waiting = self.waiting_list(table.game)
            held = waiting.seats_called(table.id) if waiting else {}
            if new_seat in held:
                raise conflict(
                    "waiting_list_first",
                    f"Seat {new_seat} is offered to a called player: it is theirs while "
                    "the call lasts.",
                    reservation=held[new_seat],
                )
            old = table.change_seat(found.id, new_seat)
            found.move_seat(table.id, new_seat)
            changed, offer = self._offer_seat(table, old)
            return [table, found, *changed], {
                "table_id": str(table.id),
                "seat": new_seat,
                "freed_seat": old,
                "offered": offer,
            }

        payload = {"table_id": str(table_id), "player": player, "seat": seat}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=JEFE, scope="table")
    def leave_table(
        self, actor: Actor, command_id: str, *, table_id: str, player: str, reason: str = "left"
    ) -> Outcome:
        """The player leaves with their stack; the seat is offered [PT 12; CM-5];
        below four players the table is suspended [PT 24]."""
        payload = {"table_id": str(table_id), "player": player, "reason": reason}

        def decide() -> Decision:
            if reason not in LEAVING_REASONS:
                raise invalid("reason_invalid", "A player left, had to leave, or was removed.")
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            seat, stack = table.remove_player(found.id, reason)
            found.leave_seat(table.id, table.game.key, reason, self.now())
            closed = self._suspend_or_resume(table)
            changed, offer = self._offer_seat(table, seat) if not closed else ([], None)
            changed += self._left_group(table, found)
            return [table, found, *closed, *changed], {
                "table_id": str(table.id),
                "seat": seat,
                "stack_cents": stack,
                "status": table.status,
                "offered": offer,
            }

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def buy_in(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        player: str,
        amount_cents: int,
        paid_with: str = "cash",
    ) -> Outcome:
        """Chips bought at the table between hands, within the limits [CM-2; PT
        28], paid in cash at the table (chips from its tray) or with the
        player's own chips; the ledger books it from the event. A buy-in paid
        at the cage is the cage's command (ledger.application.cage)."""

        def decide() -> Decision:
            if paid_with not in TABLE_PAYMENTS:
                raise invalid(
                    "paid_with_invalid",
                    "At the table a buy-in is paid in cash or with the player's own chips; "
                    "the cage books its own (buy_in_at_cage).",
                    choices=list(TABLE_PAYMENTS),
                )
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            stack = table.buy_in(
                found.id,
                amount_cents,
                table_average=self.profile.seating.newcomer_stack_is_table_average,
                rules=self.profile.buy_in,
                paid_with=paid_with,
            )
            return [table], {"table_id": str(table.id), "stack_cents": stack}

        payload = {"table_id": str(table_id), "player": player, "amount_cents": amount_cents}
        if paid_with != "cash":  # a cash buy-in keeps the fingerprint it always had
            payload["paid_with"] = paid_with
        return self.execute(current_command(), actor, command_id, payload, decide)

    # --- rest -------------------------------------------------------------------------

    # The dealer reports what happens at the table; in a small room the jefe does it.
    @command(roles=TABLE_REPORTERS, scope="table")
    def start_rest(self, actor: Actor, command_id: str, *, table_id: str, player: str) -> Outcome:
        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            table.start_rest(
                found.id, repeated_rests_leave=self.profile.rest.idle_hands_must_leave is not None
            )
            return [table], {"table_id": str(table.id), "player_id": str(found.id)}

        payload = {"table_id": str(table_id), "player": player}
        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def end_rest(self, actor: Actor, command_id: str, *, table_id: str, player: str) -> Outcome:
        """Back from a rest; blinds missed meanwhile are posted dead [PT 90]."""

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            found = self.player(player)
            seat, state = table.seated_state(found.id)
            owes = state["owes_cents"]
            table.end_rest(found.id)
            return [table], {"table_id": str(table.id), "seat": seat, "owes_cents": owes}

        payload = {"table_id": str(table_id), "player": player}
        return self.execute(current_command(), actor, command_id, payload, decide)

    # --- closing ----------------------------------------------------------------------

    @command(roles=JEFE, scope="table")
    def close_table(
        self, actor: Actor, command_id: str, *, table_id: str, reason: str = "closed_by_jefe"
    ) -> Outcome:
        """Closes a table; its players' stacks stay theirs (the cage pays them)."""
        payload = {"table_id": str(table_id), "reason": reason}

        def decide() -> Decision:
            if reason not in CLOSING_REASONS:
                raise invalid("reason_invalid", "Unknown reason for closing a table.")
            table = self.load(Table, table_id, "table")
            stacks = {str(UUID(s["player_id"])): s["stack"] for s in table.occupants.values()}
            changed = self.close_players_out(table, reason)
            return changed, {"table_id": str(table.id), "stacks": stacks}

        return self.execute(current_command(), actor, command_id, payload, decide)

    def close_players_out(self, table: Table, reason: str) -> list:
        """Closes ``table``: its players leave with their stacks, which stay
        theirs; the calls for its seats lapse. Returns what changed."""
        players = table.close(reason)
        changed: list = [table]
        group = self.balance_group(table.game)
        if group is not None:
            group.remove_table(table.id)
            changed += [group, *self.rebalance(table.game)]
        waiting = self.waiting_list(table.game)
        if waiting is not None and waiting.seats_called(table.id):
            waiting.cancel_calls(table.id)  # the seats offered are gone
            changed.append(waiting)
        for state in players.values():
            found = self.find(Player, UUID(state["player_id"]))
            found.leave_seat(table.id, table.game.key, "table_closed", self.now())
            changed.append(found)
        return changed

    # --- hands ------------------------------------------------------------------------

    @command(roles=TABLE_REPORTERS, scope="table")
    def start_hand(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        dealt_in: list,
        button: int | None = None,
        blinds: dict | None = None,
        variant: str | None = None,
    ) -> Outcome:
        """The dealer reports a hand dealt: the button, who is dealt in, the blinds."""
        payload = {
            "table_id": str(table_id),
            "dealt_in": dealt_in,
            "button": button,
            "blinds": blinds,
            "variant": variant,
        }

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            decided = table.start_hand(
                self.profile,
                self.now(),
                variant=variant,
                button=button,
                dealt_in=dealt_in,
                blinds=blinds or {},
            )
            return [table], {"table_id": str(table.id), **decided}

        return self.execute(current_command(), actor, command_id, payload, decide)

    @command(roles=TABLE_REPORTERS, scope="table")
    def end_hand(
        self,
        actor: Actor,
        command_id: str,
        *,
        table_id: str,
        contributions: dict,
        winnings: dict | None = None,
        rake_cents: int | None = None,
        pot_winners: list | None = None,
        shown: dict | None = None,
        board: str | None = None,
        folded: list | None = None,
    ) -> Outcome:
        """The dealer reports a hand's end: what each seat put in, and either
        what each won and the rake, or who won each pot (or the hands shown),
        from which the service settles the pots (floor.domain.settlement)."""
        report = {
            "contributions": contributions,
            "winnings": winnings,
            "rake_cents": rake_cents,
            "pot_winners": pot_winners,
            "shown": shown,
            "board": board,
            "folded": folded,
        }
        payload = {"table_id": str(table_id), **{k: v for k, v in report.items() if v is not None}}

        def decide() -> Decision:
            table = self.load(Table, table_id, "table")
            decided = table.end_hand(self.profile, self.now(), **report)
            changed = [table]
            if table.last_hands_done:  # the last hand of the night [CM-24]
                changed = self.close_players_out(table, "closing_time")
            else:
                # Players gone during the hand (the absence clock) count now;
                # and the blinds moved, so does the seat a move should take.
                changed += self._suspend_or_resume(table)
                if table.status != TableStatus.CLOSED:
                    changed += self.rebalance(table.game)
            return changed, {"table_id": str(table.id), **decided, "status": table.status}

        return self.execute(current_command(), actor, command_id, payload, decide)

    # What a hand end would pay, recording nothing: asked before confirming it.
    @command(roles=TABLE_REPORTERS, scope="table", query=True)
    def preview_settlement(
        self,
        actor: Actor,
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
        report = {
            "contributions": contributions,
            "winnings": winnings,
            "rake_cents": rake_cents,
            "pot_winners": pot_winners,
            "shown": shown,
            "board": board,
            "folded": folded,
        }
        self.role_in_scope(actor, current_command(), {"table_id": str(table_id)})
        table = self.load(Table, table_id, "table")
        decided = table.settle_hand(self.profile, pots_only=True, **report)
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
