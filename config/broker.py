"""The embedded broker: kombu's filesystem transport, made safe for several processes.

Why not kombu's own: its filesystem transport creates a message file empty and
only then locks and writes it, and a consumer moves and reads the file without
the lock; with a web server, a worker and beat publishing and consuming at once,
a consumer can read a file that is not yet written and the worker dies with
``JSONDecodeError('Expecting value: line 1 column 1')`` (issue 20; seen within
fifteen minutes of ``make run``). The routing tables it keeps for each exchange
have the same window. ``bench/broker.py`` shows it under a stress of several
publishers and consumers, beside this transport and the SQLAlchemy one.

What this transport changes, and only that:

- A message is written whole to a hidden temporary file in the queue folder and
  then renamed into place (``os.replace``, atomic on one file system): a
  consumer sees a whole message or none.
- A consumer claims a message by renaming it into the ``claimed`` folder (one
  consumer wins the rename, the others find it gone), then reads and deletes
  it; no temporary folder on another file system, where a move is a copy.
- An exchange's routing table is rewritten the same way, under an exclusive
  lock on its own lock file, so a reader never sees it half written.
- A message that cannot be decoded (written by an older kombu, say) is moved to
  the ``broken`` folder and logged, never fatal to the worker.

Everything else (queues, fanout, acknowledgements in the worker's memory) is
kombu's. Messages a worker holds when it is killed are lost, as with kombu's
own: the timers do not depend on them (``floor.timers``: beat's sweep fires any
due timer from the database).
"""

from __future__ import annotations

import json
import logging
import os
import uuid
from pathlib import Path
from time import monotonic_ns

from kombu.transport import filesystem, virtual
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

SCHEME = "embedded"


def write_atomically(path: Path | str, data: bytes) -> None:
    """Writes ``data`` to ``path`` so that a reader sees all of it or the old file."""
    path = Path(path)
    temporary = path.parent / f".{path.name}.{uuid.uuid4().hex}.tmp"
    with open(temporary, "wb") as out:
        out.write(data)
    os.replace(temporary, path)


class Channel(filesystem.Channel):
    """The filesystem channel with atomic writes and claims (module docstring)."""

    def _put(self, queue, payload, **kwargs):
        # Zero-padded, so that a listing sorted by name is in sending order; in
        # nanoseconds, since milliseconds left a burst's messages in uuid order.
        filename = f"{monotonic_ns():020d}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_atomically(Path(self.data_folder_out) / filename, str_to_bytes(dumps(payload)))
        except OSError as error:
            raise filesystem.ChannelError(f"Cannot add {filename!r} to the queue") from error

    def _claimed_folder(self) -> Path:
        folder = Path(self.data_folder_in).parent / "claimed"
        folder.mkdir(exist_ok=True)
        return folder

    def _broken_folder(self) -> Path:
        folder = Path(self.data_folder_in).parent / "broken"
        folder.mkdir(exist_ok=True)
        return folder

    def _get(self, queue):
        wanted = f"{queue}.msg"
        claimed_folder = self._claimed_folder()
        for filename in sorted(os.listdir(self.data_folder_in)):
            if filename.startswith(".") or filename.partition(".")[2] != wanted:
                continue
            claimed = claimed_folder / filename
            try:
                os.rename(os.path.join(self.data_folder_in, filename), claimed)
            except FileNotFoundError:
                continue  # another consumer claimed it first
            try:
                payload = claimed.read_bytes()
            except OSError as error:
                raise filesystem.ChannelError(f"Cannot read {filename!r}") from error
            try:
                message = loads(bytes_to_str(payload))
            except ValueError:
                os.replace(claimed, self._broken_folder() / filename)
                logger.error("broker: message %s could not be decoded; kept in broken/", filename)
                continue
            claimed.unlink(missing_ok=True)
            return message
        raise filesystem.Empty()

    def get_table(self, exchange):
        file = self._exchange_file(exchange)
        try:
            raw = file.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as error:
            raise filesystem.ChannelError(f"Cannot open {file}") from error
        try:
            table = json.loads(bytes_to_str(raw))
        except ValueError:
            logger.error("broker: routing table %s could not be decoded; rebuilt on bind", file)
            return []
        return [filesystem.exchange_queue_t(*row) for row in table]

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        row = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        lock_path = file.with_name(file.name + ".lock")
        try:
            with open(lock_path, "ab") as lock_file:
                filesystem.lock(lock_file, filesystem.LOCK_EX)
                try:
                    rows = self.get_table(exchange)
                    if row not in rows:
                        rows.insert(0, row)
                        write_atomically(file, str_to_bytes(dumps(rows)))
                finally:
                    filesystem.unlock(lock_file)
        except OSError as error:
            raise filesystem.ChannelError(f"Cannot open {file}") from error

    def _delete(self, queue, exchange, routing_key, pattern, *args, **kwargs):
        # kombu's virtual channel forgets the binding; the file is ours to rewrite.
        super(filesystem.Channel, self)._delete(
            queue, exchange, routing_key, pattern, *args, **kwargs
        )
        file = self._exchange_file(exchange)
        row = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        lock_path = file.with_name(file.name + ".lock")
        try:
            with open(lock_path, "ab") as lock_file:
                filesystem.lock(lock_file, filesystem.LOCK_EX)
                try:
                    rows = self.get_table(exchange)
                    if row in rows:
                        rows.remove(row)
                        write_atomically(file, str_to_bytes(dumps(rows)))
                finally:
                    filesystem.unlock(lock_file)
        except OSError as error:
            raise filesystem.ChannelError(f"Cannot open {file}") from error


class Transport(filesystem.Transport):
    """kombu's filesystem transport with :class:`Channel` (``embedded://``)."""

    Channel = Channel
    # Its own bindings' memory, not the stock transport's (kombu keeps it per class).
    global_state = virtual.BrokerState()
    driver_type = SCHEME
    driver_name = SCHEME

    @property
    def default_connection_params(self) -> dict:
        """No host: the broker is a directory. kombu's virtual transports name
        ``localhost``, and kombu then warns "No hostname was supplied" on every
        connection, that is on every command that sends a timer (a new user
        saw it on each line of ``make run``'s log)."""
        return {"port": self.default_port}
