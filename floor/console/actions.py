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
from uuid import UUID

from django.apps import apps
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from floor.api import serializers as s
from floor.api.serializers import dealers as sd
from floor.application.catalogue import COMMANDS as REGISTRY
from floor.compliance import exclusions, identity, standing
from floor.console.corrections import (
    confirm_fix_stack,
    confirm_undo_move,
    said_fixed,
    said_undone,
)
from floor.console.hand_forms import (
    banked_form,
    banked_summary,
    hand_end_form,
    hand_end_said,
)
from floor.kernel.composition import ROOM
from floor.kernel.registry import COMMANDS
from floor.kernel.web.serializers import CommandSerializer, PlayerCommandSerializer
from floor.notifications.contacts import change_contact
from floor.runtime import floor_app
from floor.selectors.players import find_player as player_view
from floor.selectors.players import player_by_card
from games.profile_rules import months_after


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
    # Names a keyed euro field in the answer's "Read: ..." when READ_LABELS has
    # no label for it (a counted account: "Tray · Table 1 · Sector A 1.480,00 EUR").
    read_label: Callable[[str], str] | None = None
    # What runs the command in the gateway's place, with the same arguments
    # (name, user, command id, the command's arguments), when the form holds
    # more than the command takes: a player's contact details, kept outside
    # the log (floor.notifications.contacts). None: the gateway's perform.
    runs: Callable[..., Any] | None = None

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


def _change_contact(name: str, user: Any, command_id: str, **arguments: Any) -> Any:
    """The contact form's door: the command, and the details kept outside the log."""
    return change_contact(user, command_id, **arguments)


def _record_identity(name: str, user: Any, command_id: str, **arguments: Any) -> Any:
    """The identity form's door (issue 25): the command, and the document kept
    outside the log (floor.compliance.identity)."""
    return identity.record_identity(user, command_id, **arguments)


def _exclude_self(name: str, user: Any, command_id: str, **arguments: Any) -> Any:
    """The self-exclusion's door (issue 25): the command, and the patron's
    document put on the house list (floor.compliance.exclusions)."""
    return exclusions.exclude_self(user, command_id, **arguments)


def _lift_self_exclusion(name: str, user: Any, command_id: str, **arguments: Any) -> Any:
    """The lift's door (issue 25): the command, and the patron's document
    taken off the house list (floor.compliance.exclusions)."""
    return exclusions.lift_self_exclusion(user, command_id, **arguments)


def _patron(ref: object) -> Any:
    """The patron a console form names, by card (the desk's) or by id (the
    compliance console's), or None."""
    text = str(ref or "").strip()
    if not text or len(text) > 40 or not text.isprintable():
        return None
    found = player_by_card(text)
    if found is None:
        try:
            found = player_view(UUID(text))
        except ValueError:
            return None
    return found


def confirm_exclude_self(arguments: dict) -> str | None:
    """What the desk confirms before a self-exclusion (issue 25): every door
    refuses the patron from now, and only a director lifts it, not before the
    house's minimum period (the profile's ``self_exclusion``; RGIAJ, Real
    Decreto 1614/2011, to confirm). None when no patron has that card (the
    command says so)."""
    patron = _patron(arguments.get("player"))
    if patron is None:
        return None
    app = floor_app()
    until = months_after(app.clock.now(), app.profile.self_exclusion.minimum_months)
    return _(
        "Self-exclusion of %(name)s (card %(card)s): every door refuses them from now; "
        "only a director may lift it, not before %(day)s."
    ) % {"name": patron.display_name, "card": patron.card_number, "day": until.date().isoformat()}


def confirm_lift(arguments: dict) -> str | None:
    """What the director confirms before lifting a self-exclusion; None when
    the command would refuse (not self-excluded, too recent: it says why and
    from which day)."""
    patron = _patron(arguments.get("player"))
    if patron is None:
        return None
    standing_now = standing.self_exclusion_of(patron.id)
    if standing_now is None or not standing_now.liftable:
        return None
    return _("Lift the self-exclusion of %(name)s (card %(card)s): the doors admit them again.") % {
        "name": patron.display_name,
        "card": patron.card_number,
    }


def by_name(*commands: ConsoleCommand) -> dict[str, ConsoleCommand]:
    """The console's commands by the names their handlers declare."""
    return {command.name: command for command in commands}


def _keep_games_unless_ticked(data: dict) -> dict:
    """No game ticked at the clock-in: the dealer keeps the games set before."""
    if not data.get("games"):
        data.pop("games", None)
    return data


