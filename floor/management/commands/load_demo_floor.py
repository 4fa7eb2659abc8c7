"""Loads the demo floor: one casino, two sectors of four tables, a user per role.

Safe to run again: the floor commands carry fixed command ids, so a second run
replays them and records nothing new; the demo users are created once, and one
whose password or roles were changed keeps them.

Realistic (issue 22): each drawn player buys in within what the table takes
(the profile's amounts for its game, 100 to 1,000 EUR at CM's Hold'em tables
[CM-2], else the table's minimum and maximum), for a stack of tens of big
blinds where the range allows it, and not all alike, so a hand can be played
at the table's blinds and an all-in makes a side pot. A player already bought
in, or a table that has dealt a hand, is the floor's own: a second run buys
nobody in again, whatever the amounts were when it was loaded.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.test.utils import override_settings
from eventsourcing.application import AggregateNotFoundError

from floor.domain.dealer_roster import DealerRoster
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.kernel.roles import Role
from floor.kernel.web.gateway import perform
from floor.messages import describe
from floor.runtime import floor_app
from games.profile_rules import BuyInRules

# (username, password, role): the README lists these.
DEMO_USERS = [
    ("director", "director-demo", Role.DIRECTOR),
    ("jefe", "jefe-demo", Role.JEFE_SECTOR),
    ("cajero", "cajero-demo", Role.CAJERO),
    ("crupier", "crupier-demo", Role.CRUPIER),
    ("crupier2", "crupier2-demo", Role.CRUPIER),
    ("crupier3", "crupier3-demo", Role.CRUPIER),
    ("inspector", "inspector-demo", Role.INSPECTOR),
]

# (variant, limit, minimum EUR cents, maximum EUR cents, seats)
DEMO_SECTORS = {
    "Sector A": [
        ("texas_holdem", "no_limit", 200, 1000, 10),
        ("texas_holdem", "no_limit", 400, 1000, 10),
        ("omaha", "pot_limit", 200, 600, 10),
        ("sintetico", "pot_limit", 200, 800, 11),
    ],
    "Sector B": [
        ("seven_stud", "split_limit", 500, 2000, 7),
        ("five_card_draw", "pot_limit", 1000, 4000, 7),
        ("sen_descarte", "no_limit", 500, 5000, 7),  # 10x the minimum [GA art. 6.3]
        ("pai_gow", "no_limit", 1000, 5000, 6),
    ],
}

# Players for the demo: fourteen register for Sector A's first table; ten are
# drawn to it and buy in, four stay on its waiting list.
DEMO_PLAYERS = [
    ("DEMO-001", "Ana"), ("DEMO-002", "Bruno"), ("DEMO-003", "Carmen"),
    ("DEMO-004", "Diego"), ("DEMO-005", "Elena"), ("DEMO-006", "Fabio"),
    ("DEMO-007", "Gloria"), ("DEMO-008", "Hugo"), ("DEMO-009", "Inés"),
    ("DEMO-010", "João"), ("DEMO-011", "Lucía"), ("DEMO-012", "Manuel"),
    ("DEMO-013", "Nuria"), ("DEMO-014", "Óscar"),
]  # fmt: skip
# What each drawn player asks to buy in for, in big blinds (the big blind is
# the table minimum [CM; PT 81-83]), seat by seat in the draw's order: mixed
# stacks, as a real table has. ``demo_buy_in`` keeps each within what the
# table takes [CM-2].
DEMO_BUY_IN_BIG_BLINDS = (50, 75, 60, 100, 50, 80, 50, 60, 75, 50)
# The cage's float and each table's tray (EUR cents).
DEMO_CAGE_CASH_CENTS = 2_000_000
DEMO_CAGE_CHIPS_CENTS = 5_000_000
DEMO_TRAY_CENTS = 200_000


class Command(BaseCommand):
    help = "Loads the demo floor (sectors, tables, one user per role)."

    def handle(self, *args, **options) -> None:
        # A one-shot loader, run before the projector process is (make run):
        # it applies its own commands' events (floor.read_models, issue 23).
        with override_settings(FLOOR_READ_MODELS="inline"):
            self.load()

    def load(self) -> None:
        users: dict = {}
        dealers: list[User] = []
        for username, password, role in DEMO_USERS:
            user = self.demo_user(username, password, role)
            users.setdefault(role, user)  # the first of a role acts for it
            if role is Role.CRUPIER:
                dealers.append(user)
        sector_a: dict = {}
        opened_tables: list[str] = []
        for sector_name, tables in DEMO_SECTORS.items():
            opened = perform(
                COMMANDS.open_sector,
                users[Role.DIRECTOR],
                f"demo:{sector_name}",
                name=sector_name,
            )
            perform(  # the demo jefe runs both sectors [GA art. 19.1]
                COMMANDS.assign_jefes,
                users[Role.DIRECTOR],
                f"demo:{sector_name}:jefes",
                sector_id=opened.result["sector_id"],
                jefes=[users[Role.JEFE_SECTOR].username],
            )
            for index, (variant, limit, minimum, maximum, seats) in enumerate(tables, 1):
                try:
                    table = perform(
                        COMMANDS.open_table,
                        users[Role.JEFE_SECTOR],
                        f"demo:{sector_name}:table:{index}",
                        sector_id=opened.result["sector_id"],
                        variant=variant,
                        limit=limit,
                        minimum_cents=minimum,
                        maximum_cents=maximum,
                        seats=seats,
                    )
                except DomainError as refused:  # a game this profile does not run
                    self.stdout.write(f"{sector_name} {variant}: {describe(refused)}")
                    continue
                opened_tables.append(table.result["table_id"])
                if sector_name == "Sector A":
                    sector_a.setdefault("sector_id", opened.result["sector_id"])
                    sector_a.setdefault("games", set()).add(variant)
        self.clock_in_demo_dealers(users, dealers, sector_a)
        perform(  # the demo crupier deals at Sector A's first table
            COMMANDS.assign_dealer,
            users[Role.JEFE_SECTOR],
            "demo:dealer",
            table_id=opened_tables[0],
            dealer=users[Role.CRUPIER].username,
        )
        self.roster_the_demo_dealer(users, opened_tables[0])
        self.fill_demo_trays(users, opened_tables)
        self.seat_demo_players(users, opened_tables[0])
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo floor ready: {len(DEMO_SECTORS)} sectors, {len(opened_tables)} "
                f"tables, {len(DEMO_PLAYERS)} players, {len(DEMO_USERS)} users."
            )
        )

    def clock_in_demo_dealers(self, users: dict, dealers: list[User], sector: dict) -> None:
        """The demo crupiers clock in at Sector A with its games, so its
        dealer box shows who deals its first table (the first crupier, named
        there next) and who waits in the box [GA art. 19]. A dealer the floor
        has clocked out since stays out: the command ids are fixed."""
        if not sector:
            return
        for dealer in dealers:
            try:
                perform(
                    COMMANDS.clock_in_dealer,
                    users[Role.JEFE_SECTOR],
                    f"demo:clock-in:{dealer.username}",
                    sector_id=sector["sector_id"],
                    dealer=dealer.username,
                    games=sorted(sector["games"]),
                )
            except DomainError as refused:  # clocked in already (an older demo store)
                self.stdout.write(f"{dealer.username}: {describe(refused)}")

    def roster_the_demo_dealer(self, users: dict, table_id: str) -> None:
        """A demo store loaded before the roster followed ``assign_dealer``
        names the crupier at table 1 while its box has them waiting: named
        again once (a fixed id), the box shows them dealing it. A table whose
        dealer the jefe has changed since is left as it is."""
        app = floor_app()
        dealer = users[Role.CRUPIER].username
        table = app.repository.get(UUID(table_id))
        try:
            box = app.repository.get(DealerRoster.create_id())
        except AggregateNotFoundError:
            return
        entry = box.entry(dealer) or {}
        if table.dealer != dealer or entry.get("table_id") == table.id.hex:
            return
        perform(
            COMMANDS.assign_dealer,
            users[Role.JEFE_SECTOR],
            "demo:dealer:roster",
            table_id=table_id,
            dealer=dealer,
        )

    def demo_user(self, username: str, password: str, role: Role) -> User:
        """The demo user, created once with its demo password and role. One that
        exists is left as it is: a password or roles changed since stay changed
        (``make run`` loads the demo on every start)."""
        user = User.objects.filter(username=username).first()
        if user is not None:
            return user
        user = User.objects.create_user(username=username, password=password)
        user.groups.set([Group.objects.get(name=role.value)])
        self.stdout.write(f"Demo user {username} created (password {password}).")
        return user

    def fill_demo_trays(self, users: dict, table_ids: list[str]) -> None:
        """The house funds the cage, the cage opens its day, and each table's
        tray is filled (asked by the jefe, confirmed by the cage)."""
        jefe, cajero = users[Role.JEFE_SECTOR], users[Role.CAJERO]
        perform(
            COMMANDS.fund_cage,
            users[Role.DIRECTOR],
            "demo:cage:float",
            cash_cents=DEMO_CAGE_CASH_CENTS,
            chips_cents=DEMO_CAGE_CHIPS_CENTS,
        )
        try:
            perform(COMMANDS.open_gaming_day, cajero, "demo:cage:open-day")
        except DomainError as refused:  # a day this store opened before
            self.stdout.write(f"Gaming day: {describe(refused)}")
        for table_id in table_ids:
            asked = perform(
                COMMANDS.request_tray_move,
                jefe,
                f"demo:fill:{table_id}",
                table_id=table_id,
                move="fill",
                amount_cents=DEMO_TRAY_CENTS,
            )
            perform(
                COMMANDS.confirm_tray_move,
                cajero,
                f"demo:fill:{table_id}:confirmed",
                request_id=asked.result["request_id"],
            )

    def seat_demo_players(self, users: dict, table_id: str) -> None:
        """Registers the demo players for the first table's game, draws its
        seats and buys each seated player in."""
        jefe, dealer = users[Role.JEFE_SECTOR], users[Role.CRUPIER]
        for card, name in DEMO_PLAYERS:
            perform(
                COMMANDS.register_player,
                jefe,
                f"demo:player:{card}",
                card_number=card,
                display_name=name,
            )
            perform(
                COMMANDS.join_waiting_list,
                jefe,
                f"demo:list:{card}",
                player=card,
                table_id=table_id,
            )
        drawn = perform(COMMANDS.draw_seats, jefe, "demo:draw:1", table_ids=[table_id])
        app = floor_app()
        table = app.repository.get(UUID(table_id))
        if table.hands_played or table.hand is not None:
            return  # the table has dealt: its stacks are the floor's, not the demo's
        seats = drawn.result["tables"][table_id]["seats"]
        for index, seat in enumerate(sorted(seats, key=int)):
            player_id = seats[seat]
            sitting = table.seat_at(seat)
            if sitting is None or sitting.player_id != UUID(player_id).hex or sitting.stack:
                continue  # moved, gone, or bought in already (by an earlier load too)
            amount = demo_buy_in(app.profile.buy_in, table, index)
            perform(  # the amount is in the id: one id, one payload
                COMMANDS.buy_in,
                dealer,
                f"demo:buy-in:{player_id}:{amount}",
                table_id=table_id,
                player=player_id,
                amount_cents=amount,
            )


def demo_buy_in(rules: BuyInRules, table: Any, index: int) -> int:
    """What the ``index``-th drawn player of ``table`` buys in for: their share
    of ``DEMO_BUY_IN_BIG_BLINDS`` of the table's big blind, within what a first
    buy-in at the table may be: the profile's amounts for its game (100 to
    1,000 EUR at CM's Hold'em tables [CM-2]), else the table's minimum and
    maximum (floor.domain.chips). Where the range is narrow (a 2/10 EUR table
    without house amounts: at most 10 EUR), the most it takes."""
    house = rules.bounds_for(table.variant)
    low, high = (
        (house.minimum_cents, house.maximum_cents)
        if house is not None
        else (table.minimum_cents, table.maximum_cents)
    )
    wanted = DEMO_BUY_IN_BIG_BLINDS[index % len(DEMO_BUY_IN_BIG_BLINDS)] * table.minimum_cents
    return min(max(wanted, low), high)
