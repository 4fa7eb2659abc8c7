"""The seat a called player takes (CM-3): the domain decides, the console asks."""

from __future__ import annotations

from floor.domain.draws import seat_to_take


def test_a_called_player_takes_the_seat_called():
    assert seat_to_take(4, draw_open=False) == 4


def test_while_the_draw_is_open_the_seat_is_drawn_not_named():
    """CM-3: every seat taken while the draw is open is drawn among the free
    ones, so the console's button names none."""
    assert seat_to_take(4, draw_open=True) is None


def test_a_player_not_called_to_a_seat_takes_none():
    assert seat_to_take(None, draw_open=False) is None
    assert seat_to_take(None, draw_open=True) is None
