"""The list's player side, part one (issue 24 item 2): a player acting for
themselves only (PlayerSelf), remote ("called in") entries that are not
callable until the jefe checks the player in, and expire after the house's
check-in time [CM-5, CM-6, CM-7; GA art. 19.1; PT 12]."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import timedelta

import pytest
from django.core.management import call_command

from floor import runtime
from floor.application.player_self import card_of, player_username
from floor.kernel.errors import ErrorKind
from floor.kernel.roles import Actor, Role
from floor.models import ListMove, PendingTimer, WaitingEntryView
from floor.reports.common import ReportFilter
from floor.reports.waiting import waiting_report
from floor.timers import sweep_timers
from games.profiles import CM, GA, PT
from tests.support.floor import HOLDEM, JEFE, new_id
from tests.support.room import Room, events_of, pid, refused

pytestmark = pytest.mark.django_db


def as_player(card: str) -> Actor:
    """The signed-in player of ``card``: Role.PLAYER only."""
    return Actor(player_username(card), frozenset({Role.PLAYER}))


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app)  # CM, the suite's profile


def project() -> None:
    runtime.floor_projector().catch_up()


def join_remote(room: Room, card: str, table_id: str) -> dict:
    return room.app.join_waiting_list(
        as_player(card), new_id(), player=card, table_id=table_id
    ).result


def check_in(room: Room, card: str, table_id: str) -> dict:
    return room.app.check_in_player(JEFE, new_id(), player=card, table_id=table_id).result


def full_table(room: Room) -> tuple[str, list[str]]:
    return room.drawn_table(5, seats=5)


# --- who a player may act for ------------------------------------------------------------


def test_a_player_username_is_their_card_and_back():
    assert player_username(" ab-12 ") == "player-AB-12"
    assert card_of("player-AB-12") == "AB-12"
    assert card_of("jaime") is None
    assert card_of("player-") is None
    assert card_of("player-a b") is None


def test_a_player_puts_themselves_on_a_list_as_a_remote_entry(room):
    table_id, _cards = full_table(room)
    card = room.new_player()
    result = join_remote(room, card, table_id)
    assert result["remote"] is True
    assert result["position"] == 1
    (registered,) = [
        e for e in events_of(room.app, result["waiting_list_id"], "Registered")
        if e.player_id.hex == pid(card).replace("-", "")
    ]  # fmt: skip
    assert registered.remote is True
    assert (registered.actor, registered.actor_role) == (player_username(card), "player")
    entry = room.waiting(table_id).entry_of(registered.player_id)
    assert (entry["remote"], entry["checked_in"]) == (True, False)
    # the jefe's entry at the desk is checked in, as every entry was before
    other = room.new_player()
    assert room.join(other, table_id)["remote"] is False
    entry = room.waiting(table_id).entries[1]
    assert (entry["remote"], entry["checked_in"], entry["check_in_by"]) == (False, True, None)


def test_a_player_naming_another_players_card_is_refused(room):
    table_id, _cards = full_table(room)
    mine, theirs = room.new_players(2)
    room.join(theirs, table_id)
    for command, extra in (
        (room.app.join_waiting_list, {}),
        (room.app.leave_waiting_list, {}),
        (room.app.answer_call, {"answer": "coming"}),
    ):
        for ref in (theirs, pid(theirs)):  # by card or by id
            error = refused(
                room.app,
                "not_your_player",
                command,
                as_player(mine),
                new_id(),
                player=ref,
                table_id=table_id,
                **extra,
            )
            assert error.kind is ErrorKind.FORBIDDEN
    refused(
        room.app,
        "not_your_player",
        room.app.join_waiting_list,
        as_player(mine),
        new_id(),
        table_id=table_id,
        player=None,
    )
    # a user who is not a player's sign-in names nobody
    stranger = Actor("jaime-at-home", frozenset({Role.PLAYER}))
    refused(
        room.app,
        "not_your_player",
        room.app.join_waiting_list,
        stranger,
        new_id(),
        player=mine,
        table_id=table_id,
    )


def test_a_player_is_refused_the_jefes_commands(room):
    table_id, _cards = full_table(room)
    card = room.new_player()
    join_remote(room, card, table_id)
    for command, arguments in (
        (room.app.check_in_player, {"player": card, "table_id": table_id}),
        (room.app.register_player, {"card_number": "Z-1", "display_name": "Zed"}),
        (room.app.bar_player, {"player": card, "reason": "x"}),
        (room.app.seat_player, {"player": card, "table_id": table_id, "seat": 1}),
    ):
        error = refused(
            room.app, "role_not_allowed", command, as_player(card), new_id(), **arguments
        )
        assert error.kind is ErrorKind.FORBIDDEN


def test_a_player_leaves_a_list_only_as_withdrawn(room):
    table_id, _cards = full_table(room)
    card = room.new_player()
    join_remote(room, card, table_id)
    refused(
        room.app,
        "reason_not_allowed",
        room.app.leave_waiting_list,
        as_player(card),
        new_id(),
        player=card,
        table_id=table_id,
        reason="absent_when_called",
    )
    room.app.leave_waiting_list(as_player(card), new_id(), player=card, table_id=table_id)
    assert room.listed(table_id) == []
    assert room.player(card).waiting_lists == []


def test_a_barred_or_seated_player_may_not_join_from_outside(room):
    """The checks of the desk hold for the player: barred never; seated, only
    another variant [CM-7]."""
    table_id, cards = full_table(room)
    refused(
        room.app, "seated_same_variant", join_remote, room, cards[0], table_id
    )  # seated at this game
    card = room.new_player()
    room.app.bar_player(JEFE, new_id(), player=card, reason="conducta")
    refused(room.app, "player_barred", join_remote, room, card, table_id)


def test_a_remote_entry_may_not_register_again_from_outside(room):
    """Re-registering puts the player last when they appear [CM-6]: not from
    outside the room."""
    table_id, _cards = full_table(room)
    card = room.new_player()
    join_remote(room, card, table_id)
    refused(room.app, "already_on_list", join_remote, room, card, table_id)


# --- not callable until checked in -------------------------------------------------------


def test_a_remote_entry_is_skipped_by_the_call_until_checked_in(room):
    table_id, cards = full_table(room)
    remote, here = room.new_players(2)
    join_remote(room, remote, table_id)  # first on the list, from outside
    room.join(here, table_id)
    seat = room.leave(table_id, cards[0])["seat"]
    waiting = room.waiting(table_id)
    first, second = waiting.entries
    assert first["status"] == "waiting"  # skipped: not in the room
    assert (second["status"], second["call"]["seat"]) == ("called", seat)
    # the seat is the called player's while the call lasts [CM-6]
    refused(
        room.app,
        "waiting_list_first",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=remote,
        seat=seat,
    )


def test_a_remote_entry_not_checked_in_does_not_wait_ahead(make_app):
    """check_turn's "first waiting" [PT 12; CM-5] counts players in the room only."""
    room = Room(make_app("GA"))
    table_id, _cards = room.drawn_table(5)
    remote, here = room.new_players(2)
    join_remote(room, remote, table_id)
    room.join(here, table_id)
    free = room.get(table_id).free_seats()
    # the jefe may not seat the remote player before checking them in
    refused(
        room.app,
        "player_not_checked_in",
        room.app.seat_player,
        JEFE,
        new_id(),
        table_id=table_id,
        player=remote,
        seat=free[0],
    )
    room.sit(table_id, here, free[0])  # nobody in the room waits before them
    assert room.seat_of(table_id, here) == free[0]


