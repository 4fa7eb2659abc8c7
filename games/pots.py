"""Main and side pots, and how a pot is shared between equal hands.

Players are named by their seat number; every amount is in integer cents. The
functions only divide money: which hand is best is the evaluator's business, and
the caller passes comparable hand values (higher is better).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from games.errors import RuleViolation


@dataclass(frozen=True)
class Pot:
    """One pot: its chips and the seats that may win it."""

    amount: int
    eligible: frozenset[int]


@dataclass(frozen=True)
class PotBuild:
    """The pots of a hand, main pot first, and any uncalled chips handed back."""

    pots: tuple[Pot, ...]
    returned: Mapping[int, int]

    @property
    def total(self) -> int:
        return sum(p.amount for p in self.pots)


def _check_contributions(contributions: Mapping[int, int], folded: Iterable[int]) -> set[int]:
    """Chips in are whole non-negative cents from known seats."""
    for seat, amount in contributions.items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise RuleViolation(
                "contribution_invalid",
                "A contribution must be a non-negative whole number of cents.",
                seat=seat,
            )
    folded_set = set(folded)
    unknown = folded_set - contributions.keys()
    if unknown:
        raise RuleViolation(
            "folded_seat_unknown",
            "A folded seat has no contribution in this hand.",
            seats=sorted(unknown),
        )
    return folded_set


def _uncalled(contributions: Mapping[int, int]) -> dict[int, int]:
    """The part of the top bet nobody matched goes back to its owner.

    A bet nobody called was never at stake [PT 48, 51; CM: the pot counts the bets
    "vistas por otro jugador"]. That holds even when the owner then gives up the
    hand (mucks at the showdown, or the hand is declared dead): nobody folds to
    their own bet, so the top bettor named folded only lost what was called.
    """
    ranked = sorted(contributions.items(), key=lambda item: item[1], reverse=True)
    if not ranked:
        return {}
    top_seat, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    if top > second:
        return {top_seat: top - second}
    return {}


def build_pots(contributions: Mapping[int, int], folded: Iterable[int] = ()) -> PotBuild:
    """Splits a hand's chips into the main pot and the side pots.

    ``contributions`` is every seat's total put in during the hand. Each live
    all-in level closes a pot: every seat pays into it up to that level, and only
    live seats that reached the level may win it, so an all-in player wins from
    each other player only what they matched [PT 38, 49-50; CM "restados"; GA art.
    23.2]. Folded seats' chips stay in the pots, but they win none [PT 39a; GA art.
    23.2a]. Chips of a folded seat above every live level are dead money in the top
    pot. The uncalled top of the top bet is returned to its owner, not a pot.
    """
    folded_set = _check_contributions(contributions, folded)
    live = [s for s in contributions if s not in folded_set]
    if not live:
        raise RuleViolation("pots_no_live_player", "At least one player must still be in the hand.")
    returned = _uncalled(contributions)
    staked = {s: a - returned.get(s, 0) for s, a in contributions.items()}
    levels = sorted({staked[s] for s in live if staked[s] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(a, level) - min(a, previous) for a in staked.values())
        eligible = frozenset(s for s in live if staked[s] >= level)
        pots.append(Pot(amount, eligible))
        previous = level
    dead = sum(max(a - previous, 0) for a in staked.values())
    if dead:
        if pots:
            pots[-1] = Pot(pots[-1].amount + dead, pots[-1].eligible)
        else:
            pots.append(Pot(dead, frozenset(live)))
    return PotBuild(tuple(pots), returned)


# --- Sharing a pot between equal hands ----------------------------------------------


class SplitBasis(StrEnum):
    """What tied winners share a pot in proportion to."""

    # Equal shares [CM: "repartirá el bote entre los ganadores"].
    EQUAL = "equal"
    # In proportion to the winners' bets [PT 66] ...
    BETS = "bets"
    # ... or to their stacks, "en proporción aos seus respectivos restos"
    # [GA art. 23.3]. Either way the caller passes the weights.
    STACKS = "stacks"

    @property
    def proportional(self) -> bool:
        return self is not SplitBasis.EQUAL


@dataclass(frozen=True)
class PotSplitRule:
    """The profile's choice for tied hands and odd chips.

    Odd chips always go one by one from the player with the hand to the
    following players, the largest share to the hand [PT 67]; GA is silent on
    odd chips and the service applies that order there too.
    """

    # Equal or proportional shares [PT 66; GA art. 23.3; CM].
    basis: SplitBasis
    # Shares are whole multiples of the table minimum ("a ficha mais pequena seja
    # igual ao mínimo da aposta") [PT 67]; False: of one cent.
    share_in_table_minimums: bool


# PT 66: in proportion to their bets; within one (side) pot every eligible winner
# has put in the same, so the shares come out equal. PT 67: whole table minimums,
# the odd ones from the player with the hand onwards.
PT_SPLIT = PotSplitRule(basis=SplitBasis.BETS, share_in_table_minimums=True)
# GA art. 23.3: in proportion to their "restos", after the house's deduction.
# Shares in cents: PT 67's table-minimum unit is PT's own, GA names no unit (the
# rule profiles' old split group applied all of PT 67 to GA).
GA_SPLIT = PotSplitRule(basis=SplitBasis.STACKS, share_in_table_minimums=False)
# CM "split pot": the pot is shared between the winners. (The rule profiles used
# to inherit GA's proportional split for CM; the house manual's own words win.)
CM_SPLIT = PotSplitRule(basis=SplitBasis.EQUAL, share_in_table_minimums=False)


def seats_from(hand_seat: int, seats: Iterable[int], *, ascending: bool = True) -> list[int]:
    """The seats in the order chips are handed out: the hand first, then the next.

    PT 67 gives the largest share to the player holding the hand and the rest to
    the following players. Which way "following" runs depends on the seat
    numbering and the direction of play, so the caller says whether the next
    player has the next higher seat number.
    """
    ordered = sorted(set(seats), reverse=not ascending)
    if ascending:
        return [s for s in ordered if s >= hand_seat] + [s for s in ordered if s < hand_seat]
    return [s for s in ordered if s <= hand_seat] + [s for s in ordered if s > hand_seat]


def split_amount(
    amount: int,
    order: Sequence[int],
    *,
    unit: int = 1,
    weights: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """Shares ``amount`` between the seats in ``order`` (the hand first).

    Each share is a whole number of ``unit`` [PT 67]; the units are shared equally
    or in proportion to ``weights`` [PT 66; GA art. 23.3], rounding down, and the
    units left over go one each to the seats in order from the hand, so the
    largest share goes to the hand and the next to the following players [PT 67].
    What does not make a whole unit goes to the hand as well: someone must take it.
    """
    if not order or len(set(order)) != len(order):
        raise RuleViolation("split_winners_invalid", "A split needs distinct winners.")
    if unit <= 0 or amount < 0:
        raise RuleViolation("split_unit_invalid", "The share unit must be positive.")
    weight = {s: 1 for s in order} if weights is None else {s: weights.get(s) for s in order}
    if any(isinstance(w, bool) or not isinstance(w, int) or w <= 0 for w in weight.values()):
        # Every winner weighs something: a missing or zero weight would hand
        # their share to the others [PT 66; GA art. 23.3].
        raise RuleViolation(
            "split_weights_invalid", "Every winner of a split needs a positive whole weight."
        )
    units, loose = divmod(amount, unit)
    total_weight = sum(weight.values())
    shares = {s: units * weight[s] // total_weight for s in order}
    left = units - sum(shares.values())
    for seat in order[:left]:
        shares[seat] += 1
    result = {s: shares[s] * unit for s in order}
    result[order[0]] += loose
    return result


def pot_winners(pot: Pot, hand_values: Mapping[int, object]) -> list[int]:
    """The eligible seats holding the best hand; a lone eligible seat needs no hand."""
    if len(pot.eligible) == 1:
        return list(pot.eligible)
    missing = pot.eligible - hand_values.keys()
    if missing:
        raise RuleViolation(
            "showdown_hand_missing",
            "Every player contesting a pot must show a hand.",
            seats=sorted(missing),
        )
    best = max(hand_values[s] for s in pot.eligible)  # type: ignore[type-var]
    return [s for s in pot.eligible if hand_values[s] == best]


def award_pots(
    pots: Sequence[Pot],
    hand_values: Mapping[int, object],
    *,
    rule: PotSplitRule,
    hand_seat: int,
    ascending: bool = True,
    table_minimum: int = 1,
    weights: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """What each seat wins from the pots (already net of any rake).

    Each pot goes to its best eligible hand; equal hands share it under the
    profile's rule [PT 66-67; GA art. 23.3]. With a proportional rule and no
    ``weights``, every winner of a pot weighs the same, because each put the same
    into that pot (a side pot is exactly the matched layer) [PT 50, 66].
    """
    unit = table_minimum if rule.share_in_table_minimums else 1
    payouts: dict[int, int] = {}
    for pot in pots:
        winners = pot_winners(pot, hand_values)
        order = seats_from(hand_seat, winners, ascending=ascending)
        use_weights = weights if rule.basis.proportional else None
        shares = split_amount(pot.amount, order, unit=unit, weights=use_weights)
        for seat, share in shares.items():
            payouts[seat] = payouts.get(seat, 0) + share
    return payouts
