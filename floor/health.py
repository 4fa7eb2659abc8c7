"""/healthz: is the event store up, how far behind are the read models, is the
broker reachable, when did the scheduler last sweep.

Anyone (a load balancer, a monitor) gets the status and its HTTP code; the
details, whose error texts can name hosts, only the casino's staff: a user
logged in to the console, or an API token, holding a floor role (or Django's
is_staff).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_GET
from knox.auth import TokenAuthentication
from kombu.utils.url import maybe_sanitize_url
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from floor.gateway import actor_for
from floor.models import SchedulerHeartbeat
from floor.runtime import floor_app, floor_projector


def event_store_state() -> dict[str, object]:
    """The event store answers, and how long its log is."""
    try:
        last = floor_app().last_position()
    except Exception as error:  # noqa: BLE001 - report any failure, never raise
        return {"ok": False, "backend": settings.EVENT_STORE_BACKEND, "error": str(error)}
    return {"ok": True, "backend": settings.EVENT_STORE_BACKEND, "last_position": last}


def projection_state(last_position: int | None) -> dict[str, object]:
    """Where the floor projector is, and how many events it has yet to apply."""
    try:
        position = floor_projector().position()
    except Exception as error:  # noqa: BLE001
        return {"ok": False, "error": str(error)}
    lag = None if last_position is None else max(0, last_position - position)
    return {"ok": True, "floor": {"position": position, "lag": lag}}


def broker_state(url: str | None = None) -> dict[str, object]:
    """Whether the broker (the configured one, or ``url``) takes a connection."""
    from config.celery import app

    url = url or app.conf.broker_url or ""
    shown = maybe_sanitize_url(url)  # never show a password
    try:
        with app.connection_for_write(url) as connection:
            connection.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:  # noqa: BLE001
        return {"ok": False, "url": shown, "error": str(error)}
    return {"ok": True, "url": shown}


def scheduler_state() -> dict[str, object]:
    """When beat's sweep last ran (None: never, or the database did not answer)."""
    try:
        beat = SchedulerHeartbeat.objects.filter(name="sweep").first()
    except Exception as error:  # noqa: BLE001
        return {"last_sweep_at": None, "seconds_ago": None, "error": str(error)}
    if beat is None:
        return {"last_sweep_at": None, "seconds_ago": None}
    ago = (timezone.now() - beat.last_run_at).total_seconds()
    return {"last_sweep_at": beat.last_run_at.isoformat(), "seconds_ago": round(ago, 1)}


def is_staff(request: HttpRequest) -> bool:
    """Whether the caller is the casino's staff, by session or by API token."""
    user = request.user
    if not user.is_authenticated:
        try:
            found = TokenAuthentication().authenticate(Request(request))
        except AuthenticationFailed:
            found = None
        if found is None:
            return False
        user = found[0]
    return bool(user.is_staff or actor_for(user).roles)


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 while the event store and read models answer; 503 when they do not.
    The status for anyone, the details for staff."""
    store = event_store_state()
    projections = projection_state(store.get("last_position"))
    broker = broker_state()
    healthy = bool(store["ok"] and projections["ok"])
    body = {
        "status": ("ok" if broker["ok"] else "degraded") if healthy else "down",
        "event_store": store,
        "projections": projections,
        "broker": broker,
        "scheduler": scheduler_state(),
    }
    if not is_staff(request):
        body = {"status": body["status"]}
    return JsonResponse(body, status=200 if healthy else 503)


healthz.reads = "public"  # floor.domain.reads: the monitor does not log in
