"""The consoles' commands: for each, its handler (whose declaration names the
command and says who may run it, floor.kernel.registry), the serializer its form
is checked by (the API's), what the person reads when it worked, and how the
form becomes the API's body. The door that runs them is floor.console.commands.

The floor's are listed here; another context adds its own (the cage's money
commands, ledger.console_actions) by declaring a function that makes them with
``ConsoleCommand`` (floor.kernel.composition, ``add_console_actions``), so the
floor imports nothing of it. ``COMMANDS`` has them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.apps import apps
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from floor.amounts import format_euros
from floor.api import serializers as s
from floor.application.catalogue import COMMANDS as REGISTRY
from floor.kernel.composition import ROOM
from floor.kernel.registry import COMMANDS
from floor.kernel.web.serializers import CommandSerializer, PlayerCommandSerializer
from floor.selectors import console as console_reads


@dataclass(frozen=True)
class ConsoleCommand:
    """A floor command as the consoles run it: its handler (whose declaration
    names the command and says who may run it, floor.kernel.registry)
    and the console's own parts, the form and what the person reads."""

    handler: Callable[..., Any]
    body: type[serializers.Serializer]
    done: Any  # what the person reads when it worked (lazy, translated)
    scope: tuple[str, ...] = ()  # ids the form carries as hidden fields
    lists: tuple[str, ...] = ()  # fields whose several values form a list
    prepare: Callable[[dict], dict] = field(default=lambda data: data)
    # A command whose answer is computed before it is confirmed: this command
    # previews it (recording nothing), and ``summary`` says it in words.
    preview: Callable[..., Any] | None = None
    summary: Callable[[dict], str] | None = None
    # A question that records nothing (the settlement's preview): answered with
    # what it computed, said in words; no command id, nothing to wait for.
    asks: bool = False
    # A command that moves money with no amount typed to confirm (the gaming
    # day's close, a count difference booked): what the person confirms, in
    # words, from the command's arguments; None when there is nothing to
    # confirm (the command then answers for itself, a refusal most likely).
    confirm: Callable[[dict], str | None] | None = None

    @property
    def name(self) -> str:
        """The command's name, as its handler's declaration gives it."""
        return REGISTRY.spec_of(self.handler).name

    @property
    def preview_name(self) -> str | None:
        return None if self.preview is None else REGISTRY.spec_of(self.preview).name


def absence_said(result: dict) -> str:
    """When the absence clock starts, said plainly (issue 22): now, or when
    the hand the player is in ends, recorded so nobody presses again [CM-18];
    or that an absence asked for after the hand is withdrawn."""
    if result.get("withdrawn"):
        return _("The absence asked for after the hand is withdrawn: the player stays.")
    if result.get("after_hand"):
        return _(
            "The player is in hand %(hand)s: the absence clock starts when it ends, "
            "nothing else to do."
        ) % {"hand": result["hand"]}
    if "after_hand" in result:  # started now
        return _("The absence clock runs.")
    return ""


def by_name(*commands: ConsoleCommand) -> dict[str, ConsoleCommand]:
    """The console's commands by the names their handlers declare."""
    return {command.name: command for command in commands}


def _draw_this_table(data: dict) -> dict:
    data["table_ids"] = [data.pop("table_id")]
    return data


def _banked_form(data: dict) -> dict:
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


