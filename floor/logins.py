"""Logging in: the lockout after wrong passwords, and API tokens that end.

Two libraries do the work (README, "Logging in"):

- django-axes counts failed logins on both doors (the console's login page and
  the API's token endpoint): after ``AXES_FAILURE_LIMIT`` failures a user name,
  and after ``FLOOR_LOGIN_ADDRESS_FAILURE_LIMIT`` a client address, is locked
  out until ``AXES_COOLOFF_TIME`` has passed since its last failure, or until a
  director lifts it. Axes keeps
  the audit: every failure (AccessFailureLog, marked when it locked), every
  login (AccessLog) and the running counts (AccessAttempt).
- django-rest-knox issues API tokens that last a shift (``FLOOR_TOKEN_HOURS``),
  stores only their digest, and revokes them on logout. A changed password
  revokes every token of its user (here: knox has no hook for it). Expired
  tokens are refused when used and deleted by beat's hourly sweep
  (``sweep_expired_tokens``), not by every request (issue 23).

This module holds the few pieces of glue the libraries leave to the project:
the lockout's answer in our shape and language, the console's login form that
says why, the lockout report and its lifting, and the revocation on a password
change.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Max, Sum
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication
from knox.models import AuthToken
from knox.signals import token_expired

from floor.application.player_self import card_of
from floor.kernel.roles import Role
from floor.selectors import players as player_reads

logger = logging.getLogger("floor.logins")

LOCKED_MESSAGE = _(
    "Too many wrong passwords: this user or this device may not log in for "
    "%(minutes)s minutes after the last attempt, or until a director lifts the lockout."
)
LOGIN_FAILED_MESSAGE = _("Wrong user name or password.")


def cool_off_minutes() -> int:
    """The cool-off, in whole minutes, as the messages and the report say it."""
    return round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)


def locked_message() -> str:
    """Why a login is refused while locked out, in the active language."""
    return str(LOCKED_MESSAGE) % {"minutes": cool_off_minutes()}


def locked_body() -> dict[str, object]:
    """The API's refusal of a locked-out login (the shape of every refusal)."""
    return {"code": "login_locked", "message": locked_message()}


def is_locked_out(request: Any) -> bool:
    """Whether axes refused (or just locked) the login this request attempted.

    Axes marks the request it was given; the API passes DRF's request, the
    console Django's, so either carries the mark.
    """
    return bool(getattr(request, "axes_locked_out", False))


class LockoutBackend(AxesStandaloneBackend):
    """Axes' backend, first in AUTHENTICATION_BACKENDS, for logins that come with
    a request (both doors pass theirs; tests check the lockout on each).

    A login with no request has no client to count or lock (Django's test
    client, a shell): axes' own backend refuses to run then; this one lets the
    password check go on, as without axes.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


# The Django group that makes a user a player (Role.PLAYER's value, issue 24): a
# player's sign-in holds it and no other group, and is never staff.
PLAYER_GROUP = Role.PLAYER.value
# Set on a request by the player's sign-in page (floor.player): the one door a
# player's user name and PIN open.
PLAYER_DOOR = "floor_player_door"


def is_player_user(user: Any) -> bool:
    """Whether ``user`` is a player's sign-in: in the player group. Such a user
    gets into the player's page only, never the consoles, admin or API."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    known = getattr(user, "_floor_is_player", None)
    if known is None:
        known = user.groups.filter(name=PLAYER_GROUP).exists()
        user._floor_is_player = known
    return known


def at_player_door(request: Any) -> bool:
    """Whether ``request`` is a sign-in at the player's page."""
    return bool(getattr(request, PLAYER_DOOR, False))


# Set on a sign-in request whose card number and PIN or code were right but
# whose player is barred: the player's page says so (floor.player.views).
PLAYER_BARRED = "floor_player_barred"


def refuse_if_barred(request: Any, username: str) -> None:
    """A barred player signs in to nothing (they may not register for a game
    nor sit, floor.domain.player; issue 24's player page): raises PermissionDenied,
    which stops Django's authentication at once (no other backend tries the
    secret) and counts as a failed sign-in for axes, and marks the request so
    the page can say why. Called only once the secret was found right, so a
    wrong guess learns nothing of the bar."""
    card = card_of(username)
    if card is not None and player_reads.is_barred(card):
        setattr(request, PLAYER_BARRED, True)
        raise PermissionDenied("player_barred")


