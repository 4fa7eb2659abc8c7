"""Loads the demo floor: one casino, two sectors of four tables, a user per role.

Safe to run again: the floor commands carry fixed command ids, so a second run
replays them and records nothing new; users get their demo passwords back.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand

from floor.domain.roles import Role
from floor.gateway import perform

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
        ("sen_descarte", "no_limit", 500, 2500, 7),
        ("pai_gow", "no_limit", 1000, 5000, 6),
    ],
}


class Command(BaseCommand):
    help = "Loads the demo floor (sectors, tables, one user per role)."

    def handle(self, *args, **options) -> None:
        users = {}
        for username, password, role in DEMO_USERS:
            user, _ = User.objects.get_or_create(username=username)
            user.set_password(password)
            user.save()
            user.groups.set([Group.objects.get(name=role.value)])
            users[role] = user
        for sector_name, tables in DEMO_SECTORS.items():
            opened = perform(
                "open_sector",
                users[Role.DIRECTOR],
                f"demo:{sector_name}",
                name=sector_name,
            )
            for index, (variant, limit, minimum, maximum, seats) in enumerate(tables, 1):
                perform(
                    "open_table",
                    users[Role.JEFE_SECTOR],
                    f"demo:{sector_name}:table:{index}",
                    sector_id=opened.result["sector_id"],
                    variant=variant,
                    limit=limit,
                    minimum_cents=minimum,
                    maximum_cents=maximum,
                    seats=seats,
                )
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo floor ready: {len(DEMO_SECTORS)} sectors, "
                f"{sum(len(t) for t in DEMO_SECTORS.values())} tables, "
                f"{len(DEMO_USERS)} users."
            )
        )
