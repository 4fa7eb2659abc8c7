"""The player's page (issue 24): sign in, the games running, one's own entries,
joining and leaving lists. Mobile web, phone first, es/gl/pt/en.

Every act is a floor command run through the consoles' gateway
(floor.kernel.web.gateway.perform) as the signed-in player's user, so the
event names the player as actor. The player the command names is always the
signed-in one's card, taken from the session, never from the form: a forged
form naming another card changes nothing (the command's policy refuses a
player acting for another too, floor.application.player_self).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from floor.amounts import money
from floor.domain.game import Game
from floor.domain.waiting_list import CALL_ANSWERS, COMING, FIVE_MORE, NOT_COMING
from floor.forms import LIMIT_LABELS, VARIANT_LABELS
from floor.kernel.errors import DomainError, invalid
from floor.kernel.service import Outcome
from floor.kernel.web.gateway import ReadModelsBehind, ServiceUnavailable, perform
from floor.kernel.web.host import host
from floor.kernel.web.live import server_now
from floor.logins import PLAYER_DOOR, is_locked_out, refused_as_barred
from floor.notifications import contacts
from floor.player import signin
from floor.player.forms import AskForGameForm
from floor.selectors import balancing, waits
from floor.selectors import players as player_reads
from floor.selectors import tables as table_reads
from floor.selectors.player_hours import hours_of_players
from games.errors import RuleViolation
from games.limits import small_blind_for
from games.variants import VARIANTS, Variant

# Set in the session by a sign-in with the desk's code: the player chooses a PIN first.
MUST_CHOOSE_PIN = "floor_player_must_choose_pin"
# A player joins at most this many lists in one go (a form is hostile input).
MOST_GAMES_AT_ONCE = 8
SIGN_IN_FAILED = gettext_lazy("Wrong card number, PIN or code.")
LOCKED_UNTIL = gettext_lazy(
    "Too many wrong attempts: you may try again at %(time)s, or ask the desk "
    "to have the lockout lifted."
)
NO_ANSWER = gettext_lazy("The service did not answer; try again.")
BARRED = gettext_lazy(
    "You are barred from the room, so you cannot use the player's page. Ask at the desk."
)
# The called player's answers (answer_call, floor.application.player_lists) [CM-6].
ANSWER_LABELS = {
    COMING: gettext_lazy("I'm coming"),
    FIVE_MORE: gettext_lazy("I need 5 more minutes"),
    NOT_COMING: gettext_lazy("I'm not coming"),
}


# --- reading -------------------------------------------------------------------------


def banked(variant: str) -> bool:
    """Whether the house banks this game: a minimum and maximum bet, no blinds."""
    try:
        return VARIANTS[Variant(variant)].banked
    except ValueError:
        return False


def game_shown(game: Game) -> dict[str, Any]:
    """A game as the page names it: variant, limit and stakes (blinds, or a
    banked game's limits), with its key for the forms."""
    is_banked = banked(game.variant)
    if is_banked:
        stakes = (
            f"{money(game.minimum_cents, whole=True)} – {money(game.maximum_cents, whole=True)}"
        )
    else:
        small = money(small_blind_for(game.minimum_cents), whole=True)
        stakes = f"{small}/{money(game.minimum_cents, whole=True)}"
    return {
        "key": game.key,
        "variant": VARIANT_LABELS.get(game.variant, game.variant),
        "limit": None if is_banked else LIMIT_LABELS.get(game.limit, game.limit),
        "stakes": stakes,
    }


def running_games() -> list[dict[str, Any]]:
    """The games dealing now (floor.selectors.tables.running_tables: only real
    games, item 7), with their tables and free seats."""
    games: dict[str, dict[str, Any]] = {}
    for table in sorted(table_reads.running_tables(), key=lambda t: t.number):
        game = Game(table.variant, table.limit, table.minimum_cents, table.maximum_cents)
        shown = games.setdefault(game.key, {**game_shown(game), "tables": [], "seats_free": 0})
        free = max(table.seats - table.players, 0)
        shown["tables"].append({"number": table.number, "seats_free": free})
        shown["seats_free"] += free
    return sorted(games.values(), key=lambda g: (str(g["variant"]), g["key"]))


def own_entries(player_id: Any) -> list[dict[str, Any]]:
    """The player's own entries: reservation, position, and the call (which
    table and seat, until when) while called [CM-6]."""
    entries = player_reads.entries_of(player_id)
    called_tables = table_reads.tables_by_id({e.call_table for e in entries if e.call_table})
    keeps_order = host().application().profile.waiting_list.remote_keeps_order
    now = server_now()
    shown = []
    for entry in entries:
        waiting = entry.waiting_list
        game = Game(waiting.variant, waiting.limit, waiting.minimum_cents, waiting.maximum_cents)
        table = called_tables.get(entry.call_table) if entry.call_table else None
        # The wait from the game's recent history (floor.selectors.waits), for
        # a player still waiting; none when there is too little of it.
        estimate = None
        if entry.status == "waiting":
            estimates = waits.estimates_for_list(waiting.game, now, remote_keeps_order=keeps_order)
            estimate = estimates.get(entry.player_id.hex)
        shown.append(
            {
                **game_shown(game),
                "reservation": entry.reservation,
                "position": entry.position,
                "status": entry.status,
                "called": entry.status == "called",
                "call_table": table.number if table is not None else None,
                "call_seat": entry.call_seat,
                "call_ends_at": entry.call_ends_at,
                "called_at": entry.called_at,
                # A "called in" entry (made from outside the room) is callable
                # once the desk checks the player in, by ``check_in_by``.
                "remote": entry.remote,
                "checked_in": entry.checked_in,
                "check_in_by": entry.check_in_by,
                # The player's answer to the call, once given [CM-6].
                "answer": entry.answer,
                "answer_label": ANSWER_LABELS.get(entry.answer, ""),
                "estimate": estimate,
            }
        )
    return shown


def page_context(request: HttpRequest) -> dict[str, Any]:
    """What the page (and its live part) shows the signed-in player."""
    card = request.player_card
    player = player_reads.player_by_card(card)
    entries = own_entries(player.id) if player is not None else []
    joined = {e["key"] for e in entries}
    running = running_games()
    for game in running:
        game["joined"] = game["key"] in joined
    running_keys = {g["key"] for g in running}
    offered = []
    for waiting in player_reads.listed_games():
        game = Game(waiting.variant, waiting.limit, waiting.minimum_cents, waiting.maximum_cents)
        if game.key not in running_keys and game.key not in joined:
            offered.append(game_shown(game))
    seated = None
    if player is not None and player.table_id is not None:
        table = table_reads.tables_by_id({player.table_id}).get(player.table_id)
        seated = {"table": table.number if table else None, "seat": player.seat}
        # At a must-move table: their place in the line to the main table.
        seated["must_move"] = balancing.must_move_place(player.table_id, player.id)
    # The player's own time at the tables this gaming day (issue 26).
    played = hours_of_players([player.id.hex]).get(player.id.hex) if player is not None else None
    return {
        "card": card,
        "player": player,
        "seated": seated,
        "played_today": played["today_seconds"] if played else 0,
        "entries": entries,
        "running": running,
        "offered": offered,
        "called": any(e["called"] for e in entries),
        "joinable": [g for g in running if not g["joined"]] + offered,
        "poll_seconds": getattr(settings, "FLOOR_PLAYER_POLL_SECONDS", 5),
        # A form's id, each command's derived from it (``_command_id``).
        "command_id": str(uuid.uuid4()),
        "answers": list(ANSWER_LABELS.items()),
        "ask_form": AskForGameForm(),
        # How the player is told of a call with the page closed (item 3).
        "contact": contacts.contact_of(player.id) if player is not None else None,
        "now": timezone.now(),
    }


# --- who may see the page ------------------------------------------------------------


def barred_out(request: HttpRequest) -> HttpResponse:
    """A barred player's session ends at its next request: signed out, sent
    to the sign-in page, which says why (issue 24 leftover). The page's live
    part (htmx) is told to go there rather than swap the sign-in page into
    itself."""
    logout(request)
    messages.error(request, str(BARRED))
    if request.headers.get("HX-Request"):
        response = HttpResponse(status=200)
        response["HX-Redirect"] = reverse("player:signin")
        return response
    return redirect("player:signin")


def player_page(view: Callable) -> Callable:
    """A page of the signed-in player only: anyone else goes to the sign-in
    page; a player whose code opened the session chooses a PIN first.

    A barred player's session is refused here, on every request (one indexed
    read of the player's row): barring, a floor command, does not reach into
    Django's sessions. Checked at the door (floor.logins.refuse_if_barred)
    and here, rather than by flushing the player's sessions when barred:
    Django keeps no index of a user's sessions (finding them means decoding
    every session row, and a cache or cookie session backend cannot be
    searched at all), a session signed in while the bar's read model was
    behind would slip past a flush, and a bar lifted later needs nothing
    restored."""

    @wraps(view)
    def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        card = signin.player_card(request.user)
        if card is None:
            return redirect("player:signin")
        if player_reads.is_barred(card):
            return barred_out(request)
        if request.session.get(MUST_CHOOSE_PIN) and not getattr(view, "chooses_pin", False):
            return redirect("player:pin")
        request.player_card = card
        return view(request, *args, **kwargs)

    page.reads = "player_self"
    return never_cache(page)


# --- signing in and out --------------------------------------------------------------


@never_cache
@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest) -> HttpResponse:
    """Card number and PIN, or the desk's one-time code (one field for both).
    Wrong ones count towards axes' lockout; a locked player is told when they
    may try again."""
    if request.method == "GET" and signin.player_card(request.user) is not None:
        return redirect("player:home")
    error = None
    card = (request.POST.get("card") or "").strip()[:40]
    if request.method == "POST":
        secret = request.POST.get("secret") or ""
        try:
            username = signin.player_username(card)
        except DomainError:
            username = None
        user = None
        if username is not None and secret and len(secret) <= 64:
            setattr(request, PLAYER_DOOR, True)
            user = authenticate(request, username=username, password=secret)
        if user is None and refused_as_barred(request):
            # The card and secret were right: the bar is what refuses
            # (floor.logins.refuse_if_barred).
            return render(
                request, "player/signin.html", {"error": str(BARRED), "card": card}, status=403
            )
        if user is not None:
            login(request, user)
            if user.backend.endswith("PlayerCodeBackend"):
                request.session[MUST_CHOOSE_PIN] = True
                return redirect("player:pin")
            return redirect("player:home")
        error = str(SIGN_IN_FAILED)
        if is_locked_out(request):
            lifts = signin.lockout_lifts_at(
                username or "", getattr(request, "axes_ip_address", None)
            )
            when = timezone.localtime(lifts).strftime("%H:%M") if lifts else "—"
            error = str(LOCKED_UNTIL) % {"time": when}
    status = 400 if error else 200
    return render(request, "player/signin.html", {"error": error, "card": card}, status=status)


