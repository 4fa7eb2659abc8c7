"""Rule profiles: every number and choice that differs between the sources.

A casino runs one profile; events record the profile in force. Each field names
the article it comes from (see shared RULES.md section 12). Later issues add the
fields their rules need.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import timedelta
from enum import StrEnum
from fractions import Fraction
from typing import Any

from games.betting import (
    CM_RAISES,
    GA_RAISES,
    GA_SIN_DESCARTE_BAND,
    GA_STUD7_RAISES,
    GA_TRIJOKER_BAND,
    PT_RAISES,
    PT_SD_BAND,
    RaiseRule,
)
from games.errors import RuleViolation
from games.pots import CM_SPLIT, GA_SPLIT, PT_SPLIT, PotSplitRule
from games.profile_rules import (
    AbsenceRules,
    ActionClock,
    BankedRules,
    BlindRules,
    ButtonRules,
    BuyInBounds,
    BuyInRules,
    CageIdentification,
    ClosingRules,
    DataRetention,
    DealerRotationRules,
    FirstButton,
    GamingDay,
    LimitRules,
    PlayerRating,
    RestRules,
    Rotation,
    SeatingRules,
    SeatRange,
    SeatRules,
    SelfExclusionRules,
    TableMoveRules,
    WaitingListRules,
)
from games.rake import CM_RAKE, GA_RAKE, PT_RAKE, RakeRules, SessionChargeRule
from games.table_rules import TableRules, build_table_rules
from games.variants import VARIANTS, Variant


class SeatNumbering(StrEnum):
    FROM_DEALER_RIGHT = "from_dealer_right"  # GA art. 18.2
    FROM_DEALER_LEFT = "from_dealer_left"  # PT 6; CM


@dataclass(frozen=True)
class RuleProfile:
    code: str
    name: str
    # A sector holds at most four tables [GA art. 19; PG III.1].
    max_tables_per_sector: int
    # A game needs four players to start and to go on [GA art. 23; PT 24].
    min_players: int
    # The table minimum lies between these shares of the maximum
    # [GA art. 22.3a; PT 20].
    minimum_share_band: tuple[Fraction, Fraction]
    # A suspended table closes after this long without four players [PT 24];
    # None: it stays suspended until there are four again [GA art. 23].
    suspension_closes_after: timedelta | None
    # Seat 1 is at the dealer's right [GA art. 18.2] or left [PT 6; CM].
    seat_numbering: SeatNumbering
    # The games the profile authorises and their seats [GA art. 5, 12, 18.2;
    # PT 6; PT-SD 5; PG III.3; CM].
    seats: SeatRules
    # Resting and not betting [GA art. 20; PT 13, 89, 90; PT-SD 22].
    rest: RestRules
    # The house absence clock [CM-18, CM-19]; None: no such clock.
    absence: AbsenceRules | None
    # The clock on a slow player [CM-20..22]; warn only [GA art. 24.3a; PT 71a].
    action_clock: ActionClock
    # Calling players from the waiting list [CM-6].
    waiting_list: WaitingListRules
    # Changing tables and balancing them [PT 26; CM-10..13].
    table_moves: TableMoveRules
    # Ante share and banked fluctuation bands [GA art. 6.3, 14.2, 22.3a; PT-SD 14].
    limits: LimitRules
    # Blind sizes [PT 81-83; CM].
    blinds: BlindRules
    # Raise counts and sizes [GA art. 23.2, 30; PT 86-88; CM]: the source's
    # ``games.betting`` instance.
    raises: RaiseRule
    # The house benefit [GA art. 18.3; PT 7; CM "Beneficio"]: the source's
    # ``games.rake`` instances.
    rake: RakeRules
    # Equal hands and odd chips [GA art. 23.3; PT 66-67; CM]: the source's
    # ``games.pots`` instance.
    split: PotSplitRule
    # Who has the button first and where it goes [GA art. 23.1; PT 29-30; CM].
    button: ButtonRules
    # The seat draw, joining stacks and mixed tables [PT 23, 28; CM-3].
    seating: SeatingRules = field(default_factory=SeatingRules)
    # The first buy-in and rebuys: CM's Hold'em tables take 100 to 1,000 EUR
    # [CM-2]; PT has the casino fix them [PT 75, 78]; GA names no amount. Where
    # none is fixed, the table's minimum and maximum bound them.
    buy_in: BuyInRules = field(default_factory=BuyInRules)
    # The last hands of the night [CM-24; GA art. 7, 15.3].
    closing: ClosingRules = field(
        default_factory=lambda: ClosingRules(lead=timedelta(0), last_hands=3)
    )
    # The casino's day, for what may be done once a day [CM-18].
    gaming_day: GamingDay = field(default_factory=GamingDay)
    # Dealers' downs and breaks, a house setting: a dealer at every table at
    # all times [GA art. 19] (floor.domain.dealer_rotation).
    dealer_rotation: DealerRotationRules = field(default_factory=DealerRotationRules)
    # Chips leave a table only for tips or hospitality, at most this much at a
    # time [CM-15]; GA and PT only forbid lending and hiding chips [GA art. 21;
    # PT 14], so the house figure is the service default.
    chips_off_table_most_cents: int = 1500
    # The cage identifies a patron whose chip purchases, or cash-outs, reach
    # this much in a gaming day [ES: Ley 10/2010 art. 7.5 (RDL 11/2018); PT:
    # Lei 83/2017]: 2,000 EUR in both, to be confirmed against the texts.
    cage_identification: CageIdentification = field(default_factory=CageIdentification)
    # The region whose own exclusion register counts here, besides the
    # national lists (issue 25, item 2): Galicia keeps its register of banned
    # persons (Lei 14/1985 de xogos de Galicia, to confirm against the text);
    # a listing in a regional register counts in that region. Blank: none.
    exclusion_region: str = ""
    # How long a patron's identity document and a superseded exclusion
    # list's rows are kept after the last activity that needed them (issue
    # 25, item 4) [ES: Ley 10/2010 art. 25, ten years; PT: Lei 83/2017 art.
    # 51, seven years]: to be confirmed against the texts.
    retention: DataRetention = field(default_factory=DataRetention)
    # The least time before a self-exclusion taken at the room may be lifted
    # (a house setting; RGIAJ's six months, to be confirmed).
    self_exclusion: SelfExclusionRules = field(default_factory=SelfExclusionRules)
    # Whether resting and away count as time played, and the comp points an
    # hour by stakes (issue 26): house settings with the service's defaults.
    rating: PlayerRating = field(default_factory=PlayerRating)
    # Variants whose own rules count raises differently [GA art. 30.1].
    variant_raises: tuple[tuple[Variant, RaiseRule], ...] = ()
    # Banked settlement: paytable, side bets, Pai Gow's commission [GA art.
    # 6-8; PT-SD 6-18; PG I].
    banked: BankedRules = field(default_factory=BankedRules)

    def raises_for(self, variant: Variant | str) -> RaiseRule:
        """The raise rule of one variant's tables: its own where it has one."""
        wanted = Variant(variant)
        return next((rule for v, rule in self.variant_raises if v is wanted), self.raises)

    def for_table(self, variant: Variant | str, **overrides: Any) -> TableRules:
        """The rules of one table: the profile plus what the table may change.

        A room announces some choices per table (GA art. 18.3a and 22.3b, PT 7
        and 22: fixed and announced before play, within what is authorised).
        Only the keywords of ``TABLE_OVERRIDES`` are accepted, each inside the
        profile's bounds; anything else is refused with a ``RuleViolation``.
        """
        return build_table_rules(self, variant, overrides)


