"""Bets and raises: how much a player may put in, how often, and the forced bets.

Every amount is in integer cents. The per-source choices are frozen data
(``RaiseRule``, ``BankedBand``) with one module-level instance per source; the
rule profiles (``games.profiles``) point at these instances rather than keep a
copy. The functions take the rule as an argument and know no source by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from games.errors import RuleViolation
from games.limits import BettingLimit, TableStakes, check_stakes, small_blind_for
from games.variants import Variant


class MinimumRaise(StrEnum):
    """What a raise must add at the least."""

    # The raise is at least the table minimum [PT 86; GA art. 22.3a: no bet below
    # the table minimum].
    TABLE_MINIMUM = "table_minimum"
    # The raise at least doubles the highest bet so far, all-ins excepted
    # [CM "Subir": "la subida mínima ... el doble"; CM norms].
    DOUBLE_PREVIOUS_BET = "double_previous_bet"


@dataclass(frozen=True)
class RaiseRule:
    """How raises are bounded and counted in one betting round."""

    # Raises allowed in a round; None: no limit. PT 87: three. GA art. 23.2 lets
    # the variant limit them without a number; GA art. 30.1 (seven stud): three.
    max_raises: int | None
    # The limit counts each player's raises rather than the round's [GA art. 30.1:
    # "cada xogador pode subir ... como máximo tres veces"]; PT 87 counts the round.
    counted_per_player: bool
    # Unlimited raises once only two players are left in the hand [PT 47, 88;
    # GA art. 23.2].
    unlimited_heads_up: bool
    # The least a raise adds [PT 86; CM].
    minimum_raise: MinimumRaise
    # A player going all-in may raise by less than the minimum [CM: "a excepción
    # de los jugadores restados"; PT 49 and GA art. 23.2 let a short stack play
    # its part].
    all_in_may_raise_less: bool
    # A raise is at most the total bet so far [PT 86]. Only PT says so; GA and CM
    # keep the value the rule profiles always had. Informative: the table's
    # betting limit (``cap_increment``) is what bounds a raise here.
    max_raise_is_total_bet: bool


GA_RAISES = RaiseRule(
    # GA art. 23.2: "dependendo da variedade ... o número de veces que un xogador
    # pode realizar unha subida pode estar limitado": only a variant's own rules
    # cap raises (seven stud: GA_STUD7_RAISES, art. 30.1); Hold'em, Omaha and the
    # others name no count.
    max_raises=None,
    counted_per_player=True,  # GA art. 23.2 counts a player's raises
    unlimited_heads_up=True,  # GA art. 23.2
    minimum_raise=MinimumRaise.TABLE_MINIMUM,  # GA art. 22.3a
    all_in_may_raise_less=True,  # GA art. 23.2 ("xogando entón a parte proporcional")
    max_raise_is_total_bet=True,
)
GA_STUD7_RAISES = RaiseRule(
    max_raises=3,  # GA art. 30.1
    counted_per_player=True,  # GA art. 30.1: each player at most three times
    unlimited_heads_up=True,  # GA art. 23.2
    minimum_raise=MinimumRaise.TABLE_MINIMUM,  # GA art. 22.3a
    all_in_may_raise_less=True,  # GA art. 23.2
    max_raise_is_total_bet=True,
)
PT_RAISES = RaiseRule(
    max_raises=3,  # PT 87
    counted_per_player=False,  # PT 87: "em cada ronda de apostas"
    unlimited_heads_up=True,  # PT 47, 88
    minimum_raise=MinimumRaise.TABLE_MINIMUM,  # PT 86
    all_in_may_raise_less=True,  # PT 49
    max_raise_is_total_bet=True,  # PT 86
)
# The rule profiles used to give CM the GA count of three (CM as GA plus house
# rules); kept here instead: GA art. 23.2 leaves the count to the variant's rules
# and the CM manual, which sets them for its tables, names none.
CM_RAISES = RaiseRule(
    max_raises=None,  # CM names no count for its Hold'em and Omaha tables
    counted_per_player=False,
    unlimited_heads_up=True,  # GA art. 23.2, under the house rules
    minimum_raise=MinimumRaise.DOUBLE_PREVIOUS_BET,  # CM "Subir": "... el doble"
    all_in_may_raise_less=True,  # CM: "a excepción de los jugadores restados"
    max_raise_is_total_bet=True,
)


@dataclass(frozen=True)
class RaiseBounds:
    """The totals a player may bring their bet this round to (both inclusive).

    ``all_in_to`` is the total when the player puts in their whole stack; it may
    lie below ``minimum_to`` where the rule lets an all-in raise by less.
    """

    minimum_to: int
    maximum_to: int
    all_in_to: int


def _require_non_negative(**amounts: int) -> None:
    """Money is whole non-negative cents; anything else is a caller's bug made visible."""
    for name, value in amounts.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RuleViolation(
                "amount_invalid",
                f"{name} must be a non-negative whole number of cents.",
                field=name,
            )


