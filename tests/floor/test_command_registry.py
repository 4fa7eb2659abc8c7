"""The command registry: every command declared once, with its roles and handler.

The role map is derived from the declarations (floor.kernel.registry); it
is compared here with a literal copy of the map as it was written by hand before
the registry, so a change of who may do what shows in a diff of this file.
"""

from __future__ import annotations

import inspect
from uuid import uuid4

import pytest

from floor.application.catalogue import COMMAND_ROLES, COMMANDS
from floor.kernel.errors import DomainError
from floor.kernel.registry import CommandRegistry, UnknownCommand, current_command
from floor.kernel.roles import Actor, Role

_JEFE = (Role.JEFE_SECTOR,)
_TABLE_REPORTERS = (Role.CRUPIER, Role.JEFE_SECTOR)

ROLES_BEFORE_THE_REGISTRY = {
    "open_sector": (Role.DIRECTOR,),
    "open_table": _JEFE,
    # Who runs what [GA art. 19.1]: the director names a sector's jefes; the
    # jefe (or the director) names a table's dealer.
    "assign_jefes": (Role.DIRECTOR,),
    "assign_dealer": (Role.JEFE_SECTOR, Role.DIRECTOR),
    # The dealer rotation (issue 26): the jefe (or the director) clocks
    # dealers in and out, sets their games, pushes, overrides, sends on break.
    "set_dealer_games": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "clock_in_dealer": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "clock_out_dealer": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "push_dealer": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "override_dealer_push": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "send_dealer_on_break": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "end_dealer_break": (Role.JEFE_SECTOR, Role.DIRECTOR),
    # Players: the jefe or the cage registers them; barring is the jefe's or
    # the director's call.
    "register_player": (Role.JEFE_SECTOR, Role.CAJERO),
    "bar_player": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "lift_bar": (Role.JEFE_SECTOR, Role.DIRECTOR),
    # How a player is told of a call (issue 24, item 3): who registers them, and the player.
    "change_contact_preference": (Role.JEFE_SECTOR, Role.CAJERO, Role.PLAYER),
    # A patron's identity (issue 25): the cage, the jefe at the door, the
    # director; erasing it is the director's.
    "record_identity": (Role.CAJERO, Role.JEFE_SECTOR, Role.DIRECTOR),
    "erase_identity": (Role.DIRECTOR,),
    # The exclusion lists (issue 25, item 2).
    "import_exclusion_list": (Role.DIRECTOR,),
    "resolve_possible_exclusion": (Role.DIRECTOR,),
    "exclude_self": (Role.JEFE_SECTOR, Role.CAJERO, Role.DIRECTOR),
    # Lifting it is the director's, after the house's minimum period; the
    # retention purge is the clock's (issue 25, item 4).
    "lift_self_exclusion": (Role.DIRECTOR,),
    "purge_identity": (Role.CLOCK,),
    # The jefe keeps the list and assigns seats [GA art. 19.1].
    # A player puts themselves on a list and takes themselves off (issue 24).
    "join_waiting_list": (Role.JEFE_SECTOR, Role.PLAYER),
    "leave_waiting_list": (Role.JEFE_SECTOR, Role.PLAYER),
    "check_in_player": _JEFE,
    "answer_call": (Role.PLAYER, Role.JEFE_SECTOR),
    # The desk that registers players gives them sign-in codes; the player
    # chooses their own PIN (issue 24, floor.application.player_signin).
    "issue_sign_in_code": (Role.JEFE_SECTOR, Role.CAJERO),
    "choose_pin": (Role.PLAYER,),
    "choose_other_lists": (Role.PLAYER,),
    "draw_seats": _JEFE,
    "seat_player": _JEFE,
    "request_seat_change": _JEFE,
    "withdraw_seat_change": _JEFE,
    "call_next": _JEFE,
    "change_seat": _JEFE,
    "leave_table": _JEFE,
    "close_table": _JEFE,
    "start_rest": _TABLE_REPORTERS,
    "end_rest": _TABLE_REPORTERS,
    "buy_in": _TABLE_REPORTERS,
    "start_hand": _TABLE_REPORTERS,
    "end_hand": _TABLE_REPORTERS,
    # A banked hand, box by box [GA art. 6-16; PT-SD; PG], and its preview.
    "settle_banked_hand": _TABLE_REPORTERS,
    "preview_banked_hand": _TABLE_REPORTERS,
    # What a hand end would pay, recording nothing: asked before confirming it.
    "preview_settlement": _TABLE_REPORTERS,
    # Any player may ask; the dealer or the jefe starts the clock [CM-20].
    "start_action_clock": _TABLE_REPORTERS,
    "stop_action_clock": _TABLE_REPORTERS,
    # The absence clock [CM-18]: the dealer or the jefe starts it and sees the
    # player back.
    "start_absence": _TABLE_REPORTERS,
    "end_absence": _TABLE_REPORTERS,
    # The casino's closing time [CM-24]: the jefe or the director announces it.
    "announce_closing": (Role.JEFE_SECTOR, Role.DIRECTOR),
    # Balancing and table changes [CM-10, CM-11; PT 26]: the jefe's.
    "accept_move": _JEFE,
    "override_move": _JEFE,
    "request_table_change": _JEFE,
    "withdraw_table_change": _JEFE,
    "grant_table_change": _JEFE,
    "break_table": _JEFE,
    # Must-move tables (issue 24, item 5): the jefe's.
    "start_must_move": _JEFE,
    "end_must_move": _JEFE,
    "move_from_must_move": _JEFE,
    # Who may not sit where [CM-14, CM-23].
    "keep_apart": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "allow_together": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "enter_tournament": _JEFE,
    "leave_tournament": _JEFE,
    "set_dinner_break": (Role.JEFE_SECTOR, Role.DIRECTOR),
    # The cage and the books [GA art. 19.1; CM "Personal"]: the cage moves
    # money; the jefe asks for fills and credits and the cage confirms them.
    "fund_cage": (Role.DIRECTOR, Role.CAJERO),
    "open_gaming_day": (Role.CAJERO,),
    "count_gaming_day": (Role.CAJERO,),
    "explain_difference": (Role.CAJERO,),
    "close_gaming_day": (Role.CAJERO,),
    "sell_chips": (Role.CAJERO,),
    "buy_in_at_cage": (Role.CAJERO,),
    "cash_out": (Role.CAJERO,),
    "certify_winnings": (Role.CAJERO,),
    "request_tray_move": _JEFE,
    "confirm_tray_move": (Role.CAJERO,),
    "cancel_tray_move": (Role.JEFE_SECTOR, Role.CAJERO),
    "take_chips_off": _TABLE_REPORTERS,
    "create_jackpot": (Role.DIRECTOR,),
    "stake_jackpot": _TABLE_REPORTERS,
    "pay_jackpot": _TABLE_REPORTERS,
    # Corrections with their reason (issue 22): the jefe's at his tables, the cage's entries.
    "undo_move": _JEFE,
    "fix_stack": _JEFE,
    "void_entry": (Role.CAJERO, Role.DIRECTOR),
    # Deadlines firing [PT 24; CM-6, CM-18, CM-22, CM-24; GA art. 18.3b]: the clock only.
    "expire_suspension": (Role.CLOCK,),
    "expire_call": (Role.CLOCK,),
    "expire_remote_entry": (Role.CLOCK,),
    "warn_action_clock": (Role.CLOCK,),
    "expire_action_clock": (Role.CLOCK,),
    "warn_absence": (Role.CLOCK,),
    "expire_absence": (Role.CLOCK,),
    "strike_session_hour": (Role.CLOCK,),
    "start_last_hands": (Role.CLOCK,),
}


