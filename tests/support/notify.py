"""A real local SMTP server and a fake SMS provider, for the notifications'
tests (issue 24: "delivered to the local SMTP server and the fake provider").

The SMTP server is aiosmtpd's, on a free local port, in its own thread; the
provider is the standard library's HTTP server in a thread, answering each
POST with the next status of its script (then 200), and keeping what it got.
"""

from __future__ import annotations

import email
import json
import socket
import threading
from dataclasses import dataclass, field
from email.message import Message as ParsedMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Received:
    """A message the SMTP server accepted."""

    sender: str
    recipients: list[str]
    message: ParsedMessage

    @property
    def subject(self) -> str:
        return str(email.header.make_header(email.header.decode_header(self.message["Subject"])))

    @property
    def body(self) -> str:
        return self.message.get_payload(decode=True).decode(self.message.get_content_charset())


class Inbox:
    """aiosmtpd's handler: keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[Received] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        self.messages.append(
            Received(
                envelope.mail_from,
                list(envelope.rcpt_tos),
                email.message_from_bytes(envelope.original_content),
            )
        )
        return "250 Message accepted for delivery"


class SmtpServer:
    def __init__(self) -> None:
        self.inbox = Inbox()
        self.port = free_port()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.controller.stop()

    @property
    def messages(self) -> list[Received]:
        return self.inbox.messages


@dataclass
class Provider:
    """A fake SMS provider: its script of statuses and what it was sent."""

    script: list[int] = field(default_factory=list)
    requests: list[dict] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> Provider:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                provider.requests.append(
                    {
                        "path": self.path,
                        "authorization": self.headers.get("Authorization"),
                        "content_type": self.headers.get("Content-Type"),
                        "json": json.loads(self.rfile.read(length) or b"null"),
                    }
                )
                status = provider.script.pop(0) if provider.script else 200
                answer = json.dumps({"id": len(provider.requests)}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()