# The banked games' boxes: one player up to the boxes marked on the cloth,
# seven in sen descarte [GA art. 5] and Trijoker [GA art. 12], six in Pai Gow
# [PG III.3]. A banked table's seats are its boxes.
GA_BOXES = (
    SeatRange(Variant.SEN_DESCARTE, 1, 7, "GA art. 5"),
    SeatRange(Variant.TRIJOKER, 1, 7, "GA art. 12"),
    SeatRange(Variant.PAI_GOW, 1, 6, "PG III.3"),
)


def _circle_and_banked_seats() -> tuple[SeatRange, ...]:
    """GA: circle games need four players [GA art. 23] and seat what the table
    offers (bounded by the deck, see variants.py); banked games seat one to the
    boxes marked (``GA_BOXES``)."""
    circle = tuple(
        SeatRange(spec.variant, 4, spec.max_seats) for spec in VARIANTS.values() if not spec.banked
    )
    return circle + GA_BOXES


GA = RuleProfile(
    code="GA",
    name="Galicia, Decreto 112/2005",
    max_tables_per_sector=4,
    min_players=4,
    minimum_share_band=(Fraction(20, 100), Fraction(40, 100)),
    suspension_closes_after=None,
    seat_numbering=SeatNumbering.FROM_DEALER_RIGHT,
    seats=SeatRules(ranges=_circle_and_banked_seats()),
    # Two hands of rest [GA art. 20]; nothing on idle players.
    rest=RestRules(rest_hands=2),
    absence=None,
    action_clock=ActionClock(enforced=False),  # GA art. 24.3a: warned
    # The jefe keeps a list [GA art. 19.1]; the regulation knows no call window
    # nor remote entries: a remote entry queues from arrival and expires when
    # not checked in within 90 minutes, the service's defaults (issue 24).
    waiting_list=WaitingListRules(),
    table_moves=TableMoveRules(),
    limits=LimitRules(
        ante_max_share_of_minimum=Fraction(1, 2),  # GA art. 22.3a
        banked_bands=(GA_SIN_DESCARTE_BAND, GA_TRIJOKER_BAND),  # GA art. 6.3, 14.2
    ),
    blinds=BlindRules(),
    # Raises may be capped by variant, never heads-up [GA art. 23.2]: seven
    # stud allows each player three a round [GA art. 30.1].
    raises=GA_RAISES,
    variant_raises=((Variant.SEVEN_STUD, GA_STUD7_RAISES),),
    # As the day ends the last hands are announced: five in sen descarte
    # [GA art. 7], three in Trijoker [GA art. 15.3]; three elsewhere (service
    # default, RULES.md section 3).
    closing=ClosingRules(
        lead=timedelta(0),
        last_hands=3,
        last_hands_by_variant=((Variant.SEN_DESCARTE, 5), (Variant.TRIJOKER, 3)),
    ),
    rake=GA_RAKE,  # GA art. 18.3
    split=GA_SPLIT,  # GA art. 23.3
    # The dealer marks the hand; it turns counter-clockwise [GA art. 23.1].
    button=ButtonRules(first=FirstButton.DEALER_MARKS, rotation=Rotation.COUNTER_CLOCKWISE),
    # Chips bought or cashed for 2,000 EUR or more, in one operation or linked
    # ones: the patron is fully identified first [Ley 10/2010 art. 7.5, as
    # amended by Real Decreto-ley 11/2018] (CM inherits it). To be confirmed.
    cage_identification=CageIdentification(2_000_00, source="Ley 10/2010 art. 7.5"),
    # Galicia's register of banned persons counts here (CM inherits it).
    exclusion_region="GA",
    # Due-diligence documents: ten years after the relationship ends [Ley
    # 10/2010 art. 25] (CM inherits it). To be confirmed.
    retention=DataRetention(10, source="Ley 10/2010 art. 25"),
)