def test_the_role_map_is_what_it_was():
    assert dict(COMMAND_ROLES) == ROLES_BEFORE_THE_REGISTRY
    assert list(COMMAND_ROLES) == list(COMMANDS)


def test_every_command_has_roles_and_a_handler_of_its_name():
    assert len(COMMANDS) == len(ROLES_BEFORE_THE_REGISTRY)
    for name, spec in COMMANDS.items():
        assert spec.name == name
        assert spec.roles and all(isinstance(r, Role) for r in spec.roles), name
        assert spec.handler is not None and spec.handler.__name__ == name
        # a plain function of the unit of work and the arguments
        assert "." not in spec.handler.__qualname__, name
        assert next(iter(inspect.signature(spec.handler).parameters)) == "work", name
        assert COMMANDS.spec_of(spec.handler) is spec


def test_the_clock_alone_fires_deadlines():
    clock = {n for n, s in COMMANDS.items() if Role.CLOCK in s.roles}
    assert clock and all(COMMANDS[n].roles == (Role.CLOCK,) for n in clock)


def test_a_scope_names_what_the_handler_takes():
    for name, spec in COMMANDS.items():
        taken = set(inspect.signature(spec.handler).parameters)
        if spec.scope == "table":
            assert taken & {"table_id", "table_ids"}, name
        elif spec.scope == "sector":
            assert "sector_id" in taken, name