def cap_increment(limit: BettingLimit, *, pot: int, to_call: int, stack: int) -> int:
    """The most a player may add on top of calling, under the table's limit.

    ``pot`` holds every chip already bet in the hand, this round's included.
    Pot limit: at most the pot [GA art. 22.3a.2; PT 21b], the pot being counted
    after the player's call, so a raise can match what the caller sees. Split
    limit: half of that [GA art. 22.3a.1; PT 21a]. No limit: the player's stack
    [GA art. 22.3a.3; PT 21c]. Never more than the chips left after calling.
    """
    _require_non_negative(pot=pot, to_call=to_call, stack=stack)
    behind = max(stack - to_call, 0)
    if limit is BettingLimit.NO_LIMIT:
        return behind
    pot_after_call = pot + min(to_call, stack)
    cap = pot_after_call if limit is BettingLimit.POT_LIMIT else pot_after_call // 2
    return min(cap, behind)


def minimum_increment(rule: RaiseRule, *, table_minimum: int, current_bet: int) -> int:
    """The least a (non all-in) bet or raise adds over the highest bet of the round.

    PT 86: the table minimum. CM: the raise at least doubles the previous bet, so
    it adds at least that bet, and never less than the table minimum (the big blind).
    """
    _require_non_negative(table_minimum=table_minimum, current_bet=current_bet)
    if rule.minimum_raise is MinimumRaise.DOUBLE_PREVIOUS_BET:
        return max(table_minimum, current_bet)
    return table_minimum


def raise_bounds(
    limit: BettingLimit,
    rule: RaiseRule,
    *,
    table_minimum: int,
    pot: int,
    current_bet: int,
    player_bet: int,
    stack: int,
) -> RaiseBounds:
    """The range of totals a player may bet or raise to this round.

    ``current_bet`` is the highest total bet this round, ``player_bet`` what this
    player has in front of them this round, ``stack`` the chips still behind.
    """
    _require_non_negative(
        player_bet=player_bet,
        stack=stack,
        current_bet=current_bet,
        pot=pot,
        table_minimum=table_minimum,
    )
    if player_bet > current_bet:
        raise RuleViolation(
            "bet_above_current", "A player's bet cannot exceed the highest bet of the round."
        )
    to_call = current_bet - player_bet
    all_in_to = player_bet + stack
    cap = cap_increment(limit, pot=pot, to_call=to_call, stack=stack)
    least = minimum_increment(rule, table_minimum=table_minimum, current_bet=current_bet)
    return RaiseBounds(
        minimum_to=current_bet + least,
        maximum_to=min(current_bet + cap, all_in_to),
        all_in_to=all_in_to,
    )


