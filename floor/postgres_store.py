"""The eventsourcing library's PostgreSQL store, with the connection options
Django's read models get.

eventsourcing 9.5 builds its connections from five settings (``POSTGRES_DBNAME``,
``_HOST``, ``_PORT``, ``_USER``, ``_PASSWORD``) and knows no ``sslmode``: a
``DATABASE_URL`` asking for TLS would reach the read models encrypted and the
event log in clear. This factory adds the libpq options of the Django connection
(``POSTGRES_LIBPQ_OPTIONS``, a libpq conninfo string such as
``sslmode=require sslrootcert=/etc/floor/ca.pem``) to every connection of the
store's pool, before the pool opens. The schema is eventsourcing's own
``POSTGRES_SCHEMA``.
"""

from __future__ import annotations

from eventsourcing import postgres
from eventsourcing.utils import Environment, EnvType
from psycopg.conninfo import conninfo_to_dict


class FloorPostgresFactory(postgres.PostgresFactory):
    """eventsourcing's PostgresFactory, plus ``POSTGRES_LIBPQ_OPTIONS``."""

    POSTGRES_LIBPQ_OPTIONS = "POSTGRES_LIBPQ_OPTIONS"

    def __init__(self, env: Environment | EnvType | None):
        super().__init__(env)
        extra = self.env.get(self.POSTGRES_LIBPQ_OPTIONS) or ""
        if extra:
            kwargs = self.datastore.pool.kwargs
            assert isinstance(kwargs, dict)  # the datastore always passes a dict
            kwargs.update(conninfo_to_dict(extra))