def test_checking_in_keeps_the_order_under_cm(room):
    """CM keeps a remote entry's reservation order (the number is given when
    the player registers [CM-6]): checked in, it is called before later ones."""
    table_id, cards = full_table(room)
    remote, here = room.new_players(2)
    reservation = join_remote(room, remote, table_id)["reservation"]
    room.join(here, table_id)
    result = check_in(room, remote, table_id)
    assert result == {
        "player_id": pid(remote),
        "game": result["game"],
        "reservation": reservation,
        "position": 1,
        "kept_order": True,
        "also": [],
    }
    (checked,) = events_of(room.app, room.waiting(table_id).id, "CheckedIn")
    assert (checked.actor, checked.actor_role, checked.reservation) == (
        "jaime",
        "jefe_sector",
        None,
    )
    seat = room.leave(table_id, cards[0])["seat"]
    first = room.waiting(table_id).entries[0]
    assert (first["player_id"], first["status"]) == (pid(remote).replace("-", ""), "called")
    assert first["call"]["seat"] == seat


def test_a_player_checked_in_is_in_the_room_for_every_list(room):
    """One "Ha llegado": the player's other remote entries are checked in
    too, each an event of its own list; an entry made at the desk is untouched."""
    holdem, _cards = full_table(room)
    omaha, _cards = room.drawn_table(5, seats=5, variant="omaha", limit="pot_limit")
    remote = room.new_player()
    join_remote(room, remote, holdem)
    join_remote(room, remote, omaha)
    result = check_in(room, remote, holdem)
    assert result["also"] == [room.get(omaha).game.key]
    for table_id in (holdem, omaha):
        entry = room.waiting(table_id).entry_of(room.player(remote).id)
        assert entry["checked_in"] is True
        (checked,) = events_of(room.app, room.waiting(table_id).id, "CheckedIn")
        assert checked.actor == "jaime"
    refused(room.app, "already_checked_in", check_in, room, remote, omaha)


