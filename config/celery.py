"""The Celery app: timers and background sweeps run here, configured from Django settings."""

import os

from celery import Celery
from kombu.transport import TRANSPORT_ALIASES

# embedded:// is the embedded default's broker (config.broker: kombu's filesystem
# transport made safe for several processes).
TRANSPORT_ALIASES.setdefault("embedded", "config.broker:Transport")

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("floor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
