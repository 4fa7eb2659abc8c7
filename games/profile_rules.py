"""The small rule groups a ``RuleProfile`` is made of, for the floor's concerns.

Each group gathers the settings of one floor concern (seats, rest, absence, the
action clock, the waiting list, moving tables, limits, blinds, the button) so
that a profile reads as a list of decisions, each naming its article. Durations
are ``timedelta``; money is integer cents; shares are ``Fraction`` so that 5 %
is exactly 1/20.

The rules the engines apply are defined once, next to the functions that read
them, with one instance per source: raises and banked bands in
``games.betting`` (``RaiseRule``, ``BankedBand``), splitting in ``games.pots``
(``PotSplitRule``), the house benefit in ``games.rake`` (``RakeRules``,
``HandRakeRule``, ``SessionChargeRule``). A profile points at those instances.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from enum import StrEnum
from fractions import Fraction
from zoneinfo import ZoneInfo

from games.banked.sin_descarte import GA_INSURANCE, GA_PAYTABLE, PT_SD_PAYTABLE
from games.betting import BankedBand
from games.hands import Category
from games.variants import Variant


class Rotation(StrEnum):
    """Which way the button (the "mano") and the deal turn."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter_clockwise"


class FirstButton(StrEnum):
    """Who holds the button on the first hand of a game."""

    DEALER_MARKS = "dealer_marks"  # the dealer places the marker [GA art. 23.1]
    FIRST_SEAT_LEFT_OF_DEALER = "first_seat_left_of_dealer"  # [PT 29]
    CARD_DRAW = "card_draw"  # one card each, highest wins [CM "Desarrollo"]


@dataclass(frozen=True)
class SeatRange:
    """How many seats a table of one variant may have. For a banked game the
    seats are its boxes: the range is the box count and ``source`` the article
    fixing it [GA art. 5, 12; PT-SD 5; PG III.3]."""

    variant: Variant
    min_seats: int
    max_seats: int
    source: str = ""


@dataclass(frozen=True)
class SeatRules:
    ranges: tuple[SeatRange, ...]
    # Hold'em and Omaha tables have 10 seats; the seat at the dealer's right may
    # be disabled [PT 6].
    right_seat_may_be_disabled: bool = False

    def range_for(self, variant: Variant | str) -> SeatRange | None:
        """The seat range of that variant, or None when the profile has no such game."""
        wanted = Variant(variant)
        return next((r for r in self.ranges if r.variant is wanted), None)


@dataclass(frozen=True)
class RestRules:
    # On request a player may rest two hands without losing the seat
    # [GA art. 20; PT 13].
    rest_hands: int = 2
    # Not betting for this many hands, or resting repeatedly, means leaving the
    # table [PT 13]; None: no such rule [GA].
    idle_hands_must_leave: int | None = None
    # After this many hands without betting the player posts a big blind in the
    # next hand [PT 89].
    idle_hands_post_big_blind: int | None = None
    # Blinds missed while away are posted dead on return [PT 90].
    missed_blinds_posted_dead: bool = False
    # Banked: three hands in a row without a bet may cost the seat when no seat
    # is free [PT-SD 22].
    banked_idle_hands_may_lose_seat: int | None = None


class AbsenceExpiry(StrEnum):
    REMOVE_CHIPS = "remove_chips"  # with a waiting list [CM-18]
    POST_BLINDS = "post_blinds"  # without one [CM-18]


@dataclass(frozen=True)
class AbsenceRules:
    """The house absence clock [CM-18, CM-19]."""

    allowance: timedelta = timedelta(minutes=20)  # CM-18
    courtesy: timedelta = timedelta(minutes=5)  # CM-18
    uses_per_day: int = 1  # CM-18 "una vez al día"
    max_players_per_table: int = 2  # CM-18
    requires_hand_played: bool = True  # CM-19
    requires_chips_at_table: bool = True  # CM-19
    expiry_with_waiting_list: AbsenceExpiry = AbsenceExpiry.REMOVE_CHIPS  # CM-18
    expiry_without_waiting_list: AbsenceExpiry = AbsenceExpiry.POST_BLINDS  # CM-18