@pytest.mark.parametrize("profile", [GA, PT])
def test_checking_in_queues_from_arrival_under_ga_and_pt(make_app, profile):
    """The regulations know only the list kept in the room [GA art. 19.1; PT
    12]: checked in, a remote entry goes last under a new number."""
    room = Room(make_app(profile))
    table_id, _cards = room.drawn_table(5)
    remote, here = room.new_players(2)
    first_number = join_remote(room, remote, table_id)["reservation"]
    later = room.join(here, table_id)["reservation"]
    result = check_in(room, remote, table_id)
    assert result["kept_order"] is False
    assert result["reservation"] == later + 1 > first_number
    assert result["position"] == 2
    assert room.listed(table_id) == [here, remote]


def test_checking_in_is_refused_when_there_is_nothing_to_check_in(room):
    table_id, _cards = full_table(room)
    remote, here, nowhere = room.new_players(3)
    join_remote(room, remote, table_id)
    room.join(here, table_id)
    refused(room.app, "entry_not_remote", check_in, room, here, table_id)
    refused(room.app, "player_not_on_list", check_in, room, nowhere, table_id)
    check_in(room, remote, table_id)
    refused(room.app, "already_checked_in", check_in, room, remote, table_id)


# --- expiry ----------------------------------------------------------------------------


def test_a_remote_entry_not_checked_in_expires_at_the_house_time(room, clock):
    table_id, _cards = full_table(room)
    card = room.new_player()
    join_remote(room, card, table_id)
    project()
    (timer,) = PendingTimer.objects.filter(kind="check_in")
    assert timer.due_at == clock.now() + timedelta(minutes=90)  # CM's house setting
    assert WaitingEntryView.objects.get(player_id=pid(card)).check_in_by == timer.due_at
    clock.advance(timedelta(minutes=89, seconds=59))
    assert sweep_timers(clock.now()) == 0
    clock.advance(timedelta(seconds=1))
    assert sweep_timers(clock.now()) == 1
    project()
    assert room.listed(table_id) == []
    assert room.player(card).waiting_lists == []
    removed = events_of(room.app, room.waiting(table_id).id, "Removed")[-1]
    assert (removed.player_id.hex, removed.reason) == (pid(card).replace("-", ""), "remote_expired")
    assert (removed.actor, removed.actor_role) == ("floor-clock", "clock")
    timer.refresh_from_db()
    assert timer.outcome == {"fired": True, "removed": pid(card)}


def test_a_checked_in_entry_does_not_expire(room, clock):
    table_id, _cards = full_table(room)
    card = room.new_player()
    join_remote(room, card, table_id)
    check_in(room, card, table_id)
    project()
    (timer,) = PendingTimer.objects.filter(kind="check_in")
    assert timer.state == PendingTimer.CANCELLED
    clock.advance(timedelta(minutes=90))
    assert sweep_timers(clock.now()) == 0
    assert room.listed(table_id) == [card]


@pytest.mark.parametrize("minutes", [None, 30])
def test_the_check_in_time_is_the_houses(make_app, clock, minutes):
    check_in_time = timedelta(minutes=minutes) if minutes else None
    house = replace(CM, waiting_list=replace(CM.waiting_list, remote_check_in_time=check_in_time))
    app = make_app(house)
    runtime.install(app)  # the projector and its timers read this floor
    try:
        room = Room(app)
        table_id, _cards = room.drawn_table(5, seats=5)
        card = room.new_player()
        join_remote(room, card, table_id)
        project()
        timers = PendingTimer.objects.filter(kind="check_in")
        entry = room.waiting(table_id).entries[0]
        if check_in_time is None:  # the entry waits until the jefe removes it
            assert not timers.exists()
            assert entry["check_in_by"] is None
        else:
            assert [t.due_at for t in timers] == [clock.now() + check_in_time]
            assert entry["check_in_by"] == (clock.now() + check_in_time).isoformat()
    finally:
        runtime.install(None)


def test_a_stale_expiry_does_nothing_and_an_early_one_is_refused(room, clock):
    table_id, _cards = full_table(room)
    card = room.new_player()
    join_remote(room, card, table_id)
    project()
    (timer,) = PendingTimer.objects.filter(kind="check_in")
    from floor.application.clocks import CLOCK_ACTOR

    refused(
        room.app,
        "timer_not_due",
        room.app.expire_remote_entry,
        CLOCK_ACTOR,
        new_id(),
        **timer.arguments,
    )
    other = {**timer.arguments, "check_in_by": (timer.due_at - timedelta(minutes=1)).isoformat()}
    assert room.app.expire_remote_entry(CLOCK_ACTOR, new_id(), **other).result == {"fired": False}
    refused(
        room.app,
        "role_not_allowed",
        room.app.expire_remote_entry,
        JEFE,
        new_id(),
        **timer.arguments,
    )