def refused_as_barred(request: Any) -> bool:
    """Whether ``refuse_if_barred`` refused this sign-in."""
    return bool(getattr(request, PLAYER_BARRED, False))


class DoorBackend(ModelBackend):
    """Django's password check, each door for its own people: the staff's
    login page and the API's token endpoint let no player in (a player's PIN
    there is a wrong password, counted by axes), and the player's page lets
    no staff member in, nor a barred player (``refuse_if_barred``). The
    player's page marks its requests (PLAYER_DOOR)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None or is_player_user(user) != at_player_door(request):
            return None
        if at_player_door(request):
            refuse_if_barred(request, user.get_username())
        return user


def failure_limit(parameter: str) -> int:
    """Failures before a lockout: of a user name, or of an address (higher, as
    several people may log in from one PC or one network address)."""
    if parameter == "ip_address":
        return settings.FLOOR_LOGIN_ADDRESS_FAILURE_LIMIT
    return settings.AXES_FAILURE_LIMIT


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler (AXES_HANDLER) with a limit for each lockout
    parameter: axes has one limit for all, so an address would lock after as
    few failures as a user name, and five typos on a shared PC would lock every
    user of it out, the director who lifts lockouts too.

    Axes compares ``get_failures`` with AXES_FAILURE_LIMIT; here each
    parameter's failures are put on that scale (an address reaches it at its
    own limit), and the highest is what axes compares.
    """

    def get_failures(self, request, credentials: dict | None = None) -> int:
        parameters = get_lockout_parameters(request, credentials)
        attempts = self.get_user_attempts(request, credentials)
        scaled = [0]
        for parameter, rows in zip(parameters, attempts, strict=True):
            failures = rows.aggregate(n=Sum("failures_since_start"))["n"] or 0
            limit = failure_limit(parameter) if isinstance(parameter, str) else None
            if limit:
                failures = failures * settings.AXES_FAILURE_LIMIT // limit
            scaled.append(failures)
        return max(scaled)


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """Axes' AXES_LOCKOUT_CALLABLE: the answer to a login refused for a lockout.

    The console's login page and the token endpoint already answer a lockout
    themselves (an inline message; a 429 ``login_locked``), so their answer
    stands, with axes' status. Anything else that logs in gets the API's body.
    """
    if isinstance(original_response, HttpResponse):
        original_response.status_code = settings.AXES_HTTP_RESPONSE_CODE
        return original_response
    return JsonResponse(locked_body(), status=settings.AXES_HTTP_RESPONSE_CODE)


@receiver(user_locked_out)
def log_lockout(sender: Any, request: Any, username: str | None, ip_address: str | None, **_):
    """A line in the service's log for each refused or locking attempt (axes keeps
    the rows: AccessFailureLog with ``locked_out``)."""
    logger.warning("login locked out: user %r from %s", username, ip_address)


def drop_session_made_for_axes(request: Any) -> None:
    """Axes names a login in its AccessLog by the session, and makes one when the
    request has none; an API client came without one and wants none (no session
    row, no cookie per token). A request that brought a session keeps it."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        request.session.flush()


# --- the console -------------------------------------------------------------------


class LoginForm(AuthenticationForm):
    """Django's login form, saying so when the login is refused for a lockout."""

    error_messages = {**AuthenticationForm.error_messages, "invalid_login": LOGIN_FAILED_MESSAGE}

    def get_invalid_login_error(self) -> ValidationError:
        if is_locked_out(self.request):
            return ValidationError(locked_message(), code="login_locked")
        return super().get_invalid_login_error()


class ConsoleLoginView(LoginView):
    """The console's login page (/accounts/login/), with the lockout message."""

    authentication_form = LoginForm


# --- tokens ------------------------------------------------------------------------