@dataclass(frozen=True)
class ClosingRules:
    """The last hands of the night."""

    # How long before the casino closes the last hands start: 15 minutes
    # [CM-24]; GA has them announced as the day ends [GA art. 7, 15.3].
    lead: timedelta
    # How many hands are still dealt: three [CM-24; GA art. 15.3].
    last_hands: int
    # Banked games announce their own count: five in sen descarte [GA art. 7].
    last_hands_by_variant: tuple[tuple[Variant, int], ...] = ()

    def hands_for(self, variant: Variant | str) -> int:
        wanted = Variant(variant)
        return next((n for v, n in self.last_hands_by_variant if v is wanted), self.last_hands)


@dataclass(frozen=True)
class DealerRotationRules:
    """How the house rotates its dealers (a house setting, not law).

    GA art. 19 requires a dealer at every table at all times; how long a dealer
    deals at one table (a "down"), how long a break lasts and how long one may
    deal before a break are the house's: downs of 20-60 minutes (30 typical),
    breaks every 40-80 minutes (RULES.md, house practice;
    floor.domain.dealer_rotation plans by them).
    """

    # How long a dealer deals at one table before the next push.
    down: timedelta = timedelta(minutes=30)
    # How long a break lasts.
    break_length: timedelta = timedelta(minutes=15)
    # The most a dealer deals (across downs) before a break.
    break_after: timedelta = timedelta(minutes=60)


@dataclass(frozen=True)
class GamingDay:
    """When the casino's day turns: the once-a-day rules count by it [CM-18].

    The day runs from ``starts`` local time to the same time next day, so a
    night that passes midnight stays one gaming day (a service default; the
    cage's gaming day, opened and closed by hand, is the ledger's).
    """

    time_zone: str = "Europe/Madrid"
    starts: time = time(10, 0)

    def of(self, moment: datetime) -> date:
        local = moment.astimezone(ZoneInfo(self.time_zone))
        day = local.date()
        return day if local.time() >= self.starts else day - timedelta(days=1)


@dataclass(frozen=True)
class CageIdentification:
    """When the cage must have the patron identified before an operation
    completes (issue 25, item 3; ledger.application.aml).

    Spain: casinos fully identify whoever buys or cashes chips for 2,000 EUR
    or more, in one operation or in linked ones [Ley 10/2010, art. 7.5, as
    amended by Real Decreto-ley 11/2018]. Portugal: due diligence from 2,000
    EUR [Lei 83/2017]. These facts are to be confirmed against the texts:
    they are not in the regulations the service was given (RULES.md), so the
    figure and its reading are the issue's, not yet checked article by
    article.

    ``threshold_cents`` is per patron and gaming day, purchases and cash-outs
    each summed on their own (the linked operations, ledger.application.aml);
    None: no threshold.
    """

    threshold_cents: int | None = 2_000_00
    source: str = "Ley 10/2010 art. 7.5"
    # Money that leaves the cage other than as cash (a casino cheque, a
    # transfer) and a certificate of winnings go only to an identified
    # patron, whatever the amount [ES: Ley 10/2010 art. 7.5 names the cheque,
    # the transfer and the certificate of winnings; PT: Lei 83/2017, casino
    # cheques only to identified patrons]. To be confirmed against the texts.
    traceable_payouts_identified: bool = True
    # Portugal: a casino cheque only up to the chips the patron bought by
    # card or cheque (that gaming day, less the cheques already paid), and
    # nominative and crossed [Lei 83/2017]. Spain names no such cap.
    cheque_up_to_card_or_cheque: bool = False


def years_after(moment: datetime, years: int) -> datetime:
    """The same calendar moment ``years`` later (29 February: 28 February
    when the later year has none). Years, not days: the laws count years."""
    try:
        return moment.replace(year=moment.year + years)
    except ValueError:
        return moment.replace(year=moment.year + years, day=28)


