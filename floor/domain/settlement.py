"""A hand's pots and who may take what from them (RULES.md section 9).

At a hand's end the service builds the pots from what each seat put in, with
the games engine (``games.pots``): each live all-in level closes a pot that
only the seats that reached it may win, and the top of a bet nobody called
goes back to its owner [PT 38, 49-50; CM "restados"; GA art. 23.2]. Then it
either checks the dealer's typed winnings against those pots, or computes the
payments itself from who won each pot (or from the hands shown, which
``games.evaluate`` ranks): ties split by the profile's rule [PT 66-67; GA art.
23.3; CM "split pot"], the rake per pot on called chips only [PT 65; GA art.
18.3a; PT 7a; CM "Beneficio"].

Readings, where the texts leave a choice:

- **Winnings include the returned chips.** A seat's ``winnings`` are
  everything it takes back from the table at the hand's end: what it won from
  the pots plus its own uncalled chips. So winnings plus rake always equal
  everything put in, and the books move each stack by winnings less
  contributions. The returned part is recorded apart (``returned``) and is
  never raked.
- **Who folded.** A dealt-in seat that put in less than the top bet while it
  still had chips behind did not call it: it folded (a live player either
  matched the top bet or went all in). The dealer may name other folds
  (``folded``: a hand mucked at showdown). A hand declared dead [CM-22] folded.
- **Dead blinds are dead money** [PT 90: "Esse valor não é contado para as
  apostas que o jogador fizer nessa mão"]. The seat's contribution includes
  them, but its bet is the contribution less the dead blind; the dead money
  (with the blinds posted for players away, CM-18) goes into the main pot.
- **The hand** in PT 67 is the player in front of whom the dealer puts the
  marker [PT 29-30]: the button's seat. Odd chips go from it onwards, in the
  direction of play.
- **GA's "restos"** [GA art. 23.3]: tied winners share in proportion to the
  stacks they sat down to the hand with.
- **Typed winnings and the rake.** A typed report says only the rake's total,
  not which pot paid it, so a seat's winnings are checked against the pots'
  full amounts; the rake itself is checked against the limit on the called
  pots.

Everything here is pure: no events, no Django; the table's hand rules
(``floor.domain.hand_rules``) gather the facts and record the outcome.

The file stays whole, just over 400 lines (the readings above take a sixth of
it): building the pots, checking typed winnings and settling from the winners
are one pipeline over the same ``PotBuild``, and read best together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from floor.domain.seat_keys import by_seat
from floor.kernel.errors import conflict, invalid
from games.cards import cards as parse_cards
from games.errors import RuleViolation
from games.evaluate import evaluate
from games.pots import (
    Pot,
    PotSplitRule,
    SplitBasis,
    build_pots,
    pot_winners,
    seats_from,
    split_amount,
)
from games.rake import HandRake, HandRakeRule, rake_pots


@dataclass(frozen=True)
class RakeSetting:
    """The table's per-hand rake: the source's rule and the announced setting."""

    rule: HandRakeRule
    setting: HandRake


@dataclass(frozen=True)
class HandFacts:
    """What the table knows of the hand in play, seat numbers as ints."""

    stacks: Mapping[int, int]  # each dealt-in seat's stack as the hand began
    blinds: Mapping[int, int]  # live blinds posted at the start
    dead_blinds: Mapping[int, int]  # missed blinds owed, posted dead [PT 90]
    away_blinds: Mapping[int, int]  # blinds posted for players away [CM-18]
    dead_hands: frozenset[int]  # hands declared dead [CM-22]
    variant: str
    button: int
    ascending: bool  # play turns toward higher seat numbers
    table_minimum: int
    split: PotSplitRule
    rake: RakeSetting | None  # None: no rake per hand at this table


@dataclass(frozen=True)
class PotBuild:
    """The pots of a hand (main first), the uncalled chips handed back, the
    folded seats and how far each live seat reaches (pots 1..reach)."""

    pots: tuple[Pot, ...]
    returned: Mapping[int, int]
    folded: frozenset[int]
    put_in: Mapping[int, int]

    @property
    def called(self) -> int:
        return sum(p.amount for p in self.pots)

    def reach(self, seat: int) -> int:
        """How many pots, from the main one, ``seat`` may win."""
        return sum(1 for p in self.pots if seat in p.eligible)

    def most(self, seat: int) -> int:
        return sum(p.amount for p in self.pots if seat in p.eligible)


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in sorted(seats))


def pot_params(build: PotBuild, index: int) -> dict:
    """The params naming pot ``index`` (0-based) in a refusal: its number (1
    the main pot), its amount and the seats that may win it."""
    pot = build.pots[index]
    return {"pot": index + 1, "pot_cents": pot.amount, "eligible": _seats(pot.eligible)}


# The params of a refusal naming no pot: the hand has none (nothing was bet).
_NO_POT = {"pot": 1, "pot_cents": 0, "eligible": ""}


def check_blinds(facts: HandFacts, put_in: Mapping[int, int]) -> None:
    """The blinds posted at the start are in the contributions [PT 89, 90;
    CM-17]: a seat's contribution holds its dead blind and its live blind."""
    for seat, dead in sorted(facts.dead_blinds.items()):
        if put_in.get(seat, 0) < dead:
            raise invalid(
                "dead_blind_not_in_contributions",
                seat=seat,
                blind_cents=dead,
                put_in_cents=put_in.get(seat, 0),
            )
    for seat, blind in sorted(facts.blinds.items()):
        owed = blind + facts.dead_blinds.get(seat, 0)
        if put_in.get(seat, 0) < owed:
            raise invalid(
                "blind_not_in_contributions",
                seat=seat,
                blind_cents=blind,
                put_in_cents=put_in.get(seat, 0),
            )