def issue_token(user: Any) -> tuple[AuthToken, str]:
    """A new API token for ``user``: its record and the secret (shown once).

    The token endpoint, the tests and the bench all get theirs here, so a
    token is always knox's, with the shift's lifetime.
    """
    return AuthToken.objects.create(user=user)


class ShiftTokenAuthentication(TokenAuthentication):
    """knox's token authentication, less its housekeeping on every request.

    knox (5.1) reads every token of the user on every authenticated request to
    delete the expired ones among them: a query per API call, half a
    millisecond of the web side's CPU per command on the bench (issue 23),
    spent on rows nobody reads (the token list shows only live tokens). Here
    a request checks only its own token: expired, it is deleted and refused,
    as knox does. The others go in beat's sweep (``sweep_expired_tokens``).
    """

    def _cleanup_token(self, auth_token: Any) -> bool:
        """True (and the token deleted) when the request's own token has expired."""
        if auth_token.expiry is None or auth_token.expiry >= timezone.now():
            return False
        username = auth_token.user.get_username()
        auth_token.delete()
        token_expired.send(sender=self.__class__, username=username, source="auth_token")
        return True


def sweep_expired_tokens(now: datetime | None = None) -> int:
    """Deletes every API token whose shift has ended (beat, hourly); how many.
    They already authenticate nothing: this only keeps the table small."""
    count, _ = AuthToken.objects.filter(expiry__lt=now or timezone.now()).delete()
    return count


def revoke_tokens(user: Any) -> int:
    """Deletes every API token of ``user``; how many there were."""
    count, _ = AuthToken.objects.filter(user=user).delete()
    return count


@receiver(pre_save, sender=get_user_model())
def _note_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Remembers whether this save changes the stored password (any way: set_password,
    changepassword, a form, an unusable password). A new hash of the same password
    after a hasher upgrade counts too: the user logs in again, no harm."""
    if instance.pk is None or kwargs.get("raw"):
        instance._floor_password_changed = False
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance._floor_password_changed = stored is not None and stored != instance.password


@receiver(post_save, sender=get_user_model())
def _revoke_tokens_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A changed password ends every API token of its user. (The console's other
    sessions end by themselves: Django ties a session to the password's hash.)"""
    if getattr(instance, "_floor_password_changed", False):
        instance._floor_password_changed = False
        revoked = revoke_tokens(instance)
        if revoked:
            logger.info("password of %s changed: %d API tokens revoked", instance, revoked)


# --- the lockout report and its lifting ---------------------------------------------


def current_lockouts(now: datetime | None = None) -> list[dict[str, object]]:
    """Each user name and each address locked out now, with its failures and when
    the lockout lifts by itself (the last failure plus the cool-off).

    Counted as axes counts (its database handler): the failures within the
    cool-off, summed over every attempt row of that user name, or of that address.
    """
    now = now or timezone.now()
    cool_off = settings.AXES_COOLOFF_TIME
    recent = AccessAttempt.objects.filter(attempt_time__gte=now - cool_off)
    locked = []
    for parameter in settings.AXES_LOCKOUT_PARAMETERS:
        if not isinstance(parameter, str):
            continue  # combined parameters are not used here (settings)
        rows = (
            recent.exclude(**{f"{parameter}__isnull": True})
            .values(parameter)
            .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
            .filter(failures__gte=failure_limit(parameter))
            .order_by(parameter)
        )
        for row in rows:
            locked.append(
                {
                    "kind": parameter,
                    "value": row[parameter],
                    "failures": row["failures"],
                    "last_failure_at": row["last"],
                    "lifts_at": row["last"] + cool_off,
                }
            )
    return locked


def lift_lockout(*, username: str | None, ip_address: str | None, lifted_by: Any) -> int:
    """Clears the failed logins of a user name and/or an address (axes' reset), so
    they may log in at once; logs who lifted it. How many attempt rows were cleared."""
    cleared = 0
    if username:
        cleared += axes_reset(username=username)
    if ip_address:
        cleared += axes_reset(ip=ip_address)
    logger.warning(
        "login lockout lifted by %s: user %r, address %r (%d attempt records cleared)",
        lifted_by,
        username,
        ip_address,
        cleared,
    )
    return cleared
