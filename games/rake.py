"""The house's benefit: a share of each hand's pot, or a charge per session of play.

The casino fixes and announces one of the two before play [GA art. 18.3; PT 7].
Every amount is integer cents; percentages are exact fractions, and every
rounding goes down, in the players' favour. The per-source rules
(``HandRakeRule``, ``SessionChargeRule``) have one instance per source, which
the rule profiles (``games.profiles``) point at through ``RakeRules``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from fractions import Fraction

from games.errors import RuleViolation
from games.pots import Pot

# --- Per hand ------------------------------------------------------------------------


@dataclass(frozen=True)
class HandRakeRule:
    """What a source allows for the per-hand rake."""

    # At most 5 % of the money in the pot [GA art. 18.3a; PT 7a; CM].
    max_percent: Fraction
    # Whether the casino may cap the rake per hand [PT 7a; CM]. GA art. 18.3a only
    # bounds the percentage; a cap only lowers the take, so it is allowed there too
    # (the rule profiles used to say GA may not cap; this reading, which cites
    # GA art. 18.3a and which table_rules already applied, is kept).
    cap_allowed: bool
    # The largest cap the source allows; None: the casino chooses [PT 7a]. CM: 10 EUR.
    max_cap: int | None
    # The steps of called pot the rake is counted in; () for none. CM: 100, 50 or 20
    # EUR by table stakes.
    steps: tuple[int, ...]
    # Taken from each pot paid rather than from the hand as a whole [PT 65].
    per_pot: bool


GA_HAND_RAKE = HandRakeRule(
    max_percent=Fraction(5, 100),  # GA art. 18.3a
    cap_allowed=True,
    max_cap=None,
    steps=(),
    per_pot=False,  # GA art. 18.3a: "sobre o diñeiro existente en cada man"
)
PT_HAND_RAKE = HandRakeRule(
    max_percent=Fraction(5, 100),  # PT 7a
    cap_allowed=True,  # PT 7a
    max_cap=None,  # PT 7a: the casino fixes it
    steps=(),
    per_pot=True,  # PT 65: "retirada de cada um dos pagamentos"
)
CM_HAND_RAKE = HandRakeRule(
    max_percent=Fraction(5, 100),  # CM "Beneficio"
    cap_allowed=True,
    max_cap=1000,  # CM: "hasta un máximo de 10€ por mano"
    steps=(2_000, 5_000, 10_000),  # CM: "tramos de 100€, de 50€ o de 20€"
    per_pot=False,  # CM: per hand
)


@dataclass(frozen=True)
class HandRake:
    """A table's announced per-hand rake."""

    percent: Fraction
    cap: int | None = None
    step: int | None = None


def check_hand_rake(rule: HandRakeRule, setting: HandRake) -> None:
    """Refuses a table rake the source does not allow."""
    if not isinstance(setting.percent, Fraction | int) or not (
        0 <= setting.percent <= rule.max_percent
    ):
        raise RuleViolation(
            "rake_percent_out_of_range",
            f"The rake is between 0 % and {rule.max_percent * 100} % of the pot.",
            max_percent=str(rule.max_percent * 100),
        )
    if setting.cap is not None:
        if not rule.cap_allowed:
            raise RuleViolation("rake_cap_not_allowed", "This profile has no rake cap.")
        if setting.cap < 0 or (rule.max_cap is not None and setting.cap > rule.max_cap):
            raise RuleViolation(
                "rake_cap_out_of_range",
                "The rake cap is above what the profile allows.",
                max_cap_cents=rule.max_cap,
            )
    elif rule.max_cap is not None:
        raise RuleViolation(
            "rake_cap_required", "This profile caps the rake per hand.", max_cap_cents=rule.max_cap
        )
    if setting.step is not None and setting.step not in rule.steps:
        raise RuleViolation(
            "rake_step_not_allowed",
            "The rake step is not one the profile allows.",
            steps_cents=list(rule.steps),
        )
    if rule.steps and setting.step is None:
        raise RuleViolation(
            "rake_step_required", "This profile counts the rake in steps of called pot."
        )


def _raw_rake(setting: HandRake, amount: int) -> int:
    """The percentage of the amount, counted in whole steps, rounded down."""
    if amount < 0:
        raise RuleViolation("amount_invalid", "A pot cannot be negative.")
    counted = amount - amount % setting.step if setting.step else amount
    return int(Fraction(setting.percent) * counted)  # int() of a non-negative Fraction floors