def build(facts: HandFacts, put_in: Mapping[int, int], said_folded: Sequence[int]) -> PotBuild:
    """The pots from the contributions (see the module's readings)."""
    dealt = sorted(facts.stacks)
    bets = {s: put_in.get(s, 0) - facts.dead_blinds.get(s, 0) for s in dealt}
    top = max(bets.values(), default=0)
    folded = set(said_folded) | (set(facts.dead_hands) & set(dealt))
    for seat in dealt:
        if bets[seat] < top and put_in.get(seat, 0) < facts.stacks[seat]:
            folded.add(seat)  # did not match the bet with chips behind
    try:
        built = build_pots(bets, folded)
    except RuleViolation as broken:
        raise invalid("no_live_player", reason=broken.code) from None
    pots = list(built.pots)
    dead_money = sum(facts.dead_blinds.get(s, 0) for s in dealt) + sum(facts.away_blinds.values())
    if dead_money:
        live = frozenset(s for s in dealt if s not in folded)
        if pots:
            pots[0] = Pot(pots[0].amount + dead_money, pots[0].eligible)
        else:
            pots.append(Pot(dead_money, live))
    return PotBuild(tuple(pots), dict(built.returned), frozenset(folded), dict(put_in))


def rake_limit(facts: HandFacts, build: PotBuild) -> tuple[tuple[Pot, ...], list[int]]:
    """The pots left once raked and the rake of each, on the called pots only:
    per pot where the source takes it from each payment [PT 65], per hand and
    shared over the pots otherwise [GA art. 18.3a; CM "Beneficio"]."""
    if facts.rake is None or not build.pots:
        return build.pots, [0] * len(build.pots)
    left, _total = rake_pots(facts.rake.rule, facts.rake.setting, build.pots)
    takes = [p.amount - q.amount for p, q in zip(build.pots, left, strict=True)]
    return left, takes


