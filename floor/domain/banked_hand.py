"""A banked hand as the dealer reports it, settled by the games engine.

At a banked table the players play against the house's bank, box by box
[GA art. 2-16; PT-SD; PG]. The dealer reports each box (a seat) with its bets
and its cards and the bank's hand; the service reads the cards
(``games.evaluate``), settles with ``games.banked`` under the profile's rules
(``RuleProfile.banked``) and the table's limits, and returns what the Table's
``BankedHandSettled`` event records: each box's bets, hand and result, the
stacks after it, the bank's result, the house commission and the jackpot.

What each box reports, by variant (unknown fields are refused):

- ``sen_descarte`` [GA art. 6-8; PT-SD 6-18]: ``ante_cents``; ``call`` (true:
  the box went on with twice its ante; false: it passed and loses the ante);
  ``cards``, its five cards (a box that passed shows none, GA art. 7);
  optional side bets ``insurance_cents`` [GA art. 8a], ``jackpot_cents``
  [GA art. 8b; PT-SD 8], ``extra_card`` [GA art. 8c] with ``first_five``, the
  five cards before the card was bought (the progressive pays on those).
  The bank: ``{"cards": five cards}``.
- ``trijoker`` [GA art. 9-16]: ``bet_cents`` (each of the three equal bets),
  ``took_back`` (the bets taken back, 1 and/or 2), ``cards`` (three). The
  bank: ``{"common": the two common cards}``.
- ``pai_gow`` [PG]: ``bet_cents``, ``high`` (five cards) and ``low`` (two).
  The bank: ``{"high": five, "low": two}``.

Cards are text ("As Kd Th 9c 2s", the joker "Jk") or lists of such; every card
of the hand is dealt once from one deck.

The file stays whole, over 400 lines: the three variants share one reading of
the dealer's report (its fields, the one deck, the stacks that must cover what
a box risks), and each variant's settlement is a single function beside it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from floor.domain.seat_keys import by_seat
from floor.kernel.errors import DomainError, ErrorKind, conflict, invalid
from games.banked import (
    Outcome,
    PaiGowBox,
    SinDescarteBox,
    SinDescarteTable,
    TrijokerBox,
    bank_qualifies,
    settle_pai_gow,
    settle_sin_descarte,
    settle_trijoker,
)
from games.banked.common import BoxResult
from games.banked.jackpot import JackpotTable
from games.cards import Card, cards
from games.errors import RuleViolation
from games.evaluate import evaluate
from games.hands import Category, HandValue
from games.profiles import RuleProfile

SEN_DESCARTE, TRIJOKER, PAI_GOW = "sen_descarte", "trijoker", "pai_gow"

# What a box may report, by variant (see the module docstring).
BOX_FIELDS = {
    SEN_DESCARTE: {
        "ante_cents",
        "call",
        "cards",
        "insurance_cents",
        "jackpot_cents",
        "extra_card",
        "first_five",
    },
    TRIJOKER: {"bet_cents", "took_back", "cards"},
    PAI_GOW: {"bet_cents", "high", "low"},
}
BANK_FIELDS = {SEN_DESCARTE: {"cards"}, TRIJOKER: {"common"}, PAI_GOW: {"high", "low"}}


@dataclass(frozen=True)
class JackpotInPlay:
    """The progressive a table feeds [GA art. 8b; PT-SD 8-12]: its rules and
    its fund as the hand began (shared by every table it links)."""

    jackpot_id: str
    rules: JackpotTable
    fund_cents: int


def _refusal(broken: RuleViolation, **where: object) -> DomainError:
    """A games refusal (a bet, a card) as the floor's 400, with the same code."""
    return DomainError(broken.code, kind=ErrorKind.INVALID, **{**broken.params, **where})


def _cents(box: Mapping, name: str, seat: int, *, required: bool = True) -> int:
    value = box.get(name, None if required else 0)
    if value is None:
        raise invalid("box_field_required", seat=seat, field=name)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise invalid("amount_invalid", seat=seat)
    return value


def _flag(box: Mapping, name: str, seat: int, *, required: bool = False) -> bool:
    value = box.get(name)
    if value is None and not required:
        return False
    if not isinstance(value, bool):
        raise invalid("box_field_required", seat=seat, field=name)
    return value


