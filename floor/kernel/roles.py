"""Who may do what on the floor.

The roles are the casino's jobs. Which role may issue which command is a rule of
the floor (the director opens sectors, the jefe de sector runs the tables
[GA art. 19.1]), so it lives here and not in a view.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from floor.kernel.errors import forbidden


class Role(StrEnum):
    JEFE_SECTOR = "jefe_sector"
    CAJERO = "cajero"
    CRUPIER = "crupier"
    DIRECTOR = "director"
    INSPECTOR = "inspector"
    # The service's own clock: fires the deadlines the events recorded. No
    # person holds it; timers act under it (DESIGN.md, Time and timers).
    CLOCK = "clock"


# Command name -> the roles that may issue it, in order of preference.
_JEFE = (Role.JEFE_SECTOR,)
# The dealer reports hands; in a small room the jefe does it [DESIGN.md].
_TABLE_REPORTERS = (Role.CRUPIER, Role.JEFE_SECTOR)

COMMAND_ROLES: dict[str, tuple[Role, ...]] = {
    "open_sector": (Role.DIRECTOR,),
    "open_table": _JEFE,
    # Who runs what [GA art. 19.1]: the director names a sector's jefes; the
    # jefe (or the director) names a table's dealer.
    "assign_jefes": (Role.DIRECTOR,),
    "assign_dealer": (Role.JEFE_SECTOR, Role.DIRECTOR),
    # Players: the jefe or the cage registers them; barring is the jefe's or
    # the director's call.
    "register_player": (Role.JEFE_SECTOR, Role.CAJERO),
    "bar_player": (Role.JEFE_SECTOR, Role.DIRECTOR),
    "lift_bar": (Role.JEFE_SECTOR, Role.DIRECTOR),
    # The jefe keeps the list and assigns seats [GA art. 19.1].
    "join_waiting_list": _JEFE,
    "leave_waiting_list": _JEFE,
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
    "request_tray_move": _JEFE,
    "confirm_tray_move": (Role.CAJERO,),
    "cancel_tray_move": (Role.JEFE_SECTOR, Role.CAJERO),
    "take_chips_off": _TABLE_REPORTERS,
    "create_jackpot": (Role.DIRECTOR,),
    "stake_jackpot": _TABLE_REPORTERS,
    "pay_jackpot": _TABLE_REPORTERS,
    # Deadlines firing [PT 24; CM-6, CM-18, CM-22, CM-24; GA art. 18.3b]: the clock only.
    "expire_suspension": (Role.CLOCK,),
    "expire_call": (Role.CLOCK,),
    "warn_action_clock": (Role.CLOCK,),
    "expire_action_clock": (Role.CLOCK,),
    "warn_absence": (Role.CLOCK,),
    "expire_absence": (Role.CLOCK,),
    "strike_session_hour": (Role.CLOCK,),
    "start_last_hands": (Role.CLOCK,),
}


@dataclass(frozen=True)
class Actor:
    """A person issuing a command, with every floor role they hold."""

    username: str
    roles: frozenset[Role]

    def may(self, command: str) -> bool:
        """Whether this actor holds a role that may issue ``command``."""
        return any(role in self.roles for role in COMMAND_ROLES.get(command, ()))

    def role_for(self, command: str) -> Role:
        """The role under which this actor may issue ``command``, or refuse."""
        allowed = COMMAND_ROLES.get(command)
        if allowed is None:
            raise LookupError(f"no roles are declared for command {command!r}")
        for role in allowed:
            if role in self.roles:
                return role
        raise forbidden(
            "role_not_allowed",
            f"{self.username} may not {command.replace('_', ' ')}: it needs the "
            f"role {' or '.join(allowed)}.",
            command=command,
            roles=[str(role) for role in allowed],
        )


def runs_sector(username: str, jefes: list[str] | tuple[str, ...]) -> bool:
    """Whether a jefe runs a sector with these named jefes [GA art. 19.1]: one
    of them, or any jefe while the director has named none."""
    return not jefes or username in jefes
