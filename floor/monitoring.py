"""GET /metrics: the floor's figures in Prometheus's text format, for staff
(issue 20, Observability; each metric and what to alert on: docs/operations.md).

Two sources in one answer:

- what this machine's processes counted (floor.metrics): commands by name and
  outcome, their latency, the timers' lateness, added up over the files of
  prometheus_client's multiprocess mode, so every gunicorn and Celery process
  of the machine is in it;
- what the database says at the moment of the scrape (:class:`FloorCollector`):
  the read models' lag, the timers pending and late, each background process's
  last sign of life and its restarts. These are the same for every web server,
  and right even when the process that would have counted them is the one that
  died.

Who may scrape: the casino's staff, as for ``/healthz``'s details
(:func:`floor.health.is_staff`: a console session or API token of a user with a
floor role), or a Prometheus server, which has no user, with
``Authorization: Bearer <FLOOR_METRICS_TOKEN>``. Anyone else gets the API's
``{"code", "message"}``: 401 without credentials or with wrong ones, 403 for a
user without a floor role.
"""

from __future__ import annotations

import hmac
import logging
import math
from collections.abc import Iterator
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Min, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from rest_framework import exceptions

from floor.domain.reads import readers_of
from floor.health import event_store_state, is_staff, projection_state
from floor.liveness import liveness
from floor.messages import message_for
from floor.models import Notification, PendingTimer, ProcessRestart

logger = logging.getLogger(__name__)

# The background processes whose restarts are counted even before the first.
PROCESSES = ("web", "worker", "beat")
NOT_FIRED = (PendingTimer.PENDING, PendingTimer.CLAIMED)
NOTIFICATION_STATES = (
    Notification.PENDING, Notification.SENDING, Notification.SENT,
    Notification.SKIPPED, Notification.STALE, Notification.FAILED,
)  # fmt: skip


class FloorCollector:
    """The gauges read from the database at each scrape. A source that does not
    answer is left out, and ``floor_metrics_source_up{source}`` says so (0)."""

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily(
            "floor_metrics_source_up",
            "Whether the source of a group of floor metrics answered this scrape.",
            labels=["source"],
        )
        for source, read in (
            ("projections", self.projections),
            ("timers", self.timers),
            ("liveness", self.liveness),
            ("notifications", self.notifications),
        ):
            try:
                metrics = list(read())
            except Exception:  # a scrape answers what it can
                logger.exception("metrics: %s not read", source)
                up.add_metric([source], 0)
                continue
            up.add_metric([source], 1)
            yield from metrics
        yield up

    def projections(self) -> Iterator[Metric]:
        store = event_store_state()
        state = projection_state(store.get("last_position"))
        lag = (state.get("floor") or {}).get("lag") if state["ok"] else None
        if lag is None:
            raise RuntimeError(store.get("error") or state.get("error") or "no lag")
        yield GaugeMetricFamily(
            "floor_read_model_lag_events",
            "Events recorded in the log and not yet shown by the read models.",
            value=lag,
        )

    def timers(self) -> Iterator[Metric]:
        now = timezone.now()
        late_before = now - timedelta(seconds=settings.FLOOR_TIMER_LATE_SECONDS)
        waiting = PendingTimer.objects.filter(state__in=NOT_FIRED)
        counts = waiting.aggregate(
            pending=Count("key"),
            late=Count("key", filter=Q(due_at__lt=late_before)),
            oldest=Min("due_at"),
        )
        yield GaugeMetricFamily(
            "floor_timers_pending",
            "Timers not yet fired (waiting for their time, or being fired).",
            value=counts["pending"],
        )
        yield GaugeMetricFamily(
            "floor_timers_late",
            "Timers not yet fired FLOOR_TIMER_LATE_SECONDS after their due time.",
            value=counts["late"],
        )
        oldest = counts["oldest"]
        overdue = 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds())
        yield GaugeMetricFamily(
            "floor_timers_overdue_seconds",
            "How long ago the oldest timer not yet fired was due (0: none is due).",
            value=overdue,
        )

    def notifications(self) -> Iterator[Metric]:
        """The outbox's messages to players by state (issue 24, item 3): a
        growing ``failed`` is a mail relay or SMS provider down for longer
        than the retries last; ``pending`` that stays is no worker sending."""
        counts = dict(
            Notification.objects.values_list("state").annotate(n=Count("position")).order_by()
        )
        gauge = GaugeMetricFamily(
            "floor_notifications",
            "Messages to players in the outbox, by state.",
            labels=["state"],
        )
        for state in NOTIFICATION_STATES:
            gauge.add_metric([state], counts.get(state, 0))
        yield gauge

    def liveness(self) -> Iterator[Metric]:
        seen = liveness()
        since = GaugeMetricFamily(
            "floor_process_seconds_since_seen",
            "Seconds since a background process (worker, beat, projector) or beat's sweep "
            "was last seen in the database (+Inf: never).",
            labels=["process"],
        )
        for process, key in (
            ("worker", "worker_seconds_ago"),
            ("beat", "beat_seconds_ago"),
            ("sweep", "sweep_seconds_ago"),
            ("projector", "projector_seconds_ago"),
        ):
            ago = seen[key]
            since.add_metric([process], math.inf if ago is None else float(ago))
        yield since
        last_hour = GaugeMetricFamily(
            "floor_process_restarts_last_hour",
            "Restarts of a process by runfloor within the last hour.",
            labels=["process"],
        )
        recent = seen["restarts_last_hour"]
        for process in sorted(set(PROCESSES) | set(recent)):
            last_hour.add_metric([process], recent.get(process, 0))
        yield last_hour
        totals = dict(
            ProcessRestart.objects.values_list("process").annotate(n=Count("id")).order_by()
        )
        restarts = CounterMetricFamily(
            "floor_process_restarts",
            "Restarts of a process by runfloor, ever (as recorded in the database).",
            labels=["process"],
        )
        for process in sorted(set(PROCESSES) | set(totals)):
            restarts.add_metric([process], totals.get(process, 0))
        yield restarts