sign_in.reads = "public"


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("player:signin")


sign_out.reads = "public"


@require_http_methods(["GET", "POST"])
def choose_pin(request: HttpRequest) -> HttpResponse:
    """The PIN the player will sign in with, chosen after a code: 6-8 digits,
    not one digit repeated nor a straight run (floor.player.signin.pin_refusal).

    Only right after signing in with the desk's code: a session signed in
    with the PIN (a phone left on a table, a cookie taken) cannot change it.
    A player who wants another PIN asks the desk for a new code."""
    if not request.session.get(MUST_CHOOSE_PIN):
        messages.error(request, _("To change your PIN, ask the desk for a new code."))
        return redirect("player:home")
    error = None
    if request.method == "POST":
        pin = request.POST.get("pin") or ""
        refusal = signin.pin_refusal(pin)
        if refusal is None and pin != request.POST.get("pin_again"):
            refusal = "pin_mismatch"
        if refusal is None:
            # Recorded first, with the player as actor: refused, nothing changes.
            try:
                perform("choose_pin", request.user, str(uuid.uuid4()), player=request.player_card)
            except RuleViolation as refused:
                error = host().describe(refused)
                return render(request, "player/pin.html", {"error": error}, status=403)
            except ServiceUnavailable:
                return render(request, "player/pin.html", {"error": NO_ANSWER}, status=503)
            request.user.set_password(pin)
            request.user.save(update_fields=["password"])
            update_session_auth_hash(request, request.user)
            request.session.pop(MUST_CHOOSE_PIN, None)
            messages.success(request, _("Your PIN is saved: sign in with it next time."))
            return redirect("player:home")
        error = host().describe(
            invalid(refusal, min_digits=signin.PIN_MIN_DIGITS, max_digits=signin.PIN_MAX_DIGITS)
        )
    status = 400 if error else 200
    return render(request, "player/pin.html", {"error": error}, status=status)


