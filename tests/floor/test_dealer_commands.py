"""The dealer rotation's commands (floor.application.dealers): clocking in and
out with the games one may deal, the planned push (one tap, one event), the
override with its reason, breaks; every refusal a clear code recording nothing,
every step an event naming its actor [GA art. 19, 19.1]."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from floor.application.dealers import sector_plan
from floor.domain.dealer_roster import DealerRoster
from floor.domain.sector import Sector
from floor.kernel.roles import Actor, Role
from tests.support.floor import DIRECTOR, HOLDEM, JEFE, new_id
from tests.support.room import Room, events_of, refused

pytestmark = pytest.mark.django_db

MIN = timedelta(minutes=1)
ROSTER = str(DealerRoster.create_id())


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="DR")


def clock_in(room: Room, *names: str, games=("texas_holdem",)) -> None:
    for name in names:
        room.app.clock_in_dealer(
            JEFE, new_id(), sector_id=room.sector_id, dealer=name, games=list(games)
        )


def open_table(room: Room, **change) -> str:
    spec = {**HOLDEM, **change}
    return room.app.open_table(JEFE, new_id(), sector_id=room.sector_id, **spec).result["table_id"]


def current_plan(room: Room):
    work = room.work()
    sector = work.load(Sector, room.sector_id, "sector")
    return sector_plan(work, sector, room.app.clock.now())[0]


def dealer_of(room: Room, table_id: str) -> str | None:
    return room.get(table_id).dealer


def test_a_dealer_clocks_in_with_their_games_and_the_events_name_the_jefe(room):
    answer = room.app.clock_in_dealer(
        JEFE, new_id(), sector_id=room.sector_id, dealer=" ana ", games=["omaha", "texas_holdem"]
    ).result
    assert answer["dealer"] == "ana" and answer["games"] == ["omaha", "texas_holdem"]
    games_set, clocked = events_of(room.app, ROSTER)[1:]
    assert type(games_set).__name__ == "DealerGamesSet" and games_set.games == answer["games"]
    assert type(clocked).__name__ == "DealerClockedIn"
    assert (clocked.actor, clocked.actor_role) == ("jaime", "jefe_sector")


def test_clock_in_and_games_refusals_record_nothing(room):
    app, sector = room.app, room.sector_id
    refused(
        app,
        "dealer_has_no_games",
        app.clock_in_dealer,
        JEFE,
        new_id(),
        sector_id=sector,
        dealer="ana",
    )
    refused(
        app,
        "unknown_game",
        app.set_dealer_games,
        DIRECTOR,
        new_id(),
        dealer="ana",
        games=["bridge"],
    )
    refused(
        app, "dealer_games_required", app.set_dealer_games, JEFE, new_id(), dealer="ana", games=[]
    )
    refused(
        app, "dealer_required", app.set_dealer_games, JEFE, new_id(), dealer=" ", games=["omaha"]
    )
    clock_in(room, "ana")
    refused(
        app,
        "dealer_already_clocked_in",
        app.clock_in_dealer,
        JEFE,
        new_id(),
        sector_id=sector,
        dealer="ana",
    )
    refused(
        app,
        "dealer_not_clocked_in",
        app.clock_out_dealer,
        JEFE,
        new_id(),
        sector_id=sector,
        dealer="bea",
    )
    other = Room(app, tag="DX").sector_id
    refused(
        app,
        "dealer_in_another_sector",
        app.clock_out_dealer,
        JEFE,
        new_id(),
        sector_id=other,
        dealer="ana",
    )
    with pytest.raises(Exception) as caught:
        app.clock_in_dealer(
            Actor("cris", frozenset({Role.CRUPIER})), new_id(), sector_id=sector, dealer="x"
        )
    assert caught.value.code == "role_not_allowed"


def test_a_table_opening_gets_the_box_dealer_in_one_tap(room, clock):
    clock_in(room, "ana", "bea")
    table_id = open_table(room)
    push = current_plan(room).push_for(UUID(table_id).hex)
    assert (push.dealer_in, push.at, push.dealer_out) == ("ana", clock.now(), None)
    before = room.app.recorder.max_notification_id()
    answer = room.app.push_dealer(JEFE, new_id(), table_id=table_id, dealer="ana").result
    assert answer["dealer"] == "ana" and dealer_of(room, table_id) == "ana"
    pushed = events_of(room.app, ROSTER, "DealerPushed")[-1]
    assert (pushed.dealer_in, pushed.planned, pushed.reason, pushed.actor) == (
        "ana",
        True,
        None,
        "jaime",
    )
    # One tap: the roster's push and the table's dealer, under one command.
    new = [
        room.app.mapper.to_domain_event(n)
        for n in room.app.recorder.select_notifications(before + 1, 10)
    ]
    # (and the command's own record, the journal's)
    assert [type(e).__name__ for e in new] == ["DealerAssigned", "DealerPushed", "Recorded"]
    assert len({e.command_id for e in new}) == 1
    # The dealer's scope follows: ana reports at her table.
    from floor.application.staffing import check_table_in_reach

    check_table_in_reach(room.work(), "ana", Role.CRUPIER, table_id)


def test_the_next_down_pushes_the_relief_in_and_the_dealer_out_to_the_box_then_to_break(
    room, clock
):
    clock_in(room, "ana", "bea")
    table_id = open_table(room)
    room.app.push_dealer(JEFE, new_id(), table_id=table_id)
    # Too soon: the push is planned for the end of the down, but the jefe may
    # tap when the relief is there; the plan names when.
    push = current_plan(room).push_for(UUID(table_id).hex)
    assert (push.dealer_in, push.dealer_out, push.at) == ("bea", "ana", clock.now() + 30 * MIN)
    clock.advance(30 * MIN)
    answer = room.app.push_dealer(JEFE, new_id(), table_id=table_id).result
    assert (answer["dealer"], answer["relieved"], answer["relieved_to"]) == ("bea", "ana", "box")
    clock.advance(30 * MIN)
    push = current_plan(room).push_for(UUID(table_id).hex)
    assert (push.dealer_in, push.dealer_out, push.out_to) == ("ana", "bea", "box")
    room.app.push_dealer(JEFE, new_id(), table_id=table_id)
    clock.advance(30 * MIN)  # ana has dealt 60 minutes: she goes on break
    answer = room.app.push_dealer(JEFE, new_id(), table_id=table_id).result
    assert (answer["dealer"], answer["relieved"], answer["relieved_to"]) == ("bea", "ana", "break")
    roster = room.app.repository.get(DealerRoster.create_id())
    assert roster.dealers["ana"]["state"] == "break"


def test_a_push_the_plan_does_not_hold_is_refused(room):
    table_id = open_table(room, variant="omaha")
    clock_in(room, "ana")  # Hold'em only
    refused(room.app, "no_push_planned", room.app.push_dealer, JEFE, new_id(), table_id=table_id)
    clock_in(room, "bea", "cris", games=("omaha",))
    refused(
        room.app,
        "push_changed",
        room.app.push_dealer,
        JEFE,
        new_id(),
        table_id=table_id,
        dealer="cris",
    )
    room.app.push_dealer(JEFE, new_id(), table_id=table_id, dealer="bea")


def test_an_override_needs_a_reason_and_a_dealer_who_may_deal_the_game(room):
    app = room.app
    clock_in(room, "ana", "bea")
    clock_in(room, "olga", games=("omaha",))
    table_id = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=table_id)  # ana
    other = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=other)  # bea
    args = {"table_id": table_id, "dealer": "bea"}
    refused(
        app,
        "override_reason_required",
        app.override_dealer_push,
        JEFE,
        new_id(),
        reason="  ",
        **args,
    )
    refused(
        app,
        "override_reason_too_long",
        app.override_dealer_push,
        JEFE,
        new_id(),
        reason="x" * 201,
        **args,
    )
    refused(
        app, "dealer_at_another_table", app.override_dealer_push, JEFE, new_id(), reason="r", **args
    )
    refused(
        app,
        "dealer_may_not_deal_game",
        app.override_dealer_push,
        JEFE,
        new_id(),
        table_id=table_id,
        dealer="olga",
        reason="r",
    )
    refused(
        app,
        "dealer_already_at_table",
        app.override_dealer_push,
        JEFE,
        new_id(),
        table_id=table_id,
        dealer="ana",
        reason="r",
    )
    refused(
        app,
        "dealer_not_clocked_in",
        app.override_dealer_push,
        JEFE,
        new_id(),
        table_id=table_id,
        dealer="zoe",
        reason="r",
    )
    clock_in(room, "carla")
    answer = app.override_dealer_push(
        JEFE,
        new_id(),
        table_id=table_id,
        dealer="carla",
        reason="ana asked to leave early",
        to_break=True,
    ).result
    assert (answer["dealer"], answer["relieved"], answer["relieved_to"]) == (
        "carla",
        "ana",
        "break",
    )
    pushed = events_of(app, ROSTER, "DealerPushed")[-1]
    assert (pushed.planned, pushed.reason) == (False, "ana asked to leave early")
    assert dealer_of(room, table_id) == "carla"


def test_breaks_and_clocking_out_never_leave_a_table_bare(room, clock):
    app, sector = room.app, room.sector_id
    clock_in(room, "ana", "bea")
    table_id = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=table_id)  # ana
    refused(
        app,
        "dealer_still_dealing",
        app.send_dealer_on_break,
        JEFE,
        new_id(),
        sector_id=sector,
        dealer="ana",
    )
    refused(
        app,
        "dealer_still_dealing",
        app.clock_out_dealer,
        JEFE,
        new_id(),
        sector_id=sector,
        dealer="ana",
    )
    refused(
        app,
        "dealer_not_on_break",
        app.end_dealer_break,
        JEFE,
        new_id(),
        sector_id=sector,
        dealer="bea",
    )
    answer = app.send_dealer_on_break(JEFE, new_id(), sector_id=sector, dealer="bea").result
    assert answer["back_at"] == (clock.now() + 15 * MIN).isoformat()
    refused(
        app,
        "dealer_on_break",
        app.send_dealer_on_break,
        JEFE,
        new_id(),
        sector_id=sector,
        dealer="bea",
    )
    assert current_plan(room).back_at == {"bea": clock.now() + 15 * MIN}
    clock.advance(5 * MIN)
    app.end_dealer_break(JEFE, new_id(), sector_id=sector, dealer="bea")
    app.clock_out_dealer(JEFE, new_id(), sector_id=sector, dealer="bea")
    names = [type(e).__name__ for e in events_of(app, ROSTER)]
    assert names[-3:] == ["DealerBreakStarted", "DealerBreakEnded", "DealerClockedOut"]


def test_a_table_closing_re_plans_and_its_dealer_is_back_in_the_box(room, clock):
    app = room.app
    clock_in(room, "ana", "bea")
    first, second = open_table(room), open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=first)
    app.push_dealer(JEFE, new_id(), table_id=second)
    assert current_plan(room).pushes == ()  # nobody in the box to relieve
    app.close_table(JEFE, new_id(), table_id=first)
    clock.advance(30 * MIN)
    # The dealer of the closed table is back in the box and relieves the other.
    push = current_plan(room).push_for(UUID(second).hex)
    assert (push.dealer_in, push.dealer_out, push.at) == ("ana", "bea", clock.now())
    # While bea deals, she may not clock out; once relieved, she may.
    refused(
        app,
        "dealer_still_dealing",
        app.clock_out_dealer,
        JEFE,
        new_id(),
        sector_id=room.sector_id,
        dealer="bea",
    )
    app.push_dealer(JEFE, new_id(), table_id=second)
    app.clock_out_dealer(JEFE, new_id(), sector_id=room.sector_id, dealer="bea")
    assert dealer_of(room, second) == "ana"


def test_the_rotation_over_the_api(floor_app, api_as, make_user):
    jefe = api_as("jaime", "jefe_sector")
    make_user("ana", "crupier")
    room = Room(floor_app, tag="DA")
    sector = f"/api/sectors/{room.sector_id}/dealers/"

    def post(url: str, **body):
        return jefe.post(url, {"command_id": new_id(), **body}, format="json")

    # Only a crupier's account is a dealer.
    assert post(sector + "clock-in/", dealer="jaime", games=["omaha"]).status_code == 400
    answer = post(sector + "clock-in/", dealer="ana", games=["texas_holdem"])
    assert answer.status_code == 201, answer.json()
    assert answer.json()["result"]["games"] == ["texas_holdem"]
    table_id = open_table(room)
    pushed = post(f"/api/tables/{table_id}/dealer/push/", dealer="ana")
    assert pushed.status_code == 201, pushed.json()
    assert pushed.json()["table"]["dealer"] == "ana"
    refusal = post(f"/api/tables/{table_id}/dealer/override/", dealer="ana", reason="")
    assert (refusal.status_code, refusal.json()["code"]) == (400, "override_reason_required")
    refusal = post(sector + "break/", dealer="ana")
    assert (refusal.status_code, refusal.json()["code"]) == (409, "dealer_still_dealing")
    games = post("/api/dealers/games/", dealer="ana", games=["bridge"])
    assert (games.status_code, games.json()["code"]) == (400, "unknown_game")


def test_a_jefe_runs_the_dealers_of_his_sectors_only(room):
    app = room.app
    app.assign_jefes(DIRECTOR, new_id(), sector_id=room.sector_id, jefes=["jaime"])
    julia = Actor("julia", frozenset({Role.JEFE_SECTOR}))
    clock_in(room, "ana")
    table_id = open_table(room)
    refused(app, "not_your_sector", app.push_dealer, julia, new_id(), table_id=table_id)
    refused(
        app,
        "not_your_sector",
        app.send_dealer_on_break,
        julia,
        new_id(),
        sector_id=room.sector_id,
        dealer="ana",
    )
    app.push_dealer(DIRECTOR, new_id(), table_id=table_id)  # the director may


def test_the_roster_is_snapshotted_and_loads_the_same(room):
    app, sector = room.app, room.sector_id
    clock_in(room, "ana", "bea")
    for _ in range(30):  # 60 events: past the snapshot interval (50)
        app.send_dealer_on_break(JEFE, new_id(), sector_id=sector, dealer="bea")
        app.end_dealer_break(JEFE, new_id(), sector_id=sector, dealer="bea")
    snapshots = list(app.snapshots.get(DealerRoster.create_id()))
    assert snapshots, "the roster was not snapshotted"
    loaded = app.repository.get(DealerRoster.create_id())
    assert loaded.dealers["bea"]["state"] == "idle" and loaded.dealers["ana"]["games"]


# --- a dealer named by hand (staffing.assign_dealer) and the roster agree ----------


def roster_entry(room: Room, name: str) -> dict | None:
    found = room.work().find(DealerRoster, DealerRoster.create_id())
    return found.entry(name) if found is not None else None


def test_naming_a_dealer_by_hand_clocks_them_in_dealing_that_table(room, clock):
    table_id = open_table(room)
    room.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer="ana")

    entry = roster_entry(room, "ana")
    assert entry["state"] == "dealing" and entry["table_id"] == UUID(table_id).hex
    assert entry["sector_id"] == UUID(room.sector_id).hex
    assert entry["games"] == ["texas_holdem"]  # the table's, vouched by the jefe
    (named,) = events_of(room.app, ROSTER, "DealerNamedAtTable")
    assert named.clocked_in is True and named.relieved is None
    assert named.actor == JEFE.username
    # The box agrees with the card: nobody to push, nothing uncovered.
    current = current_plan(room)
    assert current.pushes == () and current.uncovered == ()
    # Named again: nothing new in the roster.
    room.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer="ana")
    assert len(events_of(room.app, ROSTER, "DealerNamedAtTable")) == 1


def test_naming_another_dealer_or_nobody_frees_the_previous_one_into_the_box(room, clock):
    table_id = open_table(room)
    clock_in(room, "bea", games=("omaha",))
    room.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer="ana")
    clock.advance(20 * MIN)

    room.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer="bea")

    ana, bea = roster_entry(room, "ana"), roster_entry(room, "bea")
    assert ana["state"] == "idle" and ana["table_id"] is None and ana["dealt"] == 20 * 60
    assert bea["state"] == "dealing" and bea["table_id"] == UUID(table_id).hex
    assert bea["games"] == ["omaha", "texas_holdem"]  # the table's game added to hers
    assert events_of(room.app, ROSTER, "DealerNamedAtTable")[-1].relieved == "ana"
    # The plan pushes ana back in after bea's down, not at once.
    (push,) = current_plan(room).pushes
    assert push.dealer_in == "ana" and push.dealer_out == "bea"

    room.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer=None)
    assert roster_entry(room, "bea")["state"] == "idle"
    assert dealer_of(room, table_id) is None
    # The table is without a dealer: the plan sends one from the box at once.
    (push,) = current_plan(room).pushes
    assert push.dealer_out is None and push.at == room.app.clock.now()


def test_naming_nobody_before_any_dealer_clocked_in_opens_no_roster(room):
    table_id = open_table(room)
    room.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer=None)
    assert events_of(room.app, ROSTER) == []


def test_a_dealer_on_break_named_by_hand_comes_back_to_deal(room, clock):
    table_id, other = open_table(room), open_table(room)
    clock_in(room, "ana", "bea")
    room.app.send_dealer_on_break(JEFE, new_id(), sector_id=room.sector_id, dealer="ana")
    room.app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer="ana")
    entry = roster_entry(room, "ana")
    assert entry["state"] == "dealing" and entry["dealt"] == 0
    # bea is still the box's, offered for the other table.
    assert [p.dealer_in for p in current_plan(room).pushes] == ["bea"]
    assert current_plan(room).pushes[0].table_id == UUID(other).hex


# --- a push never takes a dealer off another running table (GA art. 19) ---------------


def _named_at_open_tables(room: Room, *table_ids: str) -> dict[str, list[int]]:
    """Dealer -> the numbers of the open tables naming them."""
    named: dict[str, list[int]] = {}
    for table_id in table_ids:
        table = room.get(table_id)
        if table.dealer and table.status != "closed":
            named.setdefault(table.dealer, []).append(table.number)
    return named


def test_a_chained_push_waits_for_the_push_that_frees_its_dealer(room, clock):
    """GA art. 19: a dealer at every table at all times; a dealer deals one
    table [GA art. 19.1]. The plan chains the dealer who leaves table 1 at
    minute 30 into table 2 at minute 40: pushing table 2 now would take them
    off table 1 (which keeps naming them) and give their scope both tables,
    so it is refused (``dealer_at_another_table``), recording nothing, until
    table 1's push has freed them."""
    app = room.app
    clock_in(room, "ana", "bea", "carla")
    first = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=first)
    clock.advance(10 * MIN)
    second = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=second)
    at_first = dealer_of(room, first)
    push = current_plan(room).push_for(room.get(second).id.hex)
    assert push is not None and push.dealer_in == at_first and push.at > clock.now()
    code = "dealer_at_another_table"
    error = refused(app, code, app.push_dealer, JEFE, new_id(), table_id=second)
    assert error.params["table"] == 1 and error.params["dealer"] == at_first
    assert all(len(t) == 1 for t in _named_at_open_tables(room, first, second).values())
    # Once table 1's push has taken place, table 2's goes ahead.
    clock.advance(20 * MIN)
    app.push_dealer(JEFE, new_id(), table_id=first)
    assert dealer_of(room, first) != at_first
    app.push_dealer(JEFE, new_id(), table_id=second)
    assert dealer_of(room, second) == at_first
    assert all(len(t) == 1 for t in _named_at_open_tables(room, first, second).values())