PT = RuleProfile(
    code="PT",
    name="Portugal, póquer sem banca (2007)",
    max_tables_per_sector=4,
    min_players=4,
    minimum_share_band=(Fraction(20, 100), Fraction(40, 100)),
    suspension_closes_after=timedelta(minutes=15),
    seat_numbering=SeatNumbering.FROM_DEALER_LEFT,
    seats=SeatRules(
        ranges=(
            # 10 seats, the one at the dealer's right may be disabled [PT 6].
            SeatRange(Variant.TEXAS_HOLDEM, 9, 10),
            SeatRange(Variant.OMAHA, 9, 10),
            # Sintético: 11 seats, all of them available [PT 6].
            SeatRange(Variant.SINTETICO, 11, 11),
            # Banked póquer sem descarte: up to seven boxes [PT-SD 5].
            SeatRange(Variant.SEN_DESCARTE, 1, 7, "PT-SD 5"),
        ),
        right_seat_may_be_disabled=True,
    ),
    rest=RestRules(
        rest_hands=2,  # PT 13
        idle_hands_must_leave=3,  # PT 13
        idle_hands_post_big_blind=5,  # PT 89
        missed_blinds_posted_dead=True,  # PT 90
        banked_idle_hands_may_lose_seat=3,  # PT-SD 22
    ),
    absence=None,
    action_clock=ActionClock(enforced=False),  # PT 71a: warned, then leave
    # The list is kept [PT 8a, 12]; remote entries as GA (the service's
    # defaults: queued from arrival, expired after 90 minutes, issue 24).
    waiting_list=WaitingListRules(),
    table_moves=TableMoveRules(
        change_only_after_losing_stack=True,  # PT 26 (session regime)
        moves_may_not_unbalance=True,  # PT 26
    ),
    limits=LimitRules(
        ante_max_share_of_minimum=Fraction(1, 2),  # GA art. 22.3a (PT 20 is silent)
        banked_bands=(PT_SD_BAND,),  # PT-SD 14
    ),
    blinds=BlindRules(),  # PT 82-83
    raises=PT_RAISES,  # PT 86-88
    rake=PT_RAKE,  # PT 7
    split=PT_SPLIT,  # PT 66-67
    button=ButtonRules(  # PT 29-30
        first=FirstButton.FIRST_SEAT_LEFT_OF_DEALER, rotation=Rotation.CLOCKWISE
    ),
    seating=SeatingRules(
        newcomer_stack_is_table_average=True,  # PT 28
        mixed_tables_allowed=True,  # PT 23
    ),
    # The casino fixes the initial stack, the rebuys and a newcomer's minimum
    # [PT 75, 78]: the text gives no amount, so the table's limits bound them
    # until a house profile fixes its own.
    buy_in=BuyInRules(),
    # PT names no last hands: three as the day ends (service default).
    closing=ClosingRules(lead=timedelta(0), last_hands=3),
    gaming_day=GamingDay(time_zone="Europe/Lisbon"),
    # PT-SD 6 pays the straight flush 50; no insurance, no bought card.
    banked=BankedRules(sin_descarte_paytable="PT-SD", insurance=False, extra_card=False),
    # Due diligence from 2,000 EUR at the cage [Lei 83/2017]. To be confirmed.
    # Casino cheques only to identified patrons, up to what they bought by card
    # or cheque, nominative and crossed [Lei 83/2017]. To be confirmed.
    cage_identification=CageIdentification(
        2_000_00, source="Lei 83/2017", cheque_up_to_card_or_cheque=True
    ),
    # Due-diligence records: seven years [Lei 83/2017 art. 51]. To be confirmed.
    retention=DataRetention(7, source="Lei 83/2017 art. 51"),
    # The house list's floor: six months, as the Spanish rooms' (a house
    # setting; Decreto-Lei 422/89 art. 38's own terms to be confirmed).
    self_exclusion=SelfExclusionRules(
        6, source="house setting (Decreto-Lei 422/89 art. 38, to confirm): 6 months"
    ),
)