def _cards(given: object, count: int, seat: int | None, name: str) -> tuple[Card, ...]:
    where = {"seat": seat} if seat is not None else {"field": f"bank.{name}"}
    if given is None:
        raise invalid("cards_required", count=count, **where)
    try:
        dealt = cards(given if isinstance(given, str) else list(given))  # type: ignore[arg-type]
    except RuleViolation as broken:
        raise _refusal(broken, **where) from None
    except TypeError:
        raise invalid("bad_card", **where) from None
    if len(dealt) != count:
        raise invalid("wrong_card_count", count=count, **where)
    return dealt


def _value(variant: str, hole: tuple[Card, ...], board: tuple[Card, ...] = ()) -> HandValue:
    try:
        return evaluate(variant, hole, board)
    except RuleViolation as broken:
        raise _refusal(broken) from None


def _outcome(player: HandValue, bank: HandValue) -> Outcome:
    if player > bank:
        return Outcome.PLAYER
    return Outcome.BANK if player < bank else Outcome.TIE


def _shown(hand: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in hand)


class _Deck:
    """Every card of a hand is dealt once: the same card twice is a misreport."""

    def __init__(self) -> None:
        self.seen: set[Card] = set()

    def deal(self, hand: tuple[Card, ...], **where: object) -> tuple[Card, ...]:
        for one in hand:
            if one in self.seen:
                raise invalid("duplicate_card", card=str(one), **where)
            self.seen.add(one)
        return hand


def _boxes(table: Any, boxes: object) -> dict[int, dict]:
    """The reported boxes by seat: occupied seats of players who play."""
    if not isinstance(boxes, Mapping) or not boxes:
        raise invalid("boxes_required")
    found: dict[int, dict] = {}
    for seat, box in by_seat(boxes, "boxes"):
        seat = table.check_seat_number(seat)
        state = table.seat_at(seat)
        if state is None:
            raise conflict("seat_empty", seat=seat)
        if state.away or state.resting:
            raise conflict("seat_not_playing", seat=seat)
        if not isinstance(box, Mapping):
            raise invalid("box_invalid", seat=seat)
        unknown = sorted(set(box) - BOX_FIELDS[table.variant])
        if unknown:
            raise invalid("box_field_unknown", seat=seat, field=str(unknown[0])[:40])
        found[seat] = dict(box)
    return found


def _bank(variant: str, bank: object) -> dict:
    if not isinstance(bank, Mapping):
        raise invalid("bank_required")
    unknown = sorted(set(bank) - BANK_FIELDS[variant])
    if unknown:
        raise invalid("box_field_unknown", field=f"bank.{str(unknown[0])[:40]}")
    return dict(bank)


def _check_covered(table: Any, seat: int, at_risk: int) -> None:
    """A box bets only the chips in front of it [GA art. 21; PT 14]."""
    stack = table.seat_at(seat).stack
    if at_risk > stack:
        raise conflict("stake_over_stack", seat=seat, stack_cents=stack, stake_cents=at_risk)


# --- sen descarte [GA art. 6-8; PT-SD] --------------------------------------------------


