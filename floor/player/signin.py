"""A player's sign-in: card number and PIN, or a one-time code from the desk.

A registered player's sign-in is a Django user named ``player_username(card)``
in the group "player" only: never staff, never another group, so no console,
admin page or API lets it in (floor.player.fence, floor.logins.DoorBackend).
The user is made when the desk (a jefe or the cage, who register players)
first gives the player a code.

- The code: random (``CODE_LENGTH`` characters of an alphabet without 0/O or
  1/I, about 40 bits), shown once to the desk, valid for
  ``FLOOR_PLAYER_CODE_MINUTES``, kept only as a hash (Django's password
  hashers), spent at its first use; a new code replaces the player's older
  ones. Giving it is the floor's event Player.SignInCodeIssued (who, when,
  until when; never the code).
- The PIN: chosen by the player at the sign-in a code opened; 6 to 8 digits,
  not one digit repeated nor a straight run (1234, 9876), which are the
  first guesses; kept as the user's password (Django's hashers).
- Wrong codes and PINs count towards django-axes' lockout of the user name
  and the address, as the staff's passwords do (floor.logins); a director
  lifts it as any other lockout (its user name is ``player-<card>``).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.contrib.auth.models import Group
from django.db import transaction

from floor.application.player_self import card_of, player_username
from floor.kernel.errors import conflict
from floor.kernel.web.gateway import ReadModelsBehind, perform
from floor.kernel.web.host import host
from floor.logins import (
    PLAYER_GROUP,
    at_player_door,
    current_lockouts,
    is_player_user,
    refuse_if_barred,
)
from floor.models import PlayerSignInCode
from floor.selectors import players as player_reads

# Letters and digits that cannot be misread for one another (no 0/O, 1/I).
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
# Six digits at least (cross review): against the lockout that lifts itself
# after FLOOR_LOGIN_COOLOFF_MINUTES, four digits left a guessing player about
# one chance in twenty a day of some short card number's PIN.
PIN_MIN_DIGITS, PIN_MAX_DIGITS = 6, 8
DIGITS = "0123456789"


def floor_now() -> datetime:
    """The floor's time (its application's clock, which tests inject): a code
    lasts until the time the floor recorded in its event, by the same clock."""
    return host().application().clock.now()


def code_minutes() -> int:
    """How long a code lasts (FLOOR_PLAYER_CODE_MINUTES, 15 by default)."""
    return int(getattr(settings, "FLOOR_PLAYER_CODE_MINUTES", 15))


def new_code() -> str:
    """A fresh random code (``secrets``: not guessable from earlier ones)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: object) -> str:
    """A code as typed (any case, with spaces or a dash) as it was made."""
    return "".join(str(text).split()).replace("-", "").upper() if isinstance(text, str) else ""


def shown_code(code: str) -> str:
    """A code as the desk reads it out: two groups of four (``ABCD-EF23``)."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def pin_refusal(pin: object) -> str | None:
    """Why a PIN may not be chosen (a code of floor.messages), None when it may:
    6 to 8 digits, not one digit repeated, not a straight run up or down."""
    if not isinstance(pin, str) or not pin.isascii() or not pin.isdigit():
        return "pin_format"
    if not PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS:
        return "pin_format"
    if len(set(pin)) == 1:
        return "pin_same_digit"
    if pin in DIGITS or pin in DIGITS[::-1]:
        return "pin_straight_run"
    return None


def is_pure_player(user: Any) -> bool:
    """A player's sign-in as it must be: the player group only, no staff flag."""
    names = set(user.groups.values_list("name", flat=True))
    return names == {PLAYER_GROUP} and not user.is_staff and not user.is_superuser


def player_card(user: Any) -> str | None:
    """The card of the signed-in player, None for anyone else (staff, anonymous,
    a user in the player group with any other group or flag)."""
    if not is_player_user(user) or not is_pure_player(user):
        return None
    return card_of(user.get_username())


