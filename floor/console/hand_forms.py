"""How the dealer's hand forms become the API's bodies, and their answers said.

The consoles' end-hand and banked-hand forms ask what a dealer sees (how each
seat ended and the places at the showdown; each box's bets and cards); the
API's end_hand and settle_banked_hand take what the service settles from.
These functions translate one into the other and say the settlement in words
(issue 22); the console's table of commands (floor.console.actions) names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from floor.amounts import format_euros
from floor.selectors import console as console_reads


def banked_form(data: dict) -> dict:
    """The console's banked-hand form (``ante_eur.3``, ``play.3``, ``cards.3``
    ...) as the API's body: a box for each seat with an ante or a bet."""
    seats = sorted({*data.get("ante", {}), *data.get("bet", {})}, key=lambda k: (len(k), k))
    boxes = {}
    for seat in seats:
        box: dict[str, Any] = {}
        if seat in data.get("ante", {}):
            box["ante_cents"] = data["ante"][seat]
            box["call"] = data.get("play", {}).get(seat, "fold") == "call"
        if seat in data.get("bet", {}):
            box["bet_cents"] = data["bet"][seat]
        for name, key in (("insurance", "insurance_cents"), ("jackpot", "jackpot_cents")):
            if data.get(name, {}).get(seat):
                box[key] = data[name][seat]
        for name in ("cards", "high", "low", "first_five"):
            if data.get(name, {}).get(seat):
                box[name] = data[name][seat]
        if "first_five" in box:
            box["extra_card"] = True
        took = data.get("took_back", {}).get(seat, "none")
        if took != "none":
            box["took_back"] = [int(n) for n in took.split(",")]
        boxes[seat] = box
    bank = {
        name: data.pop(f"bank_{name}")
        for name in ("cards", "common", "high", "low")
        if data.get(f"bank_{name}")
    }
    prepared = {"table_id": data["table_id"], "boxes": boxes, "bank": bank}
    if data.get("jackpot_id"):
        prepared["jackpot_id"] = str(data["jackpot_id"])
    return prepared


# The API's own result, typed: the form passes it on as the API takes it.
_TYPED_RESULT = ("winnings", "pot_winners", "shown")


def dealer_pots(put_in: Mapping[int, int], live: set[int]) -> list[list[int]]:
    """The seats that may win each pot, main pot first, from what each live
    seat put in: each all-in level below the top closes a pot [PT 38, 49-50;
    CM "restados"; GA art. 23.2]. A last pot only one seat reached is its
    uncalled chips, handed back (or a pot nobody else may win): left out, the
    service gives it to that seat."""
    levels = sorted({put_in.get(s, 0) for s in live} - {0})
    pots = [sorted(s for s in live if put_in.get(s, 0) >= level) for level in levels]
    while pots and len(pots[-1]) <= 1:
        pots.pop()
    return pots


def winners_by_place(pots: list[list[int]], place: Mapping[int, int]) -> list[list[int]]:
    """Each pot's winners: of the seats that may win it, those with the best
    hand (place 1 is the best; equal places split the pot [PT 66-67; GA art.
    23.3]). A pot with no placed seat stays unnamed: the service asks for it."""
    winners = []
    for eligible in pots:
        best = min((place[s] for s in eligible if s in place), default=None)
        winners.append([s for s in eligible if place.get(s) == best] if best else [])
    return winners


