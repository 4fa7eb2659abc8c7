"""A seat's state as a value (floor.domain.seat): stored as the same dict as
before it existed, so snapshots keep their shape, and the one declaration the
read model and the API show their seat flags from."""

from __future__ import annotations

from floor.domain.seat import SEAT_FLAGS, Seat

# A seat's stored keys, in order: those the snapshots before issue 21 hold,
# then the absence asked for after the hand (issue 22, Table version 5).
STORED_KEYS = (
    "player_id", "stack", "newcomer", "posts_big_blind", "resting", "rested_hands", "rests",
    "idle_hands", "owes_cents", "must_rebuy", "must_leave", "must_post_big_blind",
    "rest_exceeded", "played_hand", "away", "time_due", "away_after_hand", "moved_from",
    "arrival",
)  # fmt: skip
# The flags the floor's views show (docs/openapi.yaml's Seat), in order; issue
# 22 added played_hand and away_after_hand, and moved_from (its corrections);
# issue 24 arrival (the order a must-move table's players move in, Table version 7).
SHOWN = (
    "newcomer", "posts_big_blind", "resting", "rested_hands", "idle_hands", "owes_cents",
    "must_rebuy", "must_leave", "must_post_big_blind", "rest_exceeded", "played_hand", "away",
    "time_due", "away_after_hand", "moved_from", "arrival",
)  # fmt: skip


def test_a_seat_is_stored_as_the_same_dict_as_before():
    sat = Seat.sit("ab" * 16, newcomer=True, posts_big_blind=False)
    stored = sat.to_state()
    assert tuple(stored) == STORED_KEYS
    assert stored == {
        "player_id": "ab" * 16,
        "stack": 0,
        "newcomer": True,
        "posts_big_blind": False,
        "resting": False,
        "rested_hands": 0,
        "rests": 0,
        "idle_hands": 0,
        "owes_cents": 0,
        "must_rebuy": False,
        "must_leave": "",
        "must_post_big_blind": False,
        "rest_exceeded": False,
        "played_hand": False,
        "away": None,
        "time_due": False,
        "away_after_hand": False,
        "moved_from": None,
        "arrival": None,
    }
    away = {"warned": False, "posting_blinds": True}
    changed = Seat.from_state(stored).but(stack=500, away=away)
    assert Seat.from_state(changed.to_state()) == changed
    assert changed.on_clock_posting_blinds
    assert stored["stack"] == 0  # a value: the stored dict is not changed under it


def test_the_views_show_the_flags_declared_on_the_seat():
    assert SEAT_FLAGS == SHOWN


def test_a_stored_seat_owns_its_dicts_as_asdict_gave_them():
    """``to_state`` skips ``dataclasses.asdict``'s walk (issue 23) but stores
    the same dict, and the clock's and the move's dicts as copies: changing
    the stored seat never changes the value it came from."""
    from dataclasses import asdict

    away = {"since": "2026-11-22T20:00:00+00:00", "warned": False, "posting_blinds": False}
    moved = {"table": "cd" * 16, "seat": 3, "kind": "move", "played": False}
    seat = Seat.sit("ab" * 16, newcomer=False, posts_big_blind=False).but(
        away=away, moved_from=moved, stack=1500
    )
    stored = seat.to_state()
    assert stored == asdict(seat) and tuple(stored) == STORED_KEYS
    stored["away"]["warned"] = True
    stored["moved_from"]["played"] = True
    assert seat.away == away and away["warned"] is False
    assert seat.moved_from["played"] is False


def test_a_seat_changed_in_its_stored_form_is_what_the_value_gives():
    """``Seat.changed`` (a table's fold, issue 23) gives the dict that
    ``from_state(...).but(...).to_state()`` gives, its own copies of the
    dicts, old and new; a stored seat of an older shape (keys missing) gets
    the missing fields filled in, as the value does."""
    away = {"since": "2026-11-22T20:00:00+00:00", "warned": False, "posting_blinds": False}
    stored = Seat.sit("ab" * 16, newcomer=True, posts_big_blind=False).but(away=away).to_state()
    moved = {"table": "cd" * 16, "seat": 3, "kind": "move", "played": False}
    changes = {"stack": 2500, "resting": True, "moved_from": moved}
    changed = Seat.changed(stored, **changes)
    assert changed == Seat.from_state(stored).but(**changes).to_state()
    assert tuple(changed) == STORED_KEYS
    changed["away"]["warned"] = True
    changed["moved_from"]["played"] = True
    assert stored["away"]["warned"] is False and moved["played"] is False
    assert stored["stack"] == 0  # the stored dict is not changed under it

    older = {key: stored[key] for key in STORED_KEYS[:14]}  # before issue 21's fields
    assert Seat.changed(older, stack=100) == Seat.from_state(older).but(stack=100).to_state()
    assert tuple(Seat.changed(older, stack=100)) == STORED_KEYS


def test_a_stored_seats_field_is_read_as_its_value_holds_it():
    """``Seat.stored`` (a hand's fold reads a few fields of each dealt-in
    seat without making its value, issue 23) gives what ``from_state``'s
    value holds, its default where an older seat lacks the field."""
    moved = {"table": "cd" * 16, "seat": 3, "kind": "move", "played": False}
    stored = (
        Seat.sit("ab" * 16, newcomer=True, posts_big_blind=False)
        .but(idle_hands=3, moved_from=moved)
        .to_state()
    )
    older = {key: stored[key] for key in STORED_KEYS[:14]}  # before issue 21's fields
    for state in (stored, older):
        seat = Seat.from_state(state)
        for name in STORED_KEYS:
            assert Seat.stored(state, name) == getattr(seat, name)
