"""The Celery app: timers and background sweeps run here, configured from Django settings."""

import logging
import os

from celery import Celery
from celery.signals import beat_init, setup_logging, worker_ready
from kombu.transport import TRANSPORT_ALIASES

# embedded:// is the embedded default's broker (config.broker: kombu's filesystem
# transport made safe for several processes).
TRANSPORT_ALIASES.setdefault("embedded", "config.broker:Transport")

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("floor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# Liveness (floor.liveness): the worker and beat each write a heartbeat to the
# database while they run. Imported when the signal comes, once Django is set up.
@worker_ready.connect
def start_worker_heartbeat(sender=None, **_):
    from django.conf import settings

    from floor.liveness import worker_heartbeat
    from floor.tasks import sweep

    worker_heartbeat(sender)
    # A worker that comes back (runfloor restarted it, a deploy) sweeps at once:
    # the timers that fell due while no worker ran, whose ETA messages died with
    # the last one, fire now rather than at beat's next sweep (issue 20: within
    # 5 s of the restart).
    sweep.apply_async(expires=max(1.0, 2 * settings.FLOOR_SWEEP_SECONDS))


@beat_init.connect
def start_beat_heartbeat(sender=None, **_):
    import django

    django.setup()  # beat, unlike the worker, is not set up by Celery's Django fixup
    # django.setup() applied settings.LOGGING again, root at INFO: beat's
    # --loglevel (which Celery keeps in CELERY_LOG_LEVEL) is the level it runs at,
    # or it logs every sweep it sends under -l warning.
    level = os.environ.get("CELERY_LOG_LEVEL")
    if level and level.isdigit():
        logging.getLogger().setLevel(int(level))
    from floor.liveness import beat_heartbeat

    beat_heartbeat(sender)


# Logs (docs/operations.md): the worker and beat log as the web server does
# (FLOOR_LOG_FORMAT, each command's fields on its lines: floor.logs), not in
# Celery's own format; a receiver of this signal tells Celery to keep its hands
# off. Their --loglevel still sets the level.
@setup_logging.connect
def use_django_logging(loglevel=None, **_):
    import logging
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)