def months_after(moment: datetime, months: int) -> datetime:
    """The same day of the month ``months`` later (the month's last day when
    it is shorter: 31 August plus six months is 28 or 29 February)."""
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, monthrange(year, month)[1]))


@dataclass(frozen=True)
class DataRetention:
    """How long the personal data of due diligence is kept (issue 25, item 4;
    floor.compliance.retention): a patron's identity document
    (PatronIdentity) and the rows of an exclusion list's version the room no
    longer reads.

    Spain: the documents of due diligence are kept for ten years after the
    end of the business relationship or the operation [Ley 10/2010, art. 25].
    Portugal: seven years [Lei 83/2017, art. 51]. These facts are to be
    confirmed against the texts: they are not in the regulations the service
    was given (RULES.md), as for ``CageIdentification``.

    The clock: a casino has no contract that ends; the relationship ends,
    for the service, at the patron's last activity that needed their record,
    the latest of (a) the record's own date (recorded or corrected), (b) the
    last check at a door that read it (``Player.ExclusionChecked``: every
    door, the cage's purchases included) and (c) the last cage operation
    (``GamingDay.PatronCageNoted``, summed for the thresholds). All three are
    known to the service (the row, and the audit journal's events that
    concern the patron); a visit that needed no record (a seat with no list
    imported) does not move it. An exclusion list's version is kept this long
    after a newer version of the same list superseded it (was imported).

    ``years``: whole calendar years; None keeps everything (no purge).
    """

    years: int | None = 10
    source: str = "Ley 10/2010 art. 25"

    def kept_until(self, since: datetime) -> datetime | None:
        return None if self.years is None else years_after(since, self.years)


@dataclass(frozen=True)
class SelfExclusionRules:
    """When a self-exclusion taken at the room may be lifted (issue 25, item
    4; floor.application.exclusions.lift_self_exclusion): not before
    ``minimum_months`` have passed since it was taken.

    A house setting with a default: the Spanish register of gaming bans
    (RGIAJ, Real Decreto 1614/2011) keeps a self-exclusion at least six
    months before it may be cancelled; the room holds its own house list to
    the same floor. To be confirmed against the text (it is not in the
    regulations the service was given). Months, not a duration: the twins'
    short clocks (games.profiles.accelerated) do not shorten it.
    """

    minimum_months: int = 6
    source: str = "RGIAJ (Real Decreto 1614/2011): at least 6 months"


@dataclass(frozen=True)
class PlayerRating:
    """How the room counts a player's time and what it is worth to the house
    (issue 26, "Players' time and rating"; floor.reports.players): house
    settings, not law, with the service's defaults.

    ``counts_resting``: whether the hands a player rests [GA art. 20; PT 13]
    count as time played; ``counts_away``: whether the house absence clock's
    minutes [CM-18] do. By default neither does: a player resting or away is
    not playing, and a room rates the time at the game. The time-charged
    rake [GA art. 18.3b; PT 7b] charges a seat by the session whatever the
    player does in it; the hours here are the player's, the charges the
    seat's (tests/floor/test_player_hours.py checks both on one shift).

    Comp points: each hour played earns ``points_per_hour`` by the table's
    stakes (its minimum bet, in cents): the first band whose ``up_to_cents``
    reaches the table's minimum; the last band (``None``) takes the rest.
    Points are whole: an hour's points times the seconds played, divided by
    3,600, rounded down per session.
    """

    counts_resting: bool = False
    counts_away: bool = False
    # (the table minimum up to, in cents, or None: any) -> comp points an hour.
    points_per_hour: tuple[tuple[int | None, int], ...] = (
        (5_00, 1),
        (20_00, 2),
        (50_00, 4),
        (None, 8),
    )

    def points_an_hour(self, minimum_cents: int) -> int:
        """The comp points an hour at a table of this minimum bet earns."""
        for up_to, points in self.points_per_hour:
            if up_to is None or minimum_cents <= up_to:
                return points
        return 0

    def comp_points(self, seconds: int, minimum_cents: int) -> int:
        """Whole comp points for ``seconds`` played at a table of this minimum."""
        return self.points_an_hour(minimum_cents) * int(seconds) // 3600