def check_typed(facts: HandFacts, build: PotBuild, won: Mapping[int, int], rake: int) -> list[int]:
    """Refuses typed winnings the pots forbid; returns each pot's rake limit.

    The balance (winnings plus rake equal everything put in) is checked before.
    """
    for seat in sorted(build.folded):
        # A folded seat takes back only what nobody called [PT 38].
        if won.get(seat, 0) > build.returned.get(seat, 0):
            main = build.pots[0] if build.pots else None
            raise conflict(
                "folded_seat_wins",
                seat=seat,
                won_cents=won.get(seat, 0),
                **(pot_params(build, 0) if main else _NO_POT),
            )
    from_pots = {s: max(w - build.returned.get(s, 0), 0) for s, w in won.items()}
    for seat in sorted(from_pots):
        reach = build.reach(seat)
        if from_pots[seat] > build.most(seat):
            # A seat in no pot (all in for a dead blind only) is named by the main pot.
            raise conflict(
                "winnings_outside_pot",
                seat=seat,
                won_cents=from_pots[seat],
                most_cents=build.most(seat),
                **(pot_params(build, max(reach, 1) - 1) if build.pots else _NO_POT),
            )
    for seat, back in sorted(build.returned.items()):
        if won.get(seat, 0) < back:
            raise conflict(
                "uncalled_not_returned", seat=seat, returned_cents=back, won_cents=won.get(seat, 0)
            )
    # The pots nest (each side pot's seats may win the pots before it), so the
    # winnings fit the pots when every group of seats that stops at pot j wins
    # no more than pots 1..j hold.
    for j in range(1, len(build.pots)):
        stops = [s for s in from_pots if from_pots[s] and build.reach(s) <= j]
        taken = sum(from_pots[s] for s in stops)
        held = sum(p.amount for p in build.pots[:j])
        if taken > held:
            raise conflict(
                "winnings_outside_pot",
                seat=min(stops),
                won_cents=taken,
                most_cents=held,
                **pot_params(build, j - 1),
            )
    _left, takes = rake_limit(facts, build)
    if rake > sum(takes):
        # The figure allowed, with the rake asked and the called pots it is
        # taken from, so the refusal says what to type [GA art. 18.3a; PT 65;
        # CM "Beneficio": 0 below the first step].
        raise invalid(
            "rake_above_maximum",
            maximum_cents=sum(takes),
            rake_cents=rake,
            pot_cents=sum(p.amount for p in build.pots),
        )
    return takes


# --- the service's own settlement ------------------------------------------------------


def winners_from_list(build: PotBuild, said: object) -> list[list[int]]:
    """``pot_winners``: each pot's winners, main pot first. A pot only one seat
    may win goes to it, said or not."""
    if not isinstance(said, Sequence) or isinstance(said, str):
        raise invalid("hand_report_invalid")
    if len(said) > len(build.pots):
        raise invalid("pot_winners_too_many", pots=len(build.pots))
    out = []
    for index, pot in enumerate(build.pots):
        given = said[index] if index < len(said) else []
        if not isinstance(given, Sequence) or isinstance(given, str):
            raise invalid("hand_report_invalid")
        seats = []
        for seat in given:
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise invalid("seat_out_of_range")
            seats.append(seat)
        if len(set(seats)) != len(seats):
            raise invalid("hand_report_invalid")
        if not seats:
            if len(pot.eligible) != 1:
                raise invalid("pot_winners_missing", **pot_params(build, index))
            seats = list(pot.eligible)
        outside = sorted(set(seats) - pot.eligible)
        if outside:
            raise conflict("pot_winner_not_eligible", seat=outside[0], **pot_params(build, index))
        out.append(sorted(seats))
    return out