# Casino Mediterráneo house rules, layered on the Galician regulation.
CM = replace(
    GA,
    code="CM",
    name="Casino Mediterráneo (house rules on GA)",
    # The service default where the house manual is silent (RULES.md §12).
    suspension_closes_after=timedelta(minutes=15),
    seat_numbering=SeatNumbering.FROM_DEALER_LEFT,
    absence=AbsenceRules(),  # CM-18, CM-19
    action_clock=ActionClock(enforced=True),  # CM-20..22
    waiting_list=WaitingListRules(  # CM-6
        call_window=timedelta(minutes=5),
        relist_goes_last=True,
        absent_when_called_removed=True,
        # "En un máximo de 5 minutos" [CM-6]: the window is a maximum, and the
        # call window takes it all, so "five more minutes" is recorded for the
        # jefe but never moves the deadline (no extension configured).
        call_window_max=timedelta(minutes=5),
        call_extension=None,
        # Appearing "para anotarse de nuevo en la lista, en este caso se le
        # anotará el último" [CM-6]: a player who tells the jefe at the desk
        # that they will not take the seat is re-listed last; from the phone
        # they have not appeared, and are off the list ("se le borrará").
        declined_call_relists=True,
        # House settings (issue 24): the reservation number is given when the
        # player registers ("se le asignará un número de reserva" [CM-6]), so a
        # remote entry keeps its order once checked in; one not checked in
        # within 90 minutes expires.
        remote_keeps_order=True,
        remote_check_in_time=timedelta(minutes=90),
    ),
    table_moves=TableMoveRules(
        reseat_cooldown=timedelta(minutes=15),  # CM-13
        max_player_difference=1,  # CM-10
        moves_may_not_unbalance=True,  # CM-10
        carry_stack_same_game=True,  # CM-12
    ),
    blinds=BlindRules(
        empty_big_blind_seat_moves_on=True,  # CM "Normas generales" 8
        newcomer_posts_big_blind_or_waits=True,  # CM-17
    ),
    # A raise at least doubles the previous bet, all-ins excepted; no count [CM].
    raises=CM_RAISES,
    # Up to 5 %, at most 10 EUR a hand, in steps of 100, 50 or 20 EUR; the manual
    # knows only the per-hand benefit [CM "Beneficio"].
    rake=CM_RAKE,
    # The pot is shared between the winners [CM "split pot"].
    split=CM_SPLIT,
    # Button by card draw, ties by suit S > H > D > C; the deal and the button
    # turn clockwise [CM "Desarrollo del juego"].
    button=ButtonRules(
        first=FirstButton.CARD_DRAW, rotation=Rotation.CLOCKWISE, draw_suit_order="shdc"
    ),
    seating=SeatingRules(draw_open_until_full=True),  # CM-3
    # "En las mesas de póker Texas Hold'em la reposición inicial será de 100€ a
    # 1.000€"; rebuys are at least the minimum, never past the maximum [CM-2].
    buy_in=BuyInRules(
        bounds=(BuyInBounds(Variant.TEXAS_HOLDEM, 100_00, 1_000_00, source="CM-2"),),
    ),
    # Fifteen minutes before the casino closes, the last three hands [CM-24].
    closing=replace(GA.closing, lead=timedelta(minutes=15)),
)