def test_two_due_pushes_tapped_out_of_order_never_put_a_dealer_at_two_tables(room, clock):
    """GA art. 19: two downs ending at once are chained (bea relieves ana at
    table 1, ana relieves carla at table 2), both due now. Tapping table 2's
    first would move ana there while table 1 still names her: refused
    (``dealer_at_another_table``) until table 1's push is carried out."""
    app = room.app
    clock_in(room, "ana", "carla")
    first = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=first)
    second = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=second)
    clock_in(room, "bea")
    clock.advance(30 * MIN)
    at_first = dealer_of(room, first)
    plan = current_plan(room)
    push = plan.push_for(room.get(second).id.hex)
    assert push is not None and push.dealer_in == at_first and push.at == clock.now()
    assert plan.push_for(room.get(first).id.hex).at == clock.now()  # both due now
    refused(
        app,
        "dealer_at_another_table",
        app.push_dealer,
        JEFE,
        new_id(),
        table_id=second,
        dealer=at_first,
    )
    app.push_dealer(JEFE, new_id(), table_id=first)
    app.push_dealer(JEFE, new_id(), table_id=second, dealer=at_first)
    assert all(len(t) == 1 for t in _named_at_open_tables(room, first, second).values())


def test_the_dealer_the_jefe_named_at_a_running_table_cannot_clock_out(room):
    """GA art. 19: a dealer the jefe named on the table's card by hand
    (assign_dealer, recorded in the roster) is dealing: their shift does not
    end while the table runs on without anyone else (``dealer_still_dealing``)."""
    app = room.app
    clock_in(room, "ana")
    table_id = open_table(room)
    app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer="ana")
    refused(
        app,
        "dealer_still_dealing",
        app.clock_out_dealer,
        JEFE,
        new_id(),
        sector_id=room.sector_id,
        dealer="ana",
    )


