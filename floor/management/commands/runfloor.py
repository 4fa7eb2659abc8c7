"""Starts the web server, the Celery worker and beat together; Ctrl-C stops all.

What ``make run`` ends with. If any of the three dies, the others are stopped
too, so a half-running floor never looks healthy. The three inherit this
process's environment, so ``FLOOR_RULE_PROFILE`` (an accelerated twin such as
``TEST_PT`` included) is the same profile in each.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand

from floor.audit_files import anchor_head
from floor.runtime import floor_projector


class Command(BaseCommand):
    help = "Runs web (gunicorn), Celery worker and Celery beat until Ctrl-C."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default=os.environ.get("FLOOR_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("FLOOR_PORT", "8000")))
        parser.add_argument("--web-workers", type=int, default=2)

    def handle(self, *args, host: str, port: int, web_workers: int, **options) -> None:
        bin_dir = os.path.dirname(sys.executable)
        celery = os.path.join(bin_dir, "celery")
        processes = {
            "web": [
                os.path.join(bin_dir, "gunicorn"),
                "config.wsgi",
                "--bind",
                f"{host}:{port}",
                "--workers",
                str(web_workers),
                "--timeout",
                "60",
                "--access-logfile",
                "-",
            ],
            "worker": [celery, "-A", "config", "worker", "-l", "warning", "--concurrency", "2"],
            "beat": [
                celery,
                "-A",
                "config",
                "beat",
                "-l",
                "warning",
                "--schedule",
                settings.CELERY_BEAT_SCHEDULE_FILENAME,
            ],
        }
        # The audit chain's head as the service starts, outside the database
        # (the anchor file; beat anchors it again every FLOOR_AUDIT_ANCHOR_SECONDS).
        floor_projector().catch_up()
        anchor_head()
        children = {name: subprocess.Popen(cmd) for name, cmd in processes.items()}
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        self.stdout.write(
            self.style.SUCCESS(
                f"\nFloor service running at http://{host}:{port}/ "
                f"(web, worker and beat; rule profile {settings.FLOOR_RULE_PROFILE}). "
                "Press Ctrl-C to stop.\n"
            )
        )
        exit_code = 0
        while not stopping:
            for name, child in children.items():
                if child.poll() is not None:
                    self.stderr.write(f"{name} exited with {child.returncode}; stopping.")
                    exit_code = 1
                    stopping = True
            time.sleep(0.3)
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
        self.stdout.write("Floor service stopped.")
        sys.exit(exit_code)