class CountedByProcesses:
    """prometheus_client's multiprocess collector, never failing the scrape."""

    def __init__(self) -> None:
        self.inner = MultiProcessCollector(None, path=str(settings.FLOOR_METRICS_DIR))

    def collect(self) -> Iterator[Metric]:
        try:
            metrics = list(self.inner.collect())
        except Exception:  # a damaged file must not hide the rest
            logger.exception("metrics: the processes' counts not read")
            return
        yield from metrics


def registry() -> CollectorRegistry:
    """A registry for one scrape: the processes' counts and the database's gauges."""
    scrape = CollectorRegistry(auto_describe=False)
    scrape.register(CountedByProcesses())
    scrape.register(FloorCollector())
    return scrape


def refusal(request: HttpRequest) -> JsonResponse | None:
    """Why this caller may not scrape (the module docstring), or None."""
    scheme, _, credential = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        expected = settings.FLOOR_METRICS_TOKEN
        if expected and hmac.compare_digest(credential.strip().encode(), expected.encode()):
            return None
        return _unauthorized("authentication_failed", exceptions.AuthenticationFailed)
    if is_staff(request):
        return None
    if request.user.is_authenticated:
        roles = sorted(str(role) for role in readers_of("metrics"))
        message = message_for("role_not_allowed", roles=roles)
        return JsonResponse({"code": "role_not_allowed", "message": message}, status=403)
    return _unauthorized("not_authenticated", exceptions.NotAuthenticated)


def _unauthorized(code: str, error: type[exceptions.APIException]) -> JsonResponse:
    response = JsonResponse({"code": code, "message": str(error.default_detail)}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="metrics"'
    return response


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """The metrics in Prometheus's text format, to staff or the scraper's token."""
    refused = refusal(request)
    if refused is not None:
        return refused
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)


metrics.reads = "metrics"  # floor.domain.reads: staff, or a scraper with the token