def test_the_dealer_the_jefe_named_at_a_running_table_cannot_go_on_break(room):
    """GA art. 19: the only dealer of a running table, named there by hand,
    is relieved by a push before a break (``dealer_still_dealing``)."""
    app = room.app
    clock_in(room, "ana")
    table_id = open_table(room)
    app.assign_dealer(JEFE, new_id(), table_id=table_id, dealer="ana")
    refused(
        app,
        "dealer_still_dealing",
        app.send_dealer_on_break,
        JEFE,
        new_id(),
        sector_id=room.sector_id,
        dealer="ana",
    )


def test_an_override_never_takes_the_dealer_named_at_another_running_table(room):
    """GA art. 19: an override sending the dealer named by hand at table 1 to
    table 2 would leave table 1 without its dealer (``dealer_at_another_table``)."""
    app = room.app
    clock_in(room, "ana", "bea")
    first = open_table(room)
    second = open_table(room)
    app.assign_dealer(JEFE, new_id(), table_id=first, dealer="ana")
    app.assign_dealer(JEFE, new_id(), table_id=second, dealer="bea")
    refused(
        app,
        "dealer_at_another_table",
        app.override_dealer_push,
        JEFE,
        new_id(),
        table_id=second,
        dealer="ana",
        reason="bea is tired",
    )


