"""Settings for benchmark servers: the service's own, plus the baseline's URLs.

Everything else (databases, event store, broker) comes from config.settings and
the environment, so the event-sourced path runs exactly as deployed.
"""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