def winners_from_shown(
    facts: HandFacts, build: PotBuild, shown: object, board: object
) -> list[list[int]]:
    """``shown``: the cards each player showed (and the board), ranked by the
    games engine [GA art. 22.2; PT 17-18; CM]; cards speak [GA art. 23.3; PT
    63-64]. Every seat contesting a pot shows; a hand mucked is a fold."""
    if not isinstance(shown, Mapping):
        raise invalid("hand_report_invalid")
    if board is not None and not isinstance(board, str):
        raise invalid("hand_report_invalid")
    values, seen = {}, {}
    for seat, cards in by_seat(shown, "shown"):
        if seat not in facts.stacks:
            raise invalid("seat_not_in_hand", seat=seat)
        if seat in build.folded:
            raise conflict("folded_seat_shown", seat=seat)
        if not isinstance(cards, str):
            raise invalid("hand_report_invalid")
        try:
            values[seat] = evaluate(facts.variant, cards, board or "")
        except RuleViolation as wrong:
            raise invalid("shown_hand_invalid", seat=seat, reason=wrong.code) from None
        for card in parse_cards(cards):
            if card in seen:
                raise invalid("duplicate_card", card=str(card))
            seen[card] = seat
    out = []
    for index, pot in enumerate(build.pots):
        try:
            out.append(sorted(pot_winners(pot, values)))
        except RuleViolation:
            missing = sorted(pot.eligible - values.keys())
            raise invalid(
                "showdown_hand_missing", seat=missing[0], **pot_params(build, index)
            ) from None
    return out


@dataclass(frozen=True)
class Settlement:
    """The service's settlement: each pot's rake, winners and shares; the
    chips returned; what each seat takes back (pot shares plus returned)."""

    pots: list[dict]
    returned: dict[int, int]
    rake: int
    winnings: dict[int, int]


def settle(
    facts: HandFacts, build: PotBuild, winners: list[list[int]], rake: int | None = None
) -> Settlement:
    """Pays each pot, net of its rake, to its winners: shared by the profile's
    rule, odd chips from the hand's seat onwards [PT 66-67; GA art. 23.3; CM].

    ``rake``: a rake below the most allowed, the dealer's choice (the rake is a
    maximum [GA art. 18.3a; PT 7a; CM "Beneficio"]): it is taken from the main
    pot first, the side pots' rake forgiven first."""
    left, takes = rake_limit(facts, build)
    if rake is not None and rake < sum(takes):
        lowered, still = [], rake
        for take in takes:
            lowered.append(min(take, still))
            still -= lowered[-1]
        left = tuple(
            Pot(q.amount + t - lo, q.eligible)
            for q, t, lo in zip(left, takes, lowered, strict=True)
        )
        takes = lowered
    unit = facts.table_minimum if facts.split.share_in_table_minimums else 1
    weights = dict(facts.stacks) if facts.split.basis is SplitBasis.STACKS else None
    winnings = dict(build.returned)
    pots = []
    for pot, net, take, seats in zip(build.pots, left, takes, winners, strict=True):
        order = seats_from(facts.button, seats, ascending=facts.ascending)
        shares = split_amount(net.amount, order, unit=unit, weights=weights)
        for seat, share in shares.items():
            winnings[seat] = winnings.get(seat, 0) + share
        pots.append(
            {
                "amount_cents": pot.amount,
                "eligible": sorted(pot.eligible),
                "rake_cents": take,
                "winners": sorted(seats),
                "paid": {str(s): c for s, c in sorted(shares.items())},
            }
        )
    return Settlement(pots, dict(build.returned), sum(takes), winnings)


def typed_pots(build: PotBuild) -> list[dict]:
    """The pots as recorded for typed winnings: who won which is not said."""
    return [{"amount_cents": p.amount, "eligible": sorted(p.eligible)} for p in build.pots]


def rake_setting(
    announced: dict | None, rule: HandRakeRule | None, banked: bool
) -> RakeSetting | None:
    """The rake a table takes per hand: the announced one; for a table opened
    before rakes were announced, the source's percentage and cap (counted in
    no steps); none at a banked or per-session table."""
    from fractions import Fraction

    if rule is None or banked:
        return None
    if announced is None:
        return RakeSetting(replace(rule, steps=()), HandRake(rule.max_percent, rule.max_cap))
    if announced.get("model") != "per_hand":
        return None
    setting = HandRake(
        Fraction(announced["share"]), announced.get("cap_cents"), announced.get("step_cents")
    )
    return RakeSetting(rule, setting)