choose_pin.chooses_pin = True
choose_pin = player_page(choose_pin)


# --- the page ------------------------------------------------------------------------


@player_page
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "player/home.html", page_context(request))


@player_page
def live(request: HttpRequest) -> HttpResponse:
    """The page's live part, which the page asks for every few seconds (htmx)."""
    return render(request, "player/_live.html", page_context(request))


def _game_from(key: object) -> Game | None:
    """A game from a form's key, None when it is not one."""
    if not isinstance(key, str) or len(key) > 120:
        return None
    try:
        return Game.from_key(key)
    except (ValueError, TypeError):
        return None


def _command_id(request: HttpRequest, game: Game) -> str | None:
    """The command's id: the form's (a UUID made with the page), one per game,
    so a form sent twice records its lists once."""
    try:
        form_id = uuid.UUID(str(request.POST.get("command_id")))
    except ValueError:
        return None
    return str(uuid.uuid5(form_id, game.key))


def _run(request: HttpRequest, command: str, game: Game, **arguments: Any) -> Outcome | None:
    """Runs a command as the signed-in player for ``game``: its outcome, or
    None with its refusal said."""
    command_id = _command_id(request, game)
    if command_id is None:
        messages.error(request, _("The form was not complete: reload the page and try again."))
        return None
    try:
        return perform(
            command,
            request.user,
            command_id,
            player=request.player_card,
            **game.as_dict(),
            **arguments,
        )
    except RuleViolation as refused:
        messages.error(request, host().describe(refused))
        return None
    except ServiceUnavailable:
        messages.error(request, str(NO_ANSWER))
        return None