def _capped(setting: HandRake, rake: int) -> int:
    return rake if setting.cap is None else min(rake, setting.cap)


def hand_rake(setting: HandRake, called_pot: int) -> int:
    """The rake of a hand whose called pot is ``called_pot``.

    Up to the percentage of the money in the pot [GA art. 18.3a; PT 7a], counted
    in whole steps of called pot and capped per hand [CM].
    """
    return _capped(setting, _raw_rake(setting, called_pot))


def rake_due_now(setting: HandRake, called_pot_so_far: int, already_taken: int) -> int:
    """What the dealer takes as a betting round starts [CM: "cuando los jugadores
    inician un turno de apuestas"]: the rake on the pot called so far, less what
    was already taken; the total taken is then the hand's rake, never more.
    """
    return max(hand_rake(setting, called_pot_so_far) - already_taken, 0)


def _share_out(total: int, amounts: Sequence[int]) -> list[int]:
    """Divides ``total`` over the amounts in proportion, whole cents, larger first."""
    whole = sum(amounts)
    if whole == 0:
        return [0 for _ in amounts]
    shares = [total * a // whole for a in amounts]
    left = total - sum(shares)
    by_size = sorted(range(len(amounts)), key=lambda i: (-amounts[i], i))
    for i in by_size[:left]:
        shares[i] += 1
    return shares


def rake_pots(
    rule: HandRakeRule, setting: HandRake, pots: Sequence[Pot]
) -> tuple[tuple[Pot, ...], int]:
    """Takes the rake out of a hand's pots: the pots left to pay, and the rake.

    Per pot, each payment gives up its percentage [PT 65] and the hand's cap
    binds the pots in order, main pot first; per hand, the rake of the whole pot
    [GA art. 18.3a; CM] comes out of the pots in proportion to their size.
    """
    check_hand_rake(rule, setting)
    amounts = [p.amount for p in pots]
    if rule.per_pot:
        takes = []
        room = setting.cap
        for amount in amounts:
            take = _raw_rake(setting, amount)
            if room is not None:
                take = min(take, room)
                room -= take
            takes.append(take)
    else:
        takes = _share_out(hand_rake(setting, sum(amounts)), amounts)
    left = tuple(Pot(p.amount - t, p.eligible) for p, t in zip(pots, takes, strict=True))
    return left, sum(takes)


# --- Per session ("time") ---------------------------------------------------------------


class SessionBase(StrEnum):
    """What the session percentage is counted on [GA art. 18.3b; PT 7b]; the
    casino announces which."""

    TABLE_MAXIMUM = "table_maximum"
    STACK = "stack"


class SessionEnd(StrEnum):
    """What follows the hour before a session ends."""

    # "unha hora de xogo máis as dúas últimas mans" [GA art. 18.3b]. (The rule
    # profiles called it LAST_TWO_HANDS; this name, next to the quote, is kept.)
    TWO_MORE_HANDS = "two_more_hands"
    # "acrescido das jogadas necessárias para ... completem a mão que estiver em
    # curso" [PT 7b].
    FINISH_HAND_IN_PROGRESS = "finish_hand_in_progress"


@dataclass(frozen=True)
class SessionChargeRule:
    """What a source allows for the per-session charge."""

    # The percentage band of the table maximum or the stack [GA art. 18.3b: 10-20 %;
    # PT 7b: 5-20 %].
    percent_band: tuple[Fraction, Fraction]
    # What the percentage may be counted on, the first being a table's default
    # [GA art. 18.3b; PT 7b: the table maximum or the player's stack].
    bases: tuple[SessionBase, ...]
    # One hour of play [GA art. 18.3b; PT 7b].
    session_length: timedelta
    # How the session ends after the hour [GA art. 18.3b; PT 7b].
    end: SessionEnd
    # Players sitting down within this time of the session's start pay its charge
    # [PT 7b: thirty minutes]; None: the source has no such charge [GA].
    late_join_window: timedelta | None


GA_SESSION_CHARGE = SessionChargeRule(
    percent_band=(Fraction(10, 100), Fraction(20, 100)),  # GA art. 18.3b
    bases=(SessionBase.TABLE_MAXIMUM, SessionBase.STACK),  # GA art. 18.3b
    session_length=timedelta(hours=1),  # GA art. 18.3b
    end=SessionEnd.TWO_MORE_HANDS,  # GA art. 18.3b
    late_join_window=None,  # GA art. 18.3b is silent
)
PT_SESSION_CHARGE = SessionChargeRule(
    percent_band=(Fraction(5, 100), Fraction(20, 100)),  # PT 7b
    bases=(SessionBase.TABLE_MAXIMUM, SessionBase.STACK),  # PT 7b
    session_length=timedelta(hours=1),  # PT 7b
    end=SessionEnd.FINISH_HAND_IN_PROGRESS,  # PT 7b
    late_join_window=timedelta(minutes=30),  # PT 7b
)
# CM takes its benefit per hand only (CM "Beneficio"); it has no session charge.


@dataclass(frozen=True)
class RakeRules:
    """The house benefit models a profile allows [GA art. 18.3; PT 7; CM "Beneficio"].

    None: the source has no such model.
    """

    per_hand: HandRakeRule | None
    per_session: SessionChargeRule | None


GA_RAKE = RakeRules(per_hand=GA_HAND_RAKE, per_session=GA_SESSION_CHARGE)
PT_RAKE = RakeRules(per_hand=PT_HAND_RAKE, per_session=PT_SESSION_CHARGE)
CM_RAKE = RakeRules(per_hand=CM_HAND_RAKE, per_session=None)


def check_session_percent(rule: SessionChargeRule, percent: Fraction) -> None:
    """Refuses a session percentage outside the source's band."""
    low, high = rule.percent_band
    if not low <= percent <= high:
        raise RuleViolation(
            "session_percent_out_of_range",
            f"The session charge is between {low * 100} % and {high * 100} %.",
            low_percent=str(low * 100),
            high_percent=str(high * 100),
        )


def session_charge(rule: SessionChargeRule, percent: Fraction, base: int) -> int:
    """The charge for one session: the percentage of the table maximum or of the
    player's stack, whichever the casino announced [GA art. 18.3b; PT 7b].
    """
    check_session_percent(rule, percent)
    if not isinstance(base, int) or base < 0:
        raise RuleViolation("amount_invalid", "The charge base must be whole cents.")
    return int(percent * base)


# The hands GA plays after the hour: "as dúas últimas mans" [GA art. 18.3b].
LAST_HANDS_AFTER_HOUR = 2


def hands_after_hour(rule: SessionChargeRule) -> int | None:
    """How many hands follow the hour: two under GA art. 18.3b; under PT 7b
    only the hand in progress when it strikes, if any (None: no fixed count)."""
    return LAST_HANDS_AFTER_HOUR if rule.end is SessionEnd.TWO_MORE_HANDS else None


def session_hands_left(
    rule: SessionChargeRule,
    *,
    struck: bool,
    hands_finished_since_hour: int,
    hand_in_progress: bool,
) -> int | None:
    """How many hands the session still plays once its hour has struck: under
    GA the two last hands less those finished since [GA art. 18.3b]; under PT
    the hand in progress, or none [PT 7b]. None before the hour strikes, when
    the count has not begun."""
    if not struck:
        return None
    if rule.end is SessionEnd.TWO_MORE_HANDS:
        return max(LAST_HANDS_AFTER_HOUR - hands_finished_since_hour, 0)
    return 1 if hand_in_progress else 0


def session_over(
    rule: SessionChargeRule,
    *,
    played: timedelta,
    hands_finished_since_hour: int,
    hand_in_progress: bool,
) -> bool:
    """Whether the current session has ended.

    GA art. 18.3b: the hour, then two more hands. PT 7b: the hour, then the hand
    in progress when the hour struck is played out.
    """
    if played < rule.session_length:
        return False
    if rule.end is SessionEnd.TWO_MORE_HANDS:
        return hands_finished_since_hour >= LAST_HANDS_AFTER_HOUR
    return not hand_in_progress


def pays_on_joining(rule: SessionChargeRule, joined_after_start: timedelta) -> bool:
    """Whether a player sitting down mid-session pays that session's charge.

    PT 7b charges players who sit down within thirty minutes of its start; later
    joiners start paying with the next session. GA names no such charge.
    """
    if joined_after_start < timedelta(0):
        raise RuleViolation("join_time_invalid", "A player cannot join before the session.")
    if joined_after_start == timedelta(0):
        return True
    window = rule.late_join_window
    return window is not None and joined_after_start <= window
