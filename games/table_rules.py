"""One table's rules: its profile plus the few choices a table may make.

The regulations let the room fix some things per table, announced before play
and inside what is authorised: the house benefit and its model [GA art. 18.3;
PT 7], the betting limit [GA art. 22.3b; PT 21-22], how many seats are in use
[PT 6]. The house manual lets the floor run the action clock [CM-20]. Nothing
else may differ from the profile, so ``build_table_rules`` refuses any other
keyword, and any value outside the profile's bounds, with a ``RuleViolation``
whose ``code`` says which.

A table's rules read four things of its profile (``TableProfile``): this module
sits below games.profiles, which builds them (``RuleProfile.for_table``), so
the two do not import each other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol

from games.errors import RuleViolation
from games.limits import BettingLimit
from games.profile_rules import ActionClock, SeatRules
from games.rake import RakeRules, SessionBase
from games.variants import VARIANTS, Variant


class TableProfile(Protocol):
    """What a table's rules read of its rule profile (games.profiles.RuleProfile)."""

    @property
    def code(self) -> str: ...

    @property
    def seats(self) -> SeatRules: ...

    @property
    def rake(self) -> RakeRules: ...

    @property
    def action_clock(self) -> ActionClock: ...


TABLE_OVERRIDES = frozenset(
    {
        "seats",
        "betting_limit",
        "rake_model",
        "rake_percent",
        "rake_cap_cents",
        "rake_step_cents",
        "session_percent",
        "session_base",
        "action_clock",
    }
)

PER_HAND = "per_hand"
PER_SESSION = "per_session"


@dataclass(frozen=True)
class TableRules:
    """What one table runs under. ``profile`` keeps every other setting."""

    profile: TableProfile
    variant: Variant
    seats: int
    betting_limit: BettingLimit | None
    rake_model: str | None  # None: a banked game, which has no rake
    # Per hand: the share of the pot taken, its cap and its step (cents).
    rake_share: Fraction | None
    rake_cap_cents: int | None
    rake_step_cents: int | None
    # Per session: the share charged and what it is a share of.
    session_share: Fraction | None
    session_base: SessionBase | None
    action_clock_on: bool


def _refuse(code: str, message: str, **params: object) -> RuleViolation:
    return RuleViolation(code, message, **params)


PLAIN_NUMBER = re.compile(r"-?\d{1,6}(\.\d{1,6})?")


