"""Loads the demo floor: one casino, two sectors of four tables, a user per role.

Safe to run again: the floor commands carry fixed command ids, so a second run
replays them and records nothing new; the demo users are created once, and one
whose password or roles were changed keeps them.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand

from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.kernel.roles import Role
from floor.kernel.web.gateway import perform
from floor.messages import describe
from floor.runtime import floor_app

# (username, password, role): the README lists these.
DEMO_USERS = [
    ("director", "director-demo", Role.DIRECTOR),
    ("jefe", "jefe-demo", Role.JEFE_SECTOR),
    ("cajero", "cajero-demo", Role.CAJERO),
    ("crupier", "crupier-demo", Role.CRUPIER),
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
# What each drawn player buys in for: 5 EUR, or the least the house takes at
# that table's game (CM's Hold'em tables: 100 EUR [CM-2]).
DEMO_BUY_IN_CENTS = 500
# The cage's float and each table's tray (EUR cents).
DEMO_CAGE_CASH_CENTS = 2_000_000
DEMO_CAGE_CHIPS_CENTS = 5_000_000
DEMO_TRAY_CENTS = 200_000


class Command(BaseCommand):
    help = "Loads the demo floor (sectors, tables, one user per role)."

    def handle(self, *args, **options) -> None:
        users = {}
        for username, password, role in DEMO_USERS:
            users[role] = self.demo_user(username, password, role)
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
        perform(  # the demo crupier deals at Sector A's first table
            COMMANDS.assign_dealer,
            users[Role.JEFE_SECTOR],
            "demo:dealer",
            table_id=opened_tables[0],
            dealer=users[Role.CRUPIER].username,
        )
        self.fill_demo_trays(users, opened_tables)
        self.seat_demo_players(users, opened_tables[0])
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo floor ready: {len(DEMO_SECTORS)} sectors, {len(opened_tables)} "
                f"tables, {len(DEMO_PLAYERS)} players, {len(DEMO_USERS)} users."
            )
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
        house = floor_app().profile.buy_in.bounds_for(DEMO_SECTORS["Sector A"][0][0])
        amount = max(DEMO_BUY_IN_CENTS, house.minimum_cents) if house else DEMO_BUY_IN_CENTS
        # The amount is in the command id: a floor loaded when the demo bought in
        # 5 EUR gets the rest as a rebuy, and a second run still records nothing.
        suffix = "" if amount == DEMO_BUY_IN_CENTS else f":{amount}"
        for player_id in drawn.result["tables"][table_id]["seats"].values():
            perform(
                COMMANDS.buy_in,
                dealer,
                f"demo:buy-in:{player_id}{suffix}",
                table_id=table_id,
                player=player_id,
                amount_cents=amount,
            )