# --- the games of a dealer at work ------------------------------------------------------


def test_a_dealers_games_never_drop_the_game_they_deal_now(room):
    """GA art. 19: a dealer at every table who may deal its game. Taking from
    ana the game of the table she deals now would leave it with a dealer who
    may not deal it: refused (``dealer_deals_game``), recording nothing; a
    game added keeps hers, and once relieved her games are hers to set."""
    app = room.app
    clock_in(room, "ana")
    table_id = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=table_id)
    assert dealer_of(room, table_id) == "ana"
    error = refused(
        app,
        "dealer_deals_game",
        app.set_dealer_games,
        JEFE,
        new_id(),
        dealer="ana",
        games=["omaha"],
    )
    assert error.params == {"dealer": "ana", "table": 1}
    answer = app.set_dealer_games(
        JEFE, new_id(), dealer="ana", games=["omaha", "texas_holdem"]
    ).result
    assert answer["games"] == ["omaha", "texas_holdem"]
    app.close_table(JEFE, new_id(), table_id=table_id)
    assert app.set_dealer_games(JEFE, new_id(), dealer="ana", games=["omaha"]).result["games"] == [
        "omaha"
    ]


def test_a_jefe_sets_the_games_only_of_dealers_in_his_sectors(room):
    """GA art. 19.1: a jefe acts on the sectors he runs. The games of a
    dealer clocked in at another jefe's sector are refused to him
    (``not_your_sector``, as every other dealer command), recording nothing;
    that sector's jefe and the director set them; a dealer off shift belongs
    to no sector."""
    app = room.app
    app.assign_jefes(DIRECTOR, new_id(), sector_id=room.sector_id, jefes=["jaime"])
    julia = Actor("julia", frozenset({Role.JEFE_SECTOR}))
    clock_in(room, "ana")
    table_id = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=table_id)
    both = ["omaha", "texas_holdem"]
    refused(app, "not_your_sector", app.set_dealer_games, julia, new_id(), dealer="ana", games=both)
    assert app.set_dealer_games(JEFE, new_id(), dealer="ana", games=both).result["games"] == both
    assert (
        app.set_dealer_games(DIRECTOR, new_id(), dealer="ana", games=both).result["games"] == both
    )
    app.set_dealer_games(julia, new_id(), dealer="bea", games=["omaha"])  # off shift