def _hand_end_form(data: dict) -> dict:
    """The console's end-hand form (``ended.3``, ``called_eur``, ``place.3``,
    ``rake_eur`` ...) as the API's hand result (issue 22): the service works
    out what each seat put in from what the hand recorded, where the dealer
    typed nothing for it (``contributions_eur.3``): a fold, the blind it
    posted; all in, its stack as the hand began; to the end, the bet called
    (the big blind when none is typed), or its stack if that is less. A seat
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
        if seat in typed:
            amount = typed[seat]
        elif how == "all_in":
            amount = stack
        elif how == "called":
            amount = min(max(called, blinds.get(seat, 0)), stack)
        else:
            amount = blinds.get(seat, 0)
        if how == "folded":
            folded.add(seat)
        if amount:
            put_in[str(seat)] = amount
    live = {s for s in dealt if s not in folded}
    pots = dealer_pots({int(s): a for s, a in put_in.items()}, live)
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


FLOOR_COMMANDS: dict[str, ConsoleCommand] = by_name(
    # players and the waiting lists
    ConsoleCommand(
        COMMANDS.register_player,
        s.RegisterPlayerSerializer,
        gettext_lazy("The player is registered."),
    ),
    ConsoleCommand(
        COMMANDS.join_waiting_list, s.GameSerializer, gettext_lazy("The player is on the list.")
    ),
    ConsoleCommand(
        COMMANDS.leave_waiting_list,
        s.LeaveListSerializer,
        gettext_lazy("The player left the list."),
    ),
    ConsoleCommand(
        COMMANDS.bar_player,
        s.BarPlayerSerializer,
        gettext_lazy("The player is barred."),
        ("player",),
    ),
    ConsoleCommand(
        COMMANDS.lift_bar,
        CommandSerializer,
        gettext_lazy("The player may play again."),
        ("player",),
    ),
    ConsoleCommand(
        COMMANDS.keep_apart,
        s.KeepApartSerializer,
        gettext_lazy("The two players are kept apart."),
        ("player",),
    ),
    ConsoleCommand(
        COMMANDS.allow_together,
        s.AllowTogetherSerializer,
        gettext_lazy("The two players may sit together."),
        ("player",),
    ),
    ConsoleCommand(
        COMMANDS.enter_tournament,
        CommandSerializer,
        gettext_lazy("The player is in the tournament."),
        ("player",),
    ),
    ConsoleCommand(
        COMMANDS.leave_tournament,
        CommandSerializer,
        gettext_lazy("The player left the tournament."),
        ("player",),
    ),
    ConsoleCommand(
        COMMANDS.set_dinner_break, s.DinnerBreakSerializer, gettext_lazy("The dinner break is set.")
    ),
    # the draw and the seats
    ConsoleCommand(
        COMMANDS.draw_seats,
        CommandSerializer,
        gettext_lazy("The seats are drawn."),
        ("table_id",),
        prepare=_draw_this_table,
    ),
    ConsoleCommand(
        COMMANDS.seat_player,
        s.SeatPlayerSerializer,
        gettext_lazy("The player is seated."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.call_next,
        s.CallNextSerializer,
        gettext_lazy("The seat is offered."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.request_seat_change,
        PlayerCommandSerializer,
        gettext_lazy("The request is noted."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.withdraw_seat_change,
        PlayerCommandSerializer,
        gettext_lazy("The request is withdrawn."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.request_table_change,
        PlayerCommandSerializer,
        gettext_lazy("The request is noted."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.withdraw_table_change,
        PlayerCommandSerializer,
        gettext_lazy("The request is withdrawn."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.grant_table_change,
        s.GrantTableChangeSerializer,
        gettext_lazy("The move is made."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.change_seat,
        s.ChangeSeatSerializer,
        gettext_lazy("The player moved."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.leave_table,
        s.LeaveTableSerializer,
        gettext_lazy("The player left."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.buy_in, s.BuyInSerializer, gettext_lazy("The chips are bought."), ("table_id",)
    ),
    ConsoleCommand(
        COMMANDS.start_rest,
        PlayerCommandSerializer,
        gettext_lazy("The player rests."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.end_rest,
        PlayerCommandSerializer,
        gettext_lazy("The player is back."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.start_absence,
        PlayerCommandSerializer,
        gettext_lazy("The absence is recorded."),
        ("table_id",),
        summary=absence_said,
    ),
    ConsoleCommand(
        COMMANDS.end_absence,
        PlayerCommandSerializer,
        gettext_lazy("The player is back."),
        ("table_id",),
        summary=absence_said,
    ),
    # hands and clocks
    ConsoleCommand(
        COMMANDS.start_hand,
        s.StartHandSerializer,
        gettext_lazy("The hand is dealt."),
        ("table_id",),
        lists=("dealt_in",),
    ),
    # The end of a hand the way a dealer thinks (templates/floor/console/_end_hand.html).
    ConsoleCommand(
        COMMANDS.end_hand,
        s.EndHandFormSerializer,
        gettext_lazy("The hand is reported."),
        ("table_id",),
        ("folded",),
        prepare=_hand_end_form,
        summary=hand_end_said,
    ),
    # "Calculate": what the hand end typed so far would pay, before confirming it.
    ConsoleCommand(
        COMMANDS.preview_settlement,
        s.HandEndFormSerializer,
        "",
        ("table_id",),
        ("folded",),
        prepare=_hand_end_form,
        asks=True,
    ),
    ConsoleCommand(
        COMMANDS.settle_banked_hand,
        s.BankedHandFormSerializer,
        gettext_lazy("The banked hand is settled."),
        ("table_id",),
        prepare=_banked_form,
        preview=COMMANDS.preview_banked_hand,
        summary=banked_summary,
    ),
    ConsoleCommand(
        COMMANDS.start_action_clock,
        s.StartActionClockSerializer,
        gettext_lazy("The action clock runs."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.stop_action_clock,
        s.SeatCommandSerializer,
        gettext_lazy("The clock is stopped."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.close_table,
        s.CloseTableSerializer,
        gettext_lazy("The table is closed."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.break_table,
        CommandSerializer,
        gettext_lazy("The table is broken."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.announce_closing,
        s.AnnounceClosingSerializer,
        gettext_lazy("The closing time is announced."),
        ("sector_id",),
    ),
    # who runs what [GA art. 19.1]: the director names a sector's jefes, the
    # jefe (or the director) a table's dealer
    ConsoleCommand(
        COMMANDS.assign_jefes,
        s.AssignJefesSerializer,
        gettext_lazy("The sector's jefes are named."),
        ("sector_id",),
        lists=("jefes",),
    ),
    ConsoleCommand(
        COMMANDS.assign_dealer,
        s.AssignDealerSerializer,
        gettext_lazy("The table's dealer is named."),
        ("table_id",),
    ),
    # balancing
    ConsoleCommand(
        COMMANDS.accept_move,
        s.AcceptMoveSerializer,
        gettext_lazy("The move is made."),
        ("group_id",),
    ),
    ConsoleCommand(
        COMMANDS.override_move,
        s.OverrideMoveSerializer,
        gettext_lazy("The move is made."),
        ("group_id",),
    ),
)


class ConsoleCommands(Mapping[str, ConsoleCommand]):
    """The consoles' commands by name: the floor's, then those the other
    contexts declared (floor.kernel.composition), gathered when first asked,
    once every context has declared its own (Django's apps are ready)."""

    @cached_property
    def _all(self) -> dict[str, ConsoleCommand]:
        apps.check_apps_ready()
        declared = [made for make in ROOM.console_actions() for made in make(ConsoleCommand)]
        found = {**FLOOR_COMMANDS}
        for command in declared:
            if command.name in found:
                raise ValueError(f"console command {command.name!r} is declared twice")
            found[command.name] = command
        return found

    def __getitem__(self, name: str) -> ConsoleCommand:
        return self._all[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._all)


# Every console command by name, the floor's and the declared ones (the name
# stood for the registry above, which each ConsoleCommand names its handler by).
COMMANDS: Mapping[str, ConsoleCommand] = ConsoleCommands()