@require_POST
@player_page
def join(request: HttpRequest) -> HttpResponse:
    """Joins the lists of the games ticked (one or several) [CM-6, CM-7]."""
    keys = list(dict.fromkeys(request.POST.getlist("game")))[:MOST_GAMES_AT_ONCE]
    games = [g for g in (_game_from(k) for k in keys) if g is not None]
    if not games:
        messages.error(request, _("Choose a game to join its list."))
        return redirect("player:home")
    joined = [g for g in games if _run(request, "join_waiting_list", g)]
    if joined:
        names = ", ".join(f"{s['variant']} {s['stakes']}" for s in map(game_shown, joined))
        messages.success(request, _("You are on the list: %(games)s.") % {"games": names})
    return redirect("player:home")


@require_POST
@player_page
def ask(request: HttpRequest) -> HttpResponse:
    """Asks for a game no table plays (issue 24, item 4): its list, joined
    from outside like any other; the jefe is prompted to open a table once
    enough players are in the room [GA art. 23; PT 24; CM-7, CM-8]."""
    form = AskForGameForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("player:home")
    game = form.game()
    if _run(request, "join_waiting_list", game):
        shown = game_shown(game)
        messages.success(
            request,
            _(
                "You asked for %(game)s: the jefe opens a table once enough players "
                "are here. Check in at the desk when you arrive."
            )
            % {"game": f"{shown['variant']} {shown['stakes']}"},
        )
    return redirect("player:home")