def test_a_remote_entry_not_checked_in_is_not_drawn(room):
    """The draw is among the players in the room [GA art. 20; PT 11; CM-8]:
    a remote entry not checked in keeps its place on the list."""
    table_id = room.table()
    remote = room.new_player()
    join_remote(room, remote, table_id)
    here = room.new_players(4)
    for card in here:
        room.join(card, table_id)
    room.app.draw_seats(JEFE, new_id(), table_ids=[table_id])
    assert set(room.seats(table_id).values()) == set(here)
    assert room.listed(table_id) == [remote]


def test_from_outside_a_game_no_table_plays_is_asked_for_a_few_lists_at_most(room):
    """A player may ask from outside for a game the room does not run now (an
    interest list, issue 24 item 4): any game the profile allows, on a few
    lists at a time; stakes the profile refuses are refused as at the desk."""
    card = room.new_player()
    game = {k: HOLDEM[k] for k in ("variant", "limit", "minimum_cents", "maximum_cents")}
    asked = [{**game, "minimum_cents": 200 * n, "maximum_cents": 1000 * n} for n in (1, 2, 3, 4)]
    for stakes in asked:
        result = room.app.join_waiting_list(as_player(card), new_id(), player=card, **stakes)
        assert result.result["remote"] is True
    fifth = {**game, "minimum_cents": 1000, "maximum_cents": 5000}
    refused(
        room.app,
        "too_many_lists",
        room.app.join_waiting_list,
        as_player(card),
        new_id(),
        player=card,
        **fifth,
    )
    other = room.new_player()
    refused(
        room.app,
        "stakes_out_of_band",
        room.app.join_waiting_list,
        as_player(other),
        new_id(),
        player=other,
        **{**game, "minimum_cents": 100, "maximum_cents": 10_000},
    )
    room.join(card, **fifth)  # the jefe's desk is not held to it


# --- the waiting report -------------------------------------------------------------------


def test_the_waiting_report_counts_a_remote_entrys_wait_from_its_check_in(room, clock):
    """A remote entry waits at the floor from its check-in, not from the phone
    (issue 24, item 2): before it the player was not in the room and could not
    be called [PT 12; CM-5]. A walk-in waits from registration; a remote entry
    that expired is in no wait. Projected batch by batch as on a floor, and
    alike by a rebuild (all in one batch)."""
    table_id, cards = full_table(room)
    clock.advance(timedelta(minutes=1))
    since = clock.now()  # the report from here: not the draw's own waits
    remote, walk_in, never_came = room.new_players(3)
    join_remote(room, remote, table_id)
    room.join(walk_in, table_id)
    join_remote(room, never_came, table_id)
    project()  # the registrations' rows written before the check-in
    clock.advance(timedelta(minutes=40))
    check_in(room, remote, table_id)
    project()
    clock.advance(timedelta(minutes=10))
    seat = room.leave(table_id, cards[0])["seat"]  # the remote entry kept its order [CM]
    room.sit(table_id, remote, seat)
    clock.advance(timedelta(minutes=10))
    seat = room.leave(table_id, cards[1])["seat"]  # never_came is skipped: not here
    room.sit(table_id, walk_in, seat)
    clock.advance(timedelta(minutes=30))
    assert sweep_timers(clock.now()) == 1  # never_came's entry expires
    project()
    waits = dict(
        ListMove.objects.filter(kind=ListMove.REMOVED).values_list("player_id", "wait_seconds")
    )
    assert waits[pid(remote)] == 10 * 60  # from the check-in, not 50 minutes
    assert waits[pid(walk_in)] == 60 * 60  # from the registration
    (row,) = waiting_report(ReportFilter(start=since))
    assert (row["game"], row["registrations"]) == (room.waiting(table_id).game_key, 3)
    assert row["seated"] == 2  # the expired entry waited for nothing
    assert (row["median_wait_seconds"], row["p90_wait_seconds"]) == (600, 3600)
    live = list(ListMove.objects.order_by("position").values_list())
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    assert list(ListMove.objects.order_by("position").values_list()) == live


def test_a_remote_entry_past_its_check_in_time_is_not_checked_in(room, clock):
    """Past the house's time the entry has expired even before the clock
    removes it: checking the player in is refused, and one "Ha llegado" for
    another list passes over it."""
    holdem, _cards = full_table(room)
    omaha, _cards = room.drawn_table(5, seats=5, variant="omaha", limit="pot_limit")
    remote = room.new_player()
    join_remote(room, remote, omaha)
    clock.advance(timedelta(minutes=91))
    join_remote(room, remote, holdem)
    result = check_in(room, remote, holdem)
    assert result["also"] == []
    error = refused(room.app, "check_in_lapsed", check_in, room, remote, omaha)
    assert error.params["until"]