def check_raise(
    limit: BettingLimit,
    rule: RaiseRule,
    *,
    raise_to: int,
    table_minimum: int,
    pot: int,
    current_bet: int,
    player_bet: int,
    stack: int,
) -> None:
    """Refuses a bet or raise outside what the limit and the raise rule allow."""
    _require_non_negative(raise_to=raise_to)
    bounds = raise_bounds(
        limit,
        rule,
        table_minimum=table_minimum,
        pot=pot,
        current_bet=current_bet,
        player_bet=player_bet,
        stack=stack,
    )
    if raise_to > bounds.all_in_to:
        raise RuleViolation(
            "raise_over_stack",
            "A player cannot bet more chips than they have on the table.",
            stack_cents=stack,
        )
    if raise_to > bounds.maximum_to:
        raise RuleViolation(
            "raise_above_maximum",
            "The bet exceeds what the table's limit allows.",
            maximum_to_cents=bounds.maximum_to,
        )
    all_in_short = raise_to == bounds.all_in_to and rule.all_in_may_raise_less
    if raise_to < bounds.minimum_to and not (all_in_short and raise_to > current_bet):
        raise RuleViolation(
            "raise_below_minimum",
            "The raise is smaller than the rule's minimum.",
            minimum_to_cents=bounds.minimum_to,
        )


def may_raise(
    rule: RaiseRule, *, raises_this_round: int, players_in_hand: int, player_raises: int = 0
) -> bool:
    """Whether one more raise is allowed in this round.

    Heads-up, raises are unlimited [PT 47, 88; GA art. 23.2]; otherwise the
    rule's count applies, to the round [PT 87] or to each player [GA art. 30.1].
    """
    _require_non_negative(
        raises_this_round=raises_this_round,
        players_in_hand=players_in_hand,
        player_raises=player_raises,
    )
    if rule.max_raises is None:
        return True
    if rule.unlimited_heads_up and players_in_hand <= 2:
        return True
    counted = player_raises if rule.counted_per_player else raises_this_round
    return counted < rule.max_raises


def check_may_raise(
    rule: RaiseRule, *, raises_this_round: int, players_in_hand: int, player_raises: int = 0
) -> None:
    """Refuses a raise beyond the round's count."""
    if not may_raise(
        rule,
        raises_this_round=raises_this_round,
        players_in_hand=players_in_hand,
        player_raises=player_raises,
    ):
        raise RuleViolation(
            "raise_count_exceeded",
            f"No more than {rule.max_raises} raises are allowed in this betting round.",
            max_raises=rule.max_raises,
        )


# --- Seven stud's split limit ------------------------------------------------------

STUD_ROUNDS = 5  # third street to seventh street [GA art. 30.2]


def stud_round_limit(*, round_number: int, low: int, high: int, open_pair_shown: bool) -> int:
    """The fixed bet size of a seven stud betting round under split limit.

    The lower limit for the first two rounds, the higher for the next three, or
    the higher at once when the first two upcards pair [GA art. 30.1.1].
    """
    _require_non_negative(low=low, high=high)
    if not 1 <= round_number <= STUD_ROUNDS:
        raise RuleViolation(
            "stud_round_invalid",
            f"Seven stud has betting rounds 1 to {STUD_ROUNDS}.",
            round_number=round_number,
        )
    if low <= 0 or high < low:
        raise RuleViolation(
            "stud_limits_invalid", "The lower limit must be positive and not above the higher."
        )
    if round_number >= 3 or open_pair_shown:
        return high
    return low


def stud_pot_limited_cap(*, round_number: int, pot_at_deal: int) -> int | None:
    """The cap of a pot-limited seven stud round, where GA art. 30.1.2 fixes one.

    In the last two rounds the limit is half the pot when the sixth card is dealt
    and the whole pot when the seventh is dealt; for the first three rounds the
    article fixes no figure, so None (the table's own limit applies).
    """
    _require_non_negative(pot_at_deal=pot_at_deal)
    if not 1 <= round_number <= STUD_ROUNDS:
        raise RuleViolation(
            "stud_round_invalid",
            f"Seven stud has betting rounds 1 to {STUD_ROUNDS}.",
            round_number=round_number,
        )
    if round_number == STUD_ROUNDS - 1:
        return pot_at_deal // 2
    if round_number == STUD_ROUNDS:
        return pot_at_deal
    return None


# --- Forced bets --------------------------------------------------------------------


@dataclass(frozen=True)
class Blinds:
    small: int
    big: int