def _sen_descarte(
    table: Any,
    profile: RuleProfile,
    boxes: dict[int, dict],
    bank: dict,
    jackpot: JackpotInPlay | None,
) -> tuple[tuple[BoxResult, ...], dict, dict[int, dict], dict | None]:
    deck = _Deck()
    bank_hand = deck.deal(_cards(bank.get("cards"), 5, None, "cards"), field="bank.cards")
    bank_value = _value(SEN_DESCARTE, bank_hand)
    plays = bank_qualifies(bank_value.category, bank_hand)
    reports: dict[int, dict] = {}
    entries = []
    for seat, box in sorted(boxes.items()):
        ante = _cents(box, "ante_cents", seat)
        called = _flag(box, "call", seat, required=True)
        insurance = _cents(box, "insurance_cents", seat, required=False)
        stake = _cents(box, "jackpot_cents", seat, required=False)
        extra = _flag(box, "extra_card", seat)
        report: dict[str, Any] = {"ante_cents": ante, "call": called}
        category, outcome, first_five = Category.HIGH_CARD, Outcome.BANK, None
        hand: tuple[Card, ...] = ()
        if called or box.get("cards") is not None:
            hand = deck.deal(_cards(box.get("cards"), 5, seat, "cards"), seat=seat)
            value = _value(SEN_DESCARTE, hand)
            category, outcome = value.category, _outcome(value, bank_value)
            report.update(cards=_shown(hand), category=str(category), outcome=str(outcome))
        if extra:
            earlier = _cards(box.get("first_five"), 5, seat, "first_five")
            # The box saw six cards: its first five and the one it bought; the
            # hand it plays is five of those six [GA art. 8c]. The first five's
            # cards not in that hand are dealt like any other card.
            unplayed = tuple(c for c in earlier if c not in hand)
            if hand and len(unplayed) > 1:
                raise invalid("first_five_not_these_cards", seat=seat)
            deck.deal(unplayed, seat=seat, field="first_five")
            first_five = _value(SEN_DESCARTE, earlier).category
            report.update(extra_card=True, first_five=_shown(earlier))
        elif box.get("first_five") is not None:
            raise invalid("first_five_without_extra_card", seat=seat)
        if insurance:
            report["insurance_cents"] = insurance
        if stake:
            if jackpot is None:
                raise conflict("jackpot_required", seat=seat)
            report["jackpot_cents"] = stake
        if extra and not profile.banked.extra_card:
            raise invalid("extra_card_not_offered", seat=seat)
        if insurance and profile.banked.insurance_table is None:
            raise invalid("insurance_not_offered", seat=seat)
        extra_cents = ante if extra else 0
        _check_covered(
            table, seat, ante + (2 * ante if called else 0) + insurance + stake + extra_cents
        )
        entries.append(
            SinDescarteBox(
                box=seat,
                ante_cents=ante,
                call_cents=2 * ante if called else 0,
                category=category,
                outcome=outcome,
                insurance_cents=insurance,
                extra_card_cents=extra_cents,
                jackpot_stake_cents=stake,
                first_five_category=first_five,
            )
        )
        reports[seat] = report
    rules = SinDescarteTable(
        paytable=profile.banked.paytable,
        minimum_cents=table.minimum_cents,
        maximum_cents=table.maximum_cents,
        insurance=profile.banked.insurance_table,
        extra_card=profile.banked.extra_card,
        jackpot=jackpot.rules if jackpot else None,
        source=profile.banked.source,
    )
    try:
        settled = settle_sin_descarte(
            rules,
            entries,
            bank_plays=plays,
            jackpot_fund_cents=jackpot.fund_cents if jackpot else 0,
        )
    except RuleViolation as broken:
        raise _refusal(broken) from None
    shown_bank = {
        "cards": _shown(bank_hand),
        "category": str(bank_value.category),
        "qualifies": plays,
    }
    played = None
    if jackpot is not None and settled.jackpot is not None:
        stakes = sum(b.jackpot_stake_cents for b in settled.boxes)
        won = settled.jackpot.paid_cents
        played = {
            "jackpot_id": jackpot.jackpot_id,
            "fund_before_cents": jackpot.fund_cents,
            "stakes_cents": stakes,
            "won_cents": won,
            "fund_after_cents": jackpot.fund_cents + stakes - won,
        }
    return settled.boxes, shown_bank, reports, played


# --- Trijoker [GA art. 9-16] -------------------------------------------------------------


def _pair_rank(value: HandValue) -> int | None:
    if value.category is not Category.PAIR:
        return None
    counts = Counter(c.rank for c in value.cards)
    return next(rank for rank, n in counts.items() if n == 2)


def _trijoker(
    table: Any, boxes: dict[int, dict], bank: dict
) -> tuple[tuple[BoxResult, ...], dict, dict[int, dict], None]:
    deck = _Deck()
    common = deck.deal(_cards(bank.get("common"), 2, None, "common"), field="bank.common")
    reports: dict[int, dict] = {}
    entries = []
    for seat, box in sorted(boxes.items()):
        bet = _cents(box, "bet_cents", seat)
        took_back = box.get("took_back") or []
        if (
            not isinstance(took_back, list)
            or not set(took_back) <= {1, 2}
            or any(isinstance(n, bool) for n in took_back)
        ):
            raise invalid("took_back_invalid", seat=seat)
        hand = deck.deal(_cards(box.get("cards"), 3, seat, "cards"), seat=seat)
        value = _value(TRIJOKER, hand, common)
        in_play = 3 - len(set(took_back))
        _check_covered(table, seat, 3 * bet)
        entries.append(
            TrijokerBox(
                box=seat,
                bets_cents=(bet, bet, bet),
                withdrew_1=1 in took_back,
                withdrew_2=2 in took_back,
                category=value.category,
                pair_rank=_pair_rank(value),
            )
        )
        reports[seat] = {
            "bet_cents": bet,
            "took_back": sorted(set(took_back)),
            "bets_in_play": in_play,
            "cards": _shown(hand),
            "category": str(value.category),
        }
    try:
        results = settle_trijoker(
            entries, minimum_cents=table.minimum_cents, maximum_cents=table.maximum_cents
        )
    except RuleViolation as broken:
        raise _refusal(broken) from None
    return results, {"common": _shown(common)}, reports, None