def _draw_this_table(data: dict) -> dict:
    data["table_ids"] = [data.pop("table_id")]
    return data


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
    # A remote entry's player has arrived: callable from now (issue 24).
    ConsoleCommand(
        COMMANDS.check_in_player,
        s.GameSerializer,
        gettext_lazy("The player has arrived: on the list from now."),
    ),
    # A called player's answer given at the desk [CM-6; issue 24].
    ConsoleCommand(
        COMMANDS.answer_call,
        s.AnswerCallSerializer,
        gettext_lazy("The answer is recorded."),
    ),
    ConsoleCommand(
        COMMANDS.bar_player,
        s.BarPlayerSerializer,
        gettext_lazy("The player is barred."),
        ("player",),
    ),
    ConsoleCommand(
        COMMANDS.change_contact_preference,
        s.ContactSerializer,
        gettext_lazy("The player's contact is saved."),
        ("player",),
        runs=_change_contact,
    ),
    # The cage's form for a patron's identity document (issue 25).
    ConsoleCommand(
        COMMANDS.record_identity,
        s.IdentitySerializer,
        gettext_lazy("The patron's identity is recorded."),
        ("player",),
        runs=_record_identity,
    ),
    # The exclusion lists (issue 25, item 2): the director's decision on a
    # possible match (the compliance console), a self-exclusion taken at the
    # desk or the cage, confirmed first, and its lifting, the director's.
    ConsoleCommand(
        COMMANDS.resolve_possible_exclusion,
        s.ResolveExclusionSerializer,
        gettext_lazy("The possible match is resolved."),
        ("player",),
    ),
    ConsoleCommand(
        COMMANDS.exclude_self,
        CommandSerializer,
        gettext_lazy("The self-exclusion is recorded: every door refuses the patron."),
        ("player",),
        runs=_exclude_self,
        confirm=confirm_exclude_self,
    ),
    ConsoleCommand(
        COMMANDS.lift_self_exclusion,
        s.LiftSelfExclusionSerializer,
        gettext_lazy("The self-exclusion is lifted."),
        ("player",),
        runs=_lift_self_exclusion,
        confirm=confirm_lift,
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
        prepare=hand_end_form,
        summary=hand_end_said,
    ),
    # "Calculate": what the hand end typed so far would pay, before confirming it.
    ConsoleCommand(
        COMMANDS.preview_settlement,
        s.HandEndFormSerializer,
        "",
        ("table_id",),
        ("folded",),
        prepare=hand_end_form,
        asks=True,
    ),
    ConsoleCommand(
        COMMANDS.settle_banked_hand,
        s.BankedHandFormSerializer,
        gettext_lazy("The banked hand is settled."),
        ("table_id",),
        prepare=banked_form,
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
        COMMANDS.start_must_move,
        s.StartMustMoveSerializer,
        gettext_lazy("This is now a must-move table: its players move to the main table."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.end_must_move,
        CommandSerializer,
        gettext_lazy("This is a table like the others again."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.move_from_must_move,
        s.MoveFromMustMoveSerializer,
        gettext_lazy("The player moved from the must-move table."),
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
    # the dealer rotation (issue 26; GA art. 19): the dealer box's buttons
    ConsoleCommand(
        COMMANDS.clock_in_dealer,
        sd.ClockInDealerSerializer,
        gettext_lazy("The dealer is clocked in, in the box."),
        ("sector_id",),
        lists=("games",),
        prepare=_keep_games_unless_ticked,
    ),
    ConsoleCommand(
        COMMANDS.clock_out_dealer,
        sd.DealerSerializer,
        gettext_lazy("The dealer is clocked out."),
        ("sector_id",),
    ),
    ConsoleCommand(
        COMMANDS.push_dealer,
        sd.PushDealerSerializer,
        gettext_lazy("The dealer is pushed in."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.override_dealer_push,
        sd.OverrideDealerPushSerializer,
        gettext_lazy("The dealer you chose is at the table."),
        ("table_id",),
    ),
    ConsoleCommand(
        COMMANDS.send_dealer_on_break,
        sd.DealerSerializer,
        gettext_lazy("The dealer is on break."),
        ("sector_id",),
    ),
    ConsoleCommand(
        COMMANDS.end_dealer_break,
        sd.DealerSerializer,
        gettext_lazy("The dealer is back in the box."),
        ("sector_id",),
    ),
    # corrections with their reason, the jefe's (issue 22): each confirmed
    # first, since both move a stack (floor.console.corrections)
    ConsoleCommand(
        COMMANDS.undo_move,
        s.UndoMoveSerializer,
        gettext_lazy("The move is undone."),
        ("table_id",),
        summary=said_undone,
        confirm=confirm_undo_move,
    ),
    ConsoleCommand(
        COMMANDS.fix_stack,
        s.FixStackSerializer,
        gettext_lazy("The stack is corrected."),
        ("table_id",),
        summary=said_fixed,
        confirm=confirm_fix_stack,
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