def _durations_to_seconds(value: Any) -> Any:
    """A copy of a rules value with every duration's minutes read as seconds
    (one hour becomes one minute, 20 minutes 20 seconds)."""
    if isinstance(value, timedelta):
        return value / 60
    if is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: _durations_to_seconds(getattr(value, f.name))
            for f in fields(value)
            if isinstance(getattr(value, f.name), timedelta) or is_dataclass(getattr(value, f.name))
        }
        return replace(value, **changes)
    return value


# The accelerated twins run a profile's clocks on a real worker in seconds. Most
# durations read their minutes as seconds (CM-21's two minutes: 2 s), which
# keeps the deadlines a worker must meet to the second apart. The long ones are
# cut further, so a test waits seconds, not minutes: a suspension closes its
# table after 3 s (PT 24: 15 minutes), and a time rake's session strikes its
# hour after 6 s (GA art. 18.3b; PT 7b: one hour), the PT late-join window
# keeping its share of the hour (30 minutes of 60: 3 s).
TWIN_SUSPENSION = timedelta(seconds=3)
TWIN_SESSION_HOUR = timedelta(seconds=6)
# A remote list entry's check-in time (issue 24: 90 minutes) is cut to 9 s.
TWIN_REMOTE_CHECK_IN = timedelta(seconds=9)


def _short_session(rule: SessionChargeRule) -> SessionChargeRule:
    """The session charge with its hour at ``TWIN_SESSION_HOUR`` and its
    late-join window cut in the same proportion [PT 7b]."""
    scale = TWIN_SESSION_HOUR / rule.session_length
    window = rule.late_join_window
    return replace(
        rule,
        session_length=TWIN_SESSION_HOUR,
        late_join_window=None if window is None else window * scale,
    )


def accelerated(
    profile: RuleProfile, *, code: str | None = None, name: str | None = None
) -> RuleProfile:
    """The accelerated twin of ``profile``: the same rules, every clock short
    (see ``TWIN_SUSPENSION``), for the tests that run a real Celery worker.
    Its code is ``TEST_<code>`` unless another is given.

    A profile that never closes a suspended table [GA art. 23] keeps never
    closing it; one without a session charge [CM] keeps having none.
    """
    code = code or f"TEST_{profile.code}"
    name = name or f"Test profile ({profile.code} with short durations)"
    twin = _durations_to_seconds(profile)
    changes: dict[str, Any] = {}
    if profile.suspension_closes_after is not None:
        changes["suspension_closes_after"] = TWIN_SUSPENSION
    if profile.rake.per_session is not None:
        changes["rake"] = replace(twin.rake, per_session=_short_session(profile.rake.per_session))
    if profile.waiting_list.remote_check_in_time is not None:
        changes["waiting_list"] = replace(
            twin.waiting_list, remote_check_in_time=TWIN_REMOTE_CHECK_IN
        )
    return replace(twin, code=code, name=name, **changes)


# CM with every duration cut to seconds, for tests that need a real worker
# (its code predates the twins' TEST_<code>, and events and settings name it).
TEST = accelerated(CM, code="TEST", name="Test profile (CM with short durations)")
TEST_GA = accelerated(GA)
TEST_PT = accelerated(PT)

# Each profile's accelerated twin, by the profile's code.
TWINS: dict[str, RuleProfile] = {"CM": TEST, "GA": TEST_GA, "PT": TEST_PT}

PROFILES: dict[str, RuleProfile] = {p.code: p for p in (GA, PT, CM, TEST, TEST_GA, TEST_PT)}


def get_profile(code: str) -> RuleProfile:
    """The profile of that code; an unknown code is a configuration error."""
    try:
        return PROFILES[code.upper()]
    except KeyError:
        raise RuleViolation(
            "unknown_rule_profile",
            f"Unknown rule profile {code!r}; known: {', '.join(PROFILES)}.",
        ) from None