def _percent(name: str, value: Any) -> Fraction:
    """A percentage as an exact fraction of one (3 -> 3/100)."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction | Decimal | str | float):
        raise _refuse("bad_override_value", f"{name} must be a number.", field=name)
    if isinstance(value, Decimal | float | str):
        # A percentage is written plainly ("7.5"): no exponent, which would let
        # "1e-99999999" build a number of a hundred million digits.
        text = str(value).strip()
        if not PLAIN_NUMBER.fullmatch(text):
            raise _refuse("bad_override_value", f"{name} must be a plain number.", field=name)
        value = text
    try:
        exact = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise _refuse("bad_override_value", f"{name} must be a number.", field=name) from None
    return exact / 100


def _cents(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _refuse(
            "bad_override_value", f"{name} must be a positive whole number of cents.", field=name
        )
    return value


def _check_seats(profile: TableProfile, variant: Variant, seats: Any) -> int:
    seat_range = profile.seats.range_for(variant)
    assert seat_range is not None
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise _refuse("bad_override_value", "seats must be a whole number.", field="seats")
    if not seat_range.min_seats <= seats <= seat_range.max_seats:
        raise _refuse(
            "table_seats_out_of_range",
            f"A {variant} table under {profile.code} has between {seat_range.min_seats} "
            f"and {seat_range.max_seats} seats.",
            low=seat_range.min_seats,
            high=seat_range.max_seats,
        )
    return seats


def _check_per_hand(profile: TableProfile, given: dict[str, Any]) -> tuple:
    rule = profile.rake.per_hand
    if rule is None:
        raise _refuse(
            "rake_model_not_in_profile", f"{profile.code} has no per-hand rake.", model=PER_HAND
        )
    share = rule.max_percent
    if "rake_percent" in given:
        share = _percent("rake_percent", given["rake_percent"])
        if not 0 <= share <= rule.max_percent:
            top = rule.max_percent * 100
            raise _refuse(
                "rake_percent_out_of_band",
                f"The per-hand rake under {profile.code} is between 0 % and {top} %.",
                high_percent=str(top),
            )
    cap = rule.max_cap
    if "rake_cap_cents" in given:
        cap = _cents("rake_cap_cents", given["rake_cap_cents"])
        if not rule.cap_allowed:
            raise _refuse("rake_cap_not_allowed", f"{profile.code} has no rake cap.")
        if rule.max_cap is not None and cap > rule.max_cap:
            raise _refuse(
                "rake_cap_above_profile",
                f"The per-hand rake under {profile.code} is capped at {rule.max_cap} cents.",
                cap_cents=rule.max_cap,
            )
    # Where the profile counts the rake in steps [CM "Beneficio"], a table that
    # names none counts in the smallest, so its rake is never refused for it.
    step = min(rule.steps) if rule.steps else None
    if "rake_step_cents" in given:
        step = _cents("rake_step_cents", given["rake_step_cents"])
        if step not in rule.steps:
            raise _refuse(
                "rake_step_not_in_profile",
                f"{profile.code} takes the rake in steps of {list(rule.steps)} cents.",
                steps=list(rule.steps),
            )
    return share, cap, step


def _check_per_session(profile: TableProfile, given: dict[str, Any]) -> tuple:
    charge = profile.rake.per_session
    if charge is None:
        raise _refuse(
            "rake_model_not_in_profile",
            f"{profile.code} has no per-session charge.",
            model=PER_SESSION,
        )
    low_share, high_share = charge.percent_band
    share = low_share
    if "session_percent" in given:
        share = _percent("session_percent", given["session_percent"])
        if not low_share <= share <= high_share:
            low, high = low_share * 100, high_share * 100
            raise _refuse(
                "session_percent_out_of_band",
                f"The session charge under {profile.code} is between {low} % and {high} %.",
                low_percent=str(low),
                high_percent=str(high),
            )
    base = charge.bases[0]
    if "session_base" in given:
        try:
            base = SessionBase(given["session_base"])
        except ValueError:
            base = None  # type: ignore[assignment]
        if base not in charge.bases:
            raise _refuse(
                "session_base_not_in_profile",
                "The session charge is a share of the table maximum or of the stack.",
            )
    return share, base


def build_table_rules(
    profile: TableProfile, variant: Variant | str, overrides: dict[str, Any]
) -> TableRules:
    """The table's rules, or a ``RuleViolation`` naming the refused choice."""
    unknown = sorted(set(overrides) - TABLE_OVERRIDES)
    if unknown:
        raise _refuse(
            "table_override_not_allowed",
            f"A table may not change {', '.join(unknown)}; it may change "
            f"{', '.join(sorted(TABLE_OVERRIDES))}.",
            fields=unknown,
        )
    try:
        game = Variant(variant)
    except ValueError:
        raise _refuse("unknown_variant", f"Unknown variant {variant!r}.") from None
    seat_range = profile.seats.range_for(game)
    if seat_range is None:
        raise _refuse(
            "variant_not_in_profile",
            f"{profile.code} does not authorise {game}.",
            variant=str(game),
        )
    seats = _check_seats(profile, game, overrides.get("seats", seat_range.max_seats))

    limit = overrides.get("betting_limit")
    if limit is not None:
        if VARIANTS[game].banked:
            raise _refuse(
                "betting_limit_not_for_banked",
                "Banked games have bands, not betting limits [GA art. 6.3, 14.2].",
            )
        try:
            limit = BettingLimit(limit)
        except ValueError:
            raise _refuse(
                "bad_override_value", "Unknown betting limit.", field="betting_limit"
            ) from None

    hand_keys = {"rake_percent", "rake_cap_cents", "rake_step_cents"}
    session_keys = {"session_percent", "session_base"}
    if VARIANTS[game].banked:
        # The house benefit of circle poker [GA art. 18.3; PT 7] does not apply
        # to banked games: the bank plays against the boxes instead.
        given = sorted(({"rake_model"} | hand_keys | session_keys) & set(overrides))
        if given:
            raise _refuse(
                "rake_not_for_banked",
                "Banked games have no rake: the bank plays against the boxes.",
                fields=given,
            )
        model = None
    else:
        model = overrides.get("rake_model", PER_HAND if profile.rake.per_hand else None)
        if model not in (PER_HAND, PER_SESSION):
            raise _refuse("bad_override_value", "rake_model is per_hand or per_session.")
    wrong = (session_keys if model == PER_HAND else hand_keys) & set(overrides)
    if wrong:
        raise _refuse(
            "override_not_for_rake_model",
            f"{', '.join(sorted(wrong))} does not apply to the {model} model.",
            fields=sorted(wrong),
        )
    share = cap = step = session_share = base = None
    if model == PER_HAND:
        share, cap, step = _check_per_hand(profile, overrides)
    elif model == PER_SESSION:
        session_share, base = _check_per_session(profile, overrides)

    clock = overrides.get("action_clock", profile.action_clock.enforced)
    if not isinstance(clock, bool):
        raise _refuse("bad_override_value", "action_clock is on or off.", field="action_clock")
    if clock and not profile.action_clock.enforced:
        raise _refuse(
            "action_clock_not_in_profile",
            f"{profile.code} has no action clock: a slow player is warned [GA art. 24.3a; PT 71a].",
        )

    return TableRules(
        profile=profile,
        variant=game,
        seats=seats,
        betting_limit=limit,
        rake_model=model,
        rake_share=share,
        rake_cap_cents=cap,
        rake_step_cents=step,
        session_share=session_share,
        session_base=base,
        action_clock_on=clock,
    )