def blinds_for(table_minimum: int) -> Blinds:
    """Small blind = half the table minimum, big blind = the minimum [PT 81-83; CM]."""
    _require_non_negative(table_minimum=table_minimum)
    if table_minimum <= 0:
        raise RuleViolation(
            "stakes_minimum_not_positive", "The table minimum must be a positive amount."
        )
    if table_minimum % 2:
        raise RuleViolation(
            "stakes_minimum_odd",
            "The table minimum must be an even number of cents: the small blind is half of it.",
        )
    return Blinds(small=small_blind_for(table_minimum), big=table_minimum)


def max_ante(table_minimum: int) -> int:
    """The ante is at most half the table minimum [GA art. 22.3a; PT 20 via RULES §8]."""
    _require_non_negative(table_minimum=table_minimum)
    return table_minimum // 2


def check_ante(ante: int, table_minimum: int) -> None:
    """Refuses an ante above half the table minimum [GA art. 22.3a]."""
    _require_non_negative(ante=ante, table_minimum=table_minimum)
    if ante > max_ante(table_minimum):
        raise RuleViolation(
            "ante_above_half_minimum",
            "The ante may be at most half of the table minimum.",
            max_ante_cents=max_ante(table_minimum),
        )


def check_table_limits(
    stakes: TableStakes, minimum_share_band: tuple[Fraction, Fraction], *, ante: int = 0
) -> None:
    """Refuses a table whose limits the profile does not allow: the minimum within
    its band of the maximum (``limits.check_stakes``) and the ante at most half the
    minimum [GA art. 22.3a; PT 20].
    """
    check_stakes(stakes, minimum_share_band)
    check_ante(ante, stakes.minimum_cents)


# --- Banked games' fluctuation bands --------------------------------------------------


@dataclass(frozen=True)
class BankedBand:
    """How far a banked table's maximum may sit above its minimum."""

    variant: Variant
    # The authorised multiples of the minimum the maximum may be.
    multiples: tuple[int, ...]
    # True: the maximum is exactly one of the multiples times the minimum
    # [GA art. 6.3, 14.2]; False: the largest multiple is only a ceiling [PT-SD 14].
    exact: bool

    @property
    def max_multiple(self) -> int:
        return max(self.multiples)

    def allows(self, multiple: Fraction) -> bool:
        """Whether a maximum of ``multiple`` times the minimum is inside the band."""
        if self.exact:
            return multiple in self.multiples
        return 1 <= multiple <= self.max_multiple


# Sen descarte: the maximum is 10, 20 or 25 times the minimum [GA art. 6.3].
GA_SIN_DESCARTE_BAND = BankedBand(Variant.SEN_DESCARTE, multiples=(10, 20, 25), exact=True)
# Trijoker: 10, 20 or 30 times the minimum [GA art. 14.2].
GA_TRIJOKER_BAND = BankedBand(Variant.TRIJOKER, multiples=(10, 20, 30), exact=True)
# Póquer sem descarte: at most 25 times the minimum [PT-SD 14].
PT_SD_BAND = BankedBand(Variant.SEN_DESCARTE, multiples=(25,), exact=False)


def check_banked_stakes(band: BankedBand, *, minimum: int, maximum: int) -> None:
    """Refuses a banked table's minimum and maximum outside its fluctuation band."""
    _require_non_negative(minimum=minimum, maximum=maximum)
    if minimum <= 0:
        raise RuleViolation(
            "stakes_minimum_not_positive", "The table minimum must be a positive amount."
        )
    if maximum < minimum:
        raise RuleViolation(
            "stakes_maximum_below_minimum", "The table maximum may not be below its minimum."
        )
    if band.exact:
        if not band.allows(Fraction(maximum, minimum)):
            raise RuleViolation(
                "banked_band_not_authorised",
                "The maximum must be one of the authorised multiples of the minimum.",
                multiples=list(band.multiples),
            )
    elif not band.allows(Fraction(maximum, minimum)):
        raise RuleViolation(
            "banked_band_too_wide",
            f"The maximum may be at most {band.max_multiple} times the minimum.",
            max_multiple=band.max_multiple,
        )
