"""A progressive jackpot: its rules, its tables and its starting amount.

The fund itself is an account (``jackpot:<id>``); this aggregate holds what
the fund is bound by: which tables feed it (one or several [GA art. 8b]), the
stake, the prize rules, and the starting amount it is brought back to after
every payment, so the fund is never below it [PT-SD 10].
"""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict, invalid
from games.banked import GA_PROGRESSIVE, JackpotTable
from games.banked.common import SettlementError
from games.banked.jackpot import check_seed, check_stake

# The prize rules by scheme: GA art. 8b, or PT-SD 8-12 (a fixed stake fixed by
# the inspectorate, a fund of no less than 10,000 stakes, the same prizes).
SCHEMES = ("GA", "PT-SD")


def prize_rules(scheme: str, stake_cents: int) -> JackpotTable:
    if scheme == "PT-SD":
        return replace(
            GA_PROGRESSIVE,
            max_stake_share_of_minimum=None,
            fixed_stake_cents=stake_cents,
            min_seed_stakes=10_000,
            source="PT-SD 8-12",
        )
    return GA_PROGRESSIVE


class Jackpot(AuditedAggregate):
    @classmethod
    def create(
        cls,
        name: str,
        scheme: str,
        stake_cents: int,
        seed_cents: int,
        table_ids: list[str],
    ) -> Jackpot:
        name = str(name or "").strip()
        if not name:
            raise invalid("name_required")
        if scheme not in SCHEMES:
            raise invalid("jackpot_scheme_invalid")
        for value in (stake_cents, seed_cents):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise invalid("amount_invalid")
        if not table_ids:
            raise invalid("jackpot_tables_required")
        try:
            check_seed(prize_rules(scheme, stake_cents), seed_cents)
        except SettlementError as error:
            raise invalid(error.code, **error.params) from None
        return cls(
            name=name,
            scheme=scheme,
            stake_cents=stake_cents,
            seed_cents=seed_cents,
            table_ids=sorted(set(table_ids)),
        )

    @event("Created")
    def __init__(
        self, name: str, scheme: str, stake_cents: int, seed_cents: int, table_ids: list[str]
    ) -> None:
        self.name = name
        self.scheme = scheme
        self.stake_cents = stake_cents
        self.seed_cents = seed_cents
        self.table_ids = table_ids

    @property
    def rules(self) -> JackpotTable:
        return prize_rules(self.scheme, self.stake_cents)

    def check_table(self, table_id: UUID) -> None:
        if table_id.hex not in self.table_ids:
            raise conflict("table_not_in_jackpot")

    def check_stake(self, stake_cents: int, minimum_cents: int) -> None:
        if isinstance(stake_cents, bool) or not isinstance(stake_cents, int) or stake_cents <= 0:
            raise invalid("amount_invalid")
        try:
            check_stake(self.rules, stake_cents, minimum_cents)
        except SettlementError as error:
            raise invalid(error.code, **error.params) from None