# --- a break cut short is not a break -------------------------------------------------


def _dealt(room: Room, name: str) -> int:
    return room.app.repository.get(DealerRoster.create_id()).dealers[name]["dealt"]


def test_a_break_cut_short_does_not_count_as_the_dealers_break(room, clock):
    """GA art. 19 and the house's rotation (DealerRotationRules: a 15-minute
    break after at most 60 minutes of dealing): ana, relieved to a break after
    45 minutes, is called back after one minute. That minute is not her
    break: her 45 minutes dealt stand (the pause counts neither as dealing
    nor as rest), so the plan does not send her in for another 30-minute
    down (it would take her to 75): bea stays on until a rested dealer can
    relieve her. A full break clears them."""
    app = room.app
    clock_in(room, "ana", "bea")
    table_id = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=table_id)
    assert dealer_of(room, table_id) == "ana"
    clock.advance(45 * MIN)
    answer = app.push_dealer(JEFE, new_id(), table_id=table_id).result  # bea relieves her
    assert (answer["relieved"], answer["relieved_to"]) == ("ana", "break")
    clock.advance(1 * MIN)
    app.end_dealer_break(JEFE, new_id(), sector_id=room.sector_id, dealer="ana")
    assert _dealt(room, "ana") == 45 * 60
    clock.advance(29 * MIN)  # bea's down is over
    plan = current_plan(room)
    push = plan.push_for(room.get(table_id).id.hex)
    assert push is None  # ana, the only one in the box, is due a break first
    # A full break (the house's 15 minutes) is her rest.
    app.send_dealer_on_break(JEFE, new_id(), sector_id=room.sector_id, dealer="ana")
    clock.advance(15 * MIN)
    app.end_dealer_break(JEFE, new_id(), sector_id=room.sector_id, dealer="ana")
    assert _dealt(room, "ana") == 0


def test_a_dealer_pushed_in_from_a_short_break_keeps_their_time_dealt(room, clock):
    """GA art. 19: the jefe may send a dealer back from break to a table
    early (an override, with its reason), but the minutes they dealt before
    it stand: the break was not had."""
    app = room.app
    clock_in(room, "ana", "bea")
    table_id = open_table(room)
    app.push_dealer(JEFE, new_id(), table_id=table_id)
    clock.advance(45 * MIN)
    app.push_dealer(JEFE, new_id(), table_id=table_id)  # ana on break
    clock.advance(5 * MIN)
    app.override_dealer_push(
        JEFE, new_id(), table_id=table_id, dealer="ana", reason="bea is called away"
    )
    assert dealer_of(room, table_id) == "ana" and _dealt(room, "ana") == 45 * 60