@require_POST
@player_page
def contact(request: HttpRequest) -> HttpResponse:
    """How the player is told of a call when the page is not open (issue 24,
    item 3): by e-mail, by SMS or not at all, in the page's language. The
    details are kept outside the event log (floor.notifications.contacts)."""
    try:
        contacts.change_contact(
            request.user,
            str(request.POST.get("command_id") or ""),
            player=request.player_card,
            channel=request.POST.get("channel"),
            email=request.POST.get("email", ""),
            phone=request.POST.get("phone", ""),
            language=translation.get_language() or "es",
        )
    except RuleViolation as refused:
        messages.error(request, host().describe(refused))
    except ServiceUnavailable:
        messages.error(request, str(NO_ANSWER))
    except ReadModelsBehind:
        messages.success(request, _("Saved: we will tell you that way."))
    else:
        messages.success(request, _("Saved: we will tell you that way."))
    return redirect("player:home")


@require_POST
@player_page
def leave(request: HttpRequest) -> HttpResponse:
    """Leaves one list (the player withdraws)."""
    game = _game_from(request.POST.get("game"))
    if game is None:
        messages.error(request, _("Choose a list to leave."))
        return redirect("player:home")
    if _run(request, "leave_waiting_list", game, reason="withdrew"):
        messages.success(request, _("You left the list."))
    return redirect("player:home")


@require_POST
@player_page
def answer(request: HttpRequest) -> HttpResponse:
    """The called player answers the call: coming, five more minutes, or not
    coming [CM-6] (answer_call: its effects are the list's rules)."""
    game = _game_from(request.POST.get("game"))
    said = request.POST.get("answer")
    if game is None or said not in CALL_ANSWERS:
        messages.error(request, _("Choose an answer to the call."))
        return redirect("player:home")
    outcome = _run(request, "answer_call", game, answer=said)
    if outcome is None:
        return redirect("player:home")
    messages.success(
        request, _("Your answer is sent: %(answer)s.") % {"answer": ANSWER_LABELS[said]}
    )
    ends_at = outcome.result.get("ends_at")
    if said == FIVE_MORE and not outcome.result.get("more_time_granted") and ends_at:
        # Under CM the call lasts 5 minutes at most [CM-6]: the jefe knows,
        # and the player is told the seat is not held longer.
        until = timezone.localtime(datetime.fromisoformat(ends_at)).strftime("%H:%M")
        messages.warning(
            request,
            _("The seat is held until %(until)s and no longer: come before then.")
            % {"until": until},
        )
    return redirect("player:home")


@require_POST
@player_page
def other_lists(request: HttpRequest) -> HttpResponse:
    """What becomes of the player's other lists once seated: kept or dropped
    (choose_other_lists; seating follows it, Player.lists_left_on_seating)."""
    drop = {"drop": True, "keep": False}.get(request.POST.get("other_lists") or "")
    if drop is None:
        messages.error(request, _("Choose whether to keep your other lists."))
        return redirect("player:home")
    try:
        perform(
            "choose_other_lists",
            request.user,
            str(uuid.uuid4()),
            player=request.player_card,
            drop=drop,
        )
    except RuleViolation as refused:
        messages.error(request, host().describe(refused))
    except ServiceUnavailable:
        messages.error(request, str(NO_ANSWER))
    else:
        messages.success(request, _("Saved."))
    return redirect("player:home")
