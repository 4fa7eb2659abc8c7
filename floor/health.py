"""/healthz: is the event store up, how far behind are the read models, is the
broker reachable, do the worker and beat live, when did the scheduler last sweep.

The status is one of:

- ``ok``: everything answers;
- ``degraded`` (HTTP 200): the web server serves, but something the room
  relies on is wrong, each cause named in ``causes``: ``timers_stopped`` (the
  last sweep is FLOOR_HEALTH_STALE_SECONDS old: no suspension closes, no call
  window ends), ``worker_not_answering``, ``beat_not_running``,
  ``worker_restarting`` (restarted FLOOR_HEALTH_MAX_RESTARTS times in the last
  hour; ``beat_restarting`` and ``web_restarting`` likewise),
  ``broker_unreachable``, ``read_models_behind`` (more than
  FLOOR_HEALTH_MAX_LAG events not yet projected), ``projector_not_running``
  (its heartbeat is FLOOR_HEALTH_STALE_SECONDS old while FLOOR_READ_MODELS is
  "projector": commands answer 202 read_models_lagging and the consoles stand
  still, issue 23);
- ``down`` (HTTP 503): this web server cannot serve the floor (the event store
  or the read models' database does not answer), so a load balancer stops
  sending to it.

A degraded web server still answers 200: the room needs its consoles most
when the timers stopped (they say so on every page), and another web server
would be no better, since the background processes are shared. A monitor that
pages on ``degraded`` asks ``/healthz?strict=1``, which answers 503 then too.

Anyone (a load balancer, a monitor) gets the status, its causes and its HTTP
code; the details, whose error texts can name hosts, only the casino's staff: a
user logged in to the console, or an API token, holding a floor role (or
Django's is_staff).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET
from kombu.utils.url import maybe_sanitize_url
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from floor.kernel.web.gateway import actor_for
from floor.liveness import liveness
from floor.logins import ShiftTokenAuthentication
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
    """Whether the broker (the configured one, or ``url``) takes a connection.

    The Celery app is the current one (config/__init__.py makes it so as Django
    starts), not imported from config: config sits above the floor."""
    from celery import current_app as app

    url = url or app.conf.broker_url or ""
    shown = maybe_sanitize_url(url)  # never show a password
    try:
        with app.connection_for_write(url) as connection:
            connection.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:  # noqa: BLE001
        return {"ok": False, "url": shown, "error": str(error)}
    return {"ok": True, "url": shown}


def scheduler_state() -> dict[str, object]:
    """When beat's sweep last ran, when the worker and beat were last seen, and
    the restarts of the last hour (None: never, or the database did not answer)."""
    try:
        seen = liveness()
    except Exception as error:  # noqa: BLE001
        return {"last_sweep_at": None, "seconds_ago": None, "error": str(error)}
    return {
        "last_sweep_at": seen["last_sweep_at"],
        "seconds_ago": seen["sweep_seconds_ago"],
        "worker_seconds_ago": seen["worker_seconds_ago"],
        "beat_seconds_ago": seen["beat_seconds_ago"],
        "projector_seconds_ago": seen["projector_seconds_ago"],
        "workers": seen["workers"],
        "restarts_last_hour": seen["restarts_last_hour"],
        "restarting": seen["restarting"],
    }


def stale(seconds_ago: object) -> bool:
    """Never seen, or not seen for FLOOR_HEALTH_STALE_SECONDS."""
    return seconds_ago is None or float(seconds_ago) > settings.FLOOR_HEALTH_STALE_SECONDS


def degradation_causes(
    projections: dict[str, object], broker: dict[str, object], scheduler: dict[str, object]
) -> list[str]:
    """What is wrong while the web server still serves (module docstring)."""
    causes = []
    if stale(scheduler.get("seconds_ago")):
        causes.append("timers_stopped")
    restarting = scheduler.get("restarting") or []
    if stale(scheduler.get("worker_seconds_ago")) or "worker" in restarting:
        causes.append("worker_not_answering")
    if stale(scheduler.get("beat_seconds_ago")) or "beat" in restarting:
        causes.append("beat_not_running")
    restarts = scheduler.get("restarts_last_hour") or {}
    for process in sorted(restarts):  # worker_restarting, beat_restarting, web_restarting
        if restarts[process] >= settings.FLOOR_HEALTH_MAX_RESTARTS:
            causes.append(f"{process}_restarting")
    if not broker["ok"]:
        causes.append("broker_unreachable")
    if settings.FLOOR_READ_MODELS == "projector" and stale(scheduler.get("projector_seconds_ago")):
        causes.append("projector_not_running")
    lag = (projections.get("floor") or {}).get("lag")
    if lag is not None and lag > settings.FLOOR_HEALTH_MAX_LAG:
        causes.append("read_models_behind")
    return causes


def is_staff(request: HttpRequest) -> bool:
    """Whether the caller is the casino's staff, by session or by API token."""
    user = request.user
    if not user.is_authenticated:
        try:
            found = ShiftTokenAuthentication().authenticate(Request(request))
        except AuthenticationFailed:
            found = None
        if found is None:
            return False
        user = found[0]
    return bool(user.is_staff or actor_for(user).roles)


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """``ok``, ``degraded`` with its causes, or ``down`` (module docstring).
    The status and causes for anyone, the details for staff."""
    store = event_store_state()
    projections = projection_state(store.get("last_position"))
    broker = broker_state()
    scheduler = scheduler_state()
    serving = bool(store["ok"] and projections["ok"])
    causes = degradation_causes(projections, broker, scheduler) if serving else []
    if not serving:
        status = "down"
        causes = [
            name
            for name, part in (("event_store_down", store), ("read_models_down", projections))
            if not part["ok"]
        ]
    else:
        status = "degraded" if causes else "ok"
    body = {
        "status": status,
        "causes": causes,
        "event_store": store,
        "projections": projections,
        "broker": broker,
        "scheduler": scheduler,
    }
    if not is_staff(request):
        body = {"status": status, "causes": causes}
    strict = request.GET.get("strict") not in (None, "", "0", "false")
    failing = status == "down" or (strict and status == "degraded")
    return JsonResponse(body, status=503 if failing else 200)


healthz.reads = "public"  # floor.domain.reads: the monitor does not log in