def issue_code(desk_user: Any, card_number: str, command_id: str) -> dict[str, Any]:
    """The desk gives a registered player a one-time code: recorded on the
    floor as the desk's command (refused: nothing kept), then the player's
    sign-in made if new, and the code's hash kept. The code is returned to
    be shown once; it is nowhere else in clear."""
    username = player_username(card_number)
    user_model = get_user_model()
    existing = user_model.objects.filter(username=username).first()
    if existing is not None and not is_pure_player(existing):
        # A staff member's user name cannot become a player's sign-in.
        raise conflict("player_sign_in_taken", username=username)
    try:
        outcome = perform(
            "issue_sign_in_code",
            desk_user,
            command_id,
            player=card_number,
            valid_minutes=code_minutes(),
        )
    except ReadModelsBehind as behind:
        # Recorded: the code needs no read model, so it is made all the same.
        outcome = behind.outcome
    expires_at = datetime.fromisoformat(outcome.result["expires_at"])
    if outcome.replayed:
        # The same command again (a retry, a reloaded page): nothing recorded
        # again, and the code given then stays the one that opens: it may be
        # in the player's hand. It was shown once; a lost one is a new command.
        return {
            "card_number": outcome.result["card_number"],
            "player_id": outcome.result["player_id"],
            "code": None,
            "expires_at": expires_at,
            "repeated": True,
        }
    code = new_code()
    with transaction.atomic():
        user = existing or _new_player_user(username)
        PlayerSignInCode.objects.filter(username=username).delete()
        PlayerSignInCode.objects.create(
            username=user.get_username(),
            code_hash=make_password(code),
            issued_at=floor_now(),
            expires_at=expires_at,
            issued_by=desk_user.get_username(),
        )
    return {
        "card_number": outcome.result["card_number"],
        "player_id": outcome.result["player_id"],
        "code": shown_code(code),
        "expires_at": expires_at,
        "repeated": False,
    }


def _new_player_user(username: str) -> Any:
    """A player's sign-in: no password (PIN) yet, the player group only."""
    user = get_user_model().objects.create_user(username=username, password=None)
    user.groups.set([Group.objects.get_or_create(name=PLAYER_GROUP)[0]])
    return user


class PlayerCodeBackend:
    """Signs a player in with the desk's one-time code, at the player's page only.

    After floor.logins' LockoutBackend (axes) and DoorBackend (the PIN): a
    wrong code is one more failure for axes, as a wrong PIN is. The code is
    spent here, in the same transaction that finds it, so two sign-ins with
    one code cannot both pass.

    A bar voids the code (issue 24 leftover): a code given before the
    player's last bar opens nothing, even once the bar is lifted (the desk
    gives a new one), and a barred player's right code is spent and refused
    with the reason (floor.logins.refuse_if_barred). Checked here, at the
    door, rather than by deleting codes when the bar is recorded: the bar is
    a floor command that touches no sign-in table, and the journal says when
    it came."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if not at_player_door(request) or not username or card_of(str(username)) is None:
            return None
        typed = clean_code(password)
        if len(typed) != CODE_LENGTH:
            return None
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None or not is_pure_player(user):
            make_password(typed)  # as long as a check: no card told by the time taken
            return None
        now = floor_now()
        with transaction.atomic():
            code = (
                PlayerSignInCode.objects.select_for_update()
                .filter(username=username, used_at__isnull=True, expires_at__gt=now)
                .first()
            )
            if code is None:
                # The same hashing a code's check costs: the time taken does
                # not tell whether this card holds an unused code (cross review).
                make_password(typed)
                return None
            if not check_password(typed, code.code_hash):
                return None
            code.used_at = now
            code.save(update_fields=["used_at"])
        refuse_if_barred(request, str(username))
        barred_at = player_reads.last_barred_at(card_of(str(username)))
        if barred_at is not None and code.issued_at <= barred_at:
            return None  # voided by a bar since lifted: as a wrong code
        return user

    def get_user(self, user_id):
        return get_user_model().objects.filter(pk=user_id, is_active=True).first()


def lockout_lifts_at(username: str, ip_address: str | None) -> datetime | None:
    """When a locked-out sign-in (its user name, or its address) may try again."""
    times = [
        row["lifts_at"]
        for row in current_lockouts()
        if (row["kind"] == "username" and row["value"] == username)
        or (row["kind"] == "ip_address" and row["value"] == ip_address)
    ]
    return max(times) if times else None