@dataclass(frozen=True)
class ActionClock:
    """The clock on a slow player.

    ``enforced`` False: the regulation only has the dealer warn a slow player
    and the floor send repeat offenders away [GA art. 24.3a; PT 71a].
    """

    enforced: bool
    # CM-21: up to 200 EUR in the pot, two minutes; above, four.
    small_pot_limit_cents: int = 200_00
    small_pot: timedelta = timedelta(minutes=2)
    large_pot: timedelta = timedelta(minutes=4)
    # CM-22: then one more minute, the last ten seconds counted aloud; then the
    # hand is dead.
    extra: timedelta = timedelta(minutes=1)
    countdown: timedelta = timedelta(seconds=10)

    def first_period(self, pot_cents: int) -> timedelta:
        """The clock before the extra minute, by the pot in play [CM-21]."""
        return self.small_pot if pot_cents <= self.small_pot_limit_cents else self.large_pot


@dataclass(frozen=True)
class WaitingListRules:
    # A called player must appear within this window [CM-6]; None: no window.
    call_window: timedelta | None = None
    # Appearing only to re-register puts the player last [CM-6].
    relist_goes_last: bool = False
    # Absent when called: removed from the list [CM-6].
    absent_when_called_removed: bool = False
    # The longest a call may last, counted from the call, where the rule fixes
    # a maximum ("en un máximo de 5 minutos" [CM-6]); None: no maximum fixed.
    # Asking for more time never moves the deadline past it.
    call_window_max: timedelta | None = None
    # A called player's "five more minutes" (issue 24): the call's deadline
    # moves by this much, once a call, never past ``call_window_max``; None:
    # the answer is recorded for the jefe and the deadline stays.
    call_extension: timedelta | None = None
    # A called player answering "not coming" at the desk (appearing):
    # re-listed last under a new reservation (True) or taken off the list
    # (False) [CM-6]; from the phone, always off the list.
    declined_call_relists: bool = False
    # A remote ("called in") entry, made by the player from outside the room
    # (issue 24): once checked in it keeps its reservation order (True), or it
    # queues only from arrival, re-placed last under a new number (False).
    # The regulations know only the list kept in the room [GA art. 19.1;
    # PT 12]: by default a place counts from arrival.
    remote_keeps_order: bool = False
    # A remote entry not checked in within this time expires (removed,
    # "remote_expired"); None: it waits until the jefe removes it.
    remote_check_in_time: timedelta | None = timedelta(minutes=90)
    # How many players waiting for a game no table plays prompt the jefe to
    # open one (issue 24, item 4): a house setting, never below the players a
    # game needs to start [GA art. 23; PT 24] (None: that minimum).
    interest_prompt_players: int | None = None


@dataclass(frozen=True)
class TableMoveRules:
    # Sitting at another table without a draw only this long after leaving
    # [CM-13]; None: no cool-down.
    reseat_cooldown: timedelta | None = None
    # In session regime a player changes table only after losing the stack [PT 26].
    change_only_after_losing_stack: bool = False
    # Tables of the same game and stakes: a move may not leave them more than
    # this many players apart [CM-10]; None: no number given.
    max_player_difference: int | None = None
    # A move may not unbalance the tables [PT 26; CM-10].
    moves_may_not_unbalance: bool = False
    # A move to the same game and blinds carries the stack [CM-12].
    carry_stack_same_game: bool = False


@dataclass(frozen=True)
class LimitRules:
    # The ante is at most half the table minimum [GA art. 22.3a].
    ante_max_share_of_minimum: Fraction = Fraction(1, 2)
    # The banked games' fluctuation bands, the instances of ``games.betting``
    # [GA art. 6.3, 14.2; PT-SD 14].
    banked_bands: tuple[BankedBand, ...] = ()

    def band_for(self, variant: Variant | str) -> BankedBand | None:
        wanted = Variant(variant)
        return next((b for b in self.banked_bands if b.variant is wanted), None)