def hand_end_form(data: dict) -> dict:
    """The console's end-hand form (``ended.3``, ``called_eur``, ``place.3``,
    ``rake_eur`` ...) as the API's hand result (issue 22): the service works
    out what each seat put in from what the hand recorded, where the dealer
    typed nothing for it (``contributions_eur.3``): a fold, the blind it
    posted; all in, its stack as the hand began; to the end, the bet called
    (the big blind when none is typed), or its stack if that is less. A
    missed blind a returning player posted dead [PT 90] is on top of what it
    put in (typed or worked out), as the hand recorded it when dealt: the
    dealer never types it again, and an all in holds it already. A seat
    given a place at the showdown played to the end. The pots' winners come
    from the places; the rake, when typed, is checked by the service against
    the most allowed [GA art. 18.3a; PT 7a; CM "Beneficio"]."""
    ended = {int(k): v for k, v in data.pop("ended", {}).items()}
    place = {int(k): v for k, v in data.pop("place", {}).items()}
    called = data.pop("called_cents", None)
    if any(data.get(name) is not None for name in _TYPED_RESULT):
        data.setdefault("contributions", {})
        return data
    typed = {int(k): v for k, v in data.pop("contributions", {}).items()}
    hand = console_reads.hand_to_end(data["table_id"])
    dealt = hand["dealt_in"] if hand else sorted(typed)
    blinds = hand["blinds"] if hand else {}
    dead = hand.get("dead_blinds", {}) if hand else {}
    stacks = hand["stacks"] if hand else {}
    if called is None:
        called = max(blinds.values(), default=0)
    put_in: dict[str, int] = {}
    folded = set(data.pop("folded", []))
    for seat in dealt:
        how = ended.get(seat, "folded")
        if how == "folded" and seat in place:
            how = "called"  # a hand placed at the showdown was not folded
        stack = stacks.get(seat, 0)
        owed = dead.get(seat, 0)
        if seat in typed:
            amount = typed[seat] + owed
        elif how == "all_in":
            amount = stack
        elif how == "called":
            amount = min(max(called, blinds.get(seat, 0)) + owed, stack)
        else:
            amount = blinds.get(seat, 0) + owed
        if how == "folded":
            folded.add(seat)
        if amount:
            put_in[str(seat)] = amount
    live = {s for s in dealt if s not in folded}
    # The pots are built on the bets: a dead blind is no bet, it is dead money
    # in the main pot, which every live seat may win [PT 90].
    bets = {int(s): a - dead.get(int(s), 0) for s, a in put_in.items()}
    pots = dealer_pots(bets, live)
    if not pots and len(live) > 1 and any(dead.get(s) for s in dealt):
        pots = [sorted(live)]
    prepared = {**data, "contributions": put_in, "folded": sorted(folded)}
    if place or not pots:
        # No pot contested (everyone else folded): its seat takes it, named or not.
        prepared["pot_winners"] = winners_by_place(pots, place)
    return prepared


def hand_end_said(result: dict) -> str:
    """A hand's end in words: each pot, its winners and rake; what each seat
    takes back."""
    parts = []
    for number, pot in enumerate(result.get("pots", []), start=1):
        text = _("Pot %(number)s: %(amount)s") % {
            "number": number,
            "amount": format_euros(pot["amount_cents"]),
        }
        if pot.get("winners"):
            text += ", " + _("won by %(seats)s") % {"seats": ", ".join(map(str, pot["winners"]))}
        parts.append(text)
    parts.append(_("rake %(amount)s") % {"amount": format_euros(result.get("rake_cents") or 0)})
    paid = ", ".join(
        _("seat %(seat)s %(amount)s") % {"seat": seat, "amount": format_euros(cents)}
        for seat, cents in result.get("winnings", {}).items()
        if cents
    )
    if paid:
        parts.append(_("paid: %(payments)s") % {"payments": paid})
    return "; ".join(parts) + "."


def _signed(cents: int) -> str:
    return ("+" if cents > 0 else "") + format_euros(cents)


def banked_summary(result: dict) -> str:
    """A banked hand's settlement in words: each box, the bank, the house's
    commission and the jackpot [GA art. 6-16; PT-SD; PG]."""
    parts = [
        _("Box %(seat)s: %(amount)s") % {"seat": seat, "amount": _signed(box["net_cents"])}
        for seat, box in sorted(result["boxes"].items(), key=lambda kv: int(kv[0]))
    ]
    bank = result.get("bank", {})
    if bank.get("qualifies") is False:
        parts.append(_("the bank does not play (below ace-king)"))
    parts.append(_("bank %(amount)s") % {"amount": _signed(result["bank_cents"])})
    if result.get("commission_cents"):
        parts.append(
            _("commission %(amount)s") % {"amount": format_euros(result["commission_cents"])}
        )
    jackpot = result.get("jackpot") or {}
    if jackpot.get("won_cents"):
        parts.append(
            _("jackpot prizes %(amount)s") % {"amount": format_euros(jackpot["won_cents"])}
        )
    return "; ".join(parts) + "."