def test_an_unknown_command_is_a_clear_error():
    with pytest.raises(UnknownCommand, match="no command 'no_such_command'"):
        COMMANDS["no_such_command"]
    with pytest.raises(LookupError):
        COMMANDS.role_for(Actor("julia", frozenset({Role.JEFE_SECTOR})), "no_such_command")
    assert not COMMANDS.may(Actor("julia", frozenset(Role)), "no_such_command")


def test_roles_are_checked_by_the_declaration():
    julia = Actor("julia", frozenset({Role.JEFE_SECTOR}))
    dario = Actor("dario", frozenset({Role.DIRECTOR}))
    assert COMMANDS.role_for(julia, "end_rest") is Role.JEFE_SECTOR
    assert COMMANDS.may(dario, "open_sector") and not COMMANDS.may(julia, "open_sector")
    with pytest.raises(DomainError) as refused:
        COMMANDS.role_for(julia, "open_sector")
    assert refused.value.code == "role_not_allowed"


def test_a_handler_names_its_command_while_it_runs():
    registry = CommandRegistry()

    class App:
        @registry.command(roles=("someone",))
        def do_it(self):
            return current_command()

    assert registry.bound(App(), "do_it")() == "do_it"
    with pytest.raises(LookupError):
        current_command()
    with pytest.raises(ValueError):
        registry.register(App.do_it.__wrapped__, roles=("someone",))  # a second declaration


def test_a_default_left_out_is_fingerprinted_as_if_spelled_out():
    registry = CommandRegistry()

    @registry.command(roles=("someone",))
    def hold(work, *, table_id, seat, minutes=10, **more):
        return [], {}

    spec = registry["hold"]
    table = uuid4()
    spelled = spec.payload_of({"table_id": table, "seat": 2, "minutes": 10, "note": "x"})
    assert spelled == {"table_id": str(table), "seat": 2, "minutes": 10, "note": "x"}
    assert spec.payload_of({"table_id": table, "seat": 2, "note": "x"}) == spelled
    assert spec.payload_of({"table_id": table, "seat": 2, "minutes": 20})["minutes"] == 20

    # An argument a handler does not take is kept as given: calling it refuses it.
    @registry.command(roles=("someone",))
    def fold(work, *, seat, early=False):
        return [], {}

    assert registry["fold"].payload_of({"seat": 1}) == {"seat": 1, "early": False}
    assert registry["fold"].payload_of({"seat": 1, "nope": 1}) == {"seat": 1, "nope": 1}


def api_endpoints():
    from floor.api.commands import FLOOR_ENDPOINTS
    from ledger.api.commands import CAGE_ENDPOINTS

    return [*FLOOR_ENDPOINTS, *CAGE_ENDPOINTS]


# Commands with a door of their own (issue 24): the desk's code is made and kept
# hashed outside the command (floor.player.desk, /api/player-sign-in-codes/);
# the PIN and the other lists' fate are chosen on the player's page only (a
# player reaches no API).
OWN_DOORS = {"issue_sign_in_code", "choose_pin", "choose_other_lists"}


def test_every_command_a_person_issues_has_an_endpoint_and_every_endpoint_a_command():
    endpoints = api_endpoints()
    declared = [e.command for e in endpoints]  # spec_of: each handler is a registered one
    assert len(declared) == len(set(declared)), "a command has two endpoints"
    people = {n for n, s in COMMANDS.items() if s.roles != (Role.CLOCK,)} - OWN_DOORS
    assert set(declared) == people
    assert len({e.url_name for e in endpoints}) == len(endpoints)


def routes(patterns=None, prefix=""):
    """(route, url name, view class) of every route Django serves."""
    from django.urls import URLResolver, get_resolver

    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            view = getattr(pattern.callback, "view_class", None)
            yield prefix + str(pattern.pattern), pattern.name, view


def test_every_route_that_runs_a_command_runs_a_registered_one_as_declared():
    served = {(route, name): view for route, name, view in routes()}
    commands = {key: view.command for key, view in served.items() if getattr(view, "command", None)}
    own = {key for key, command in commands.items() if command in OWN_DOORS}
    assert own == {("api/player-sign-in-codes/", "player-sign-in-codes")}
    assert len(commands) - len(own) == len(api_endpoints())
    for (_route, _name), command in commands.items():
        assert command in COMMANDS
    for endpoint in api_endpoints():
        view = served["api/" + endpoint.route, endpoint.url_name]
        assert view.command == endpoint.command
        assert COMMANDS[view.command].handler is endpoint.handler


def test_the_console_runs_registered_commands_by_their_declared_names():
    from floor.console.commands import COMMANDS as CONSOLE

    for name, action in CONSOLE.items():
        assert COMMANDS[name].handler is action.handler
        if action.preview is not None:
            assert COMMANDS[action.preview_name].query