@dataclass(frozen=True)
class BankedRules:
    """How the house settles its banked games (games.banked)."""

    # Sen descarte's call bet pays by GA art. 6.1 (straight flush 25) or by
    # PT-SD 6 (straight flush 50): "GA" or "PT-SD".
    sin_descarte_paytable: str = "GA"
    # The side bets the casino may offer [GA art. 8]: insurance (art. 8a) and
    # the bought card (art. 8c). PT-SD knows neither.
    insurance: bool = True
    extra_card: bool = True
    # Pai Gow's house commission on a win: PG I says "menos el porcentaje de
    # comisión determinado" without the figure; 5 % is the service default
    # (docs/games.md), a house profile sets its own.
    pai_gow_commission: Fraction = Fraction(5, 100)

    @property
    def paytable(self) -> Mapping[Category, int]:
        return PT_SD_PAYTABLE if self.sin_descarte_paytable == "PT-SD" else GA_PAYTABLE

    @property
    def insurance_table(self) -> Mapping[Category, int] | None:
        return GA_INSURANCE if self.insurance else None

    @property
    def source(self) -> str:
        return "PT-SD 6-18" if self.sin_descarte_paytable == "PT-SD" else "GA art. 6-8"


@dataclass(frozen=True)
class BlindRules:
    # Small blind half the table minimum, big blind the minimum [PT 82-83; CM].
    small_share_of_minimum: Fraction = Fraction(1, 2)
    big_share_of_minimum: Fraction = Fraction(1)
    # An empty big-blind seat passes the blind on [CM "Normas generales" 8].
    empty_big_blind_seat_moves_on: bool = False
    # A newcomer posts the big blind or waits for it [CM-17].
    newcomer_posts_big_blind_or_waits: bool = False


@dataclass(frozen=True)
class SeatingRules:
    """How players come to their seats."""

    # The seat draw stays open until the table is full, even once play has
    # begun: a player who registers later is drawn a free seat [CM-3].
    draw_open_until_full: bool = False
    # A player joining a game in progress brings a stack equal to the average
    # capital at the table [PT 28]; otherwise the table's limits apply.
    newcomer_stack_is_table_average: bool = False
    # Mixed tables, two non-banked variants at the player with the hand's
    # choice, may be authorised [PT 23]; GA and CM do not provide for them.
    mixed_tables_allowed: bool = False


@dataclass(frozen=True)
class BuyInBounds:
    """The amounts a house fixes for one variant's tables: the first buy-in
    lies between ``minimum_cents`` and ``maximum_cents``, and so do rebuys."""

    variant: Variant
    minimum_cents: int
    maximum_cents: int
    # The article that fixes them, named when a buy-in is refused.
    source: str


@dataclass(frozen=True)
class BuyInRules:
    """What a player may put in front of them: the first buy-in and rebuys.

    A house may fix the amounts by variant: CM's Hold'em tables take 100 to
    1,000 EUR [CM-2]; PT leaves them to the casino [PT 75, 78] and GA names
    none. Where a profile fixes none for a variant, the table's own minimum
    and maximum bound them (the service default).
    """

    bounds: tuple[BuyInBounds, ...] = ()
    # A rebuy is at least the minimum and may not take the stack past the
    # maximum: CM-2's "sin superar el importe máximo permitido" read as the
    # chips in front of the player, as a cash table's maximum buy-in is (RULES.md
    # §4). False: only the rebuy itself is bounded by the maximum.
    rebuy_caps_stack: bool = True

    def bounds_for(self, variant: Variant | str) -> BuyInBounds | None:
        """The house's amounts for that variant's tables, or None."""
        wanted = Variant(variant)
        return next((b for b in self.bounds if b.variant is wanted), None)


@dataclass(frozen=True)
class ButtonRules:
    first: FirstButton
    rotation: Rotation
    # Suit order breaking equal ranks in the button draw [CM], strongest first.
    draw_suit_order: str | None = None