# --- Pai Gow [PG] -------------------------------------------------------------------------


def _pai_gow(
    table: Any, profile: RuleProfile, boxes: dict[int, dict], bank: dict
) -> tuple[tuple[BoxResult, ...], dict, dict[int, dict], None]:
    deck = _Deck()
    bank_high = deck.deal(_cards(bank.get("high"), 5, None, "high"), field="bank.high")
    bank_low = deck.deal(_cards(bank.get("low"), 2, None, "low"), field="bank.low")
    bank_values = (_value(PAI_GOW, bank_high), _value(PAI_GOW, bank_low))
    reports: dict[int, dict] = {}
    entries = []
    for seat, box in sorted(boxes.items()):
        bet = _cents(box, "bet_cents", seat)
        high = deck.deal(_cards(box.get("high"), 5, seat, "high"), seat=seat)
        low = deck.deal(_cards(box.get("low"), 2, seat, "low"), seat=seat)
        high_out = _outcome(_value(PAI_GOW, high), bank_values[0])
        low_out = _outcome(_value(PAI_GOW, low), bank_values[1])
        _check_covered(table, seat, bet)
        entries.append(PaiGowBox(box=seat, bet_cents=bet, high=high_out, low=low_out))
        reports[seat] = {
            "bet_cents": bet,
            "high": _shown(high),
            "low": _shown(low),
            "high_outcome": str(high_out),
            "low_outcome": str(low_out),
        }
    try:
        results = settle_pai_gow(
            entries,
            commission=profile.banked.pai_gow_commission,
            minimum_cents=table.minimum_cents,
            maximum_cents=table.maximum_cents,
        )
    except RuleViolation as broken:
        raise _refusal(broken) from None
    shown_bank = {
        "high": _shown(bank_high),
        "low": _shown(bank_low),
        "high_category": str(bank_values[0].category),
        "low_category": str(bank_values[1].category),
    }
    return results, shown_bank, reports, None


# --- the decision ------------------------------------------------------------------------


def decide(
    table: Any,
    profile: RuleProfile,
    *,
    boxes: object,
    bank: object,
    jackpot: JackpotInPlay | None = None,
) -> dict:
    """What a banked hand's event records (see the module docstring), or the
    first rule the report breaks. The table must be a banked one, running,
    with no circle hand open."""
    if not table.banked:
        raise conflict("table_not_banked", table=table.number)
    table.check_started()
    table.check_no_hand()
    found = _boxes(table, boxes)
    shown_bank_report = _bank(table.variant, bank)
    if table.variant == SEN_DESCARTE:
        results, shown_bank, reports, played = _sen_descarte(
            table, profile, found, shown_bank_report, jackpot
        )
    elif table.variant == TRIJOKER:
        results, shown_bank, reports, played = _trijoker(table, found, shown_bank_report)
    else:
        results, shown_bank, reports, played = _pai_gow(table, profile, found, shown_bank_report)
    settled: dict[str, dict] = {}
    stacks: dict[str, int] = {}
    for result in results:
        seat = str(result.box)
        state = table.seat_at(result.box)
        stack = state.stack + result.net_cents
        stacks[seat] = stack
        settled[seat] = {
            **reports[result.box],
            "player_id": state.player_id,
            "main_cents": result.main_cents,
            "side_cents": result.side_cents,
            "commission_cents": result.commission_cents,
            "jackpot_stake_cents": result.jackpot_stake_cents,
            "jackpot_won_cents": result.jackpot_won_cents,
            "net_cents": result.net_cents,
        }
    return {
        "number": table.hands_played + 1,
        "variant": table.variant,
        "boxes": settled,
        "bank": shown_bank,
        # What the bank won (negative: paid) against the boxes, before the
        # house takes its commission out of the winners' pay (PG I).
        "bank_cents": -sum(r.against_bank_cents + r.commission_cents for r in results),
        "commission_cents": sum(r.commission_cents for r in results),
        "jackpot": played,
        "stacks": stacks,
    }
