"""The close of a gaming day anchors the audit chain (issue 18): the journal's
head at the close is appended to the anchor file, outside the database, and
printed on the day's close report for the inspector to keep; ``verify_log``
checks the log against both. The day is the one of test_cage_report.py."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from floor.audit_files import keyring
from floor.models import EventJournalEntry
from floor.selectors.journal import entries
from ledger.models import GamingDayView
from tests.floor.test_verify_log import rechain_from
from tests.ledger.test_cage_report import days  # noqa: F401 - the fixture

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("days")]

DAY = "2026-11-22"


def close_position() -> int:
    """The close's last event: the record of its command."""
    records = entries().filter(topic__endswith=":CommandRecord.Recorded")
    [close] = [r for r in records if r.data["command"] == "close_gaming_day"]
    return close.position


def anchor_lines(audit_files) -> list[dict]:
    return [json.loads(line) for line in audit_files["anchors"].read_text().splitlines()]


def test_the_close_anchors_the_chain_in_the_file_and_on_its_report(audit_files):
    position = close_position()
    row = EventJournalEntry.objects.get(position=position)
    [line] = anchor_lines(audit_files)
    expected = {
        "kind": "close",
        "gaming_day": DAY,
        "position": position,
        "digest": row.digest,
        "key_id": row.key_id,
        "at": "2026-11-22T21:10:00+00:00",
    }
    assert {k: line[k] for k in expected} == expected
    assert GamingDayView.objects.get(day=DAY).anchor == expected
    out = io.StringIO()
    call_command("verify_log", stdout=out)
    assert out.getvalue().splitlines()[-1] == (
        f"1 anchor(s) hold, the last at position {position} (2026-11-22T21:10:00+00:00)"
    )


def test_a_rebuild_keeps_the_journal_and_puts_the_anchor_back_on_the_report(audit_files):
    before = list(EventJournalEntry.objects.values_list("position", "digest", "key_id"))
    anchor = GamingDayView.objects.get(day=DAY).anchor
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO())
    assert list(EventJournalEntry.objects.values_list("position", "digest", "key_id")) == before
    assert GamingDayView.objects.get(day=DAY).anchor == anchor
    assert len(anchor_lines(audit_files)) == 1  # a replayed close is not anchored again


def test_the_printed_close_report_shows_the_anchor(api_as, make_user, client):
    anchor = GamingDayView.objects.get(day=DAY).anchor
    make_user("ines", "inspector")
    client.login(username="ines", password="s3cret-pass")
    page = client.get(f"/cage/gaming-days/{DAY}/report/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"verify_log --anchor {anchor['position']}:{anchor['digest']}</code>" in html
    assert anchor["key_id"] in html
    assert "a 5 EUR chip under the table" in html  # the explained difference
    # The open day has no close report; the dealer reads none.
    assert client.get("/cage/gaming-days/2026-11-23/report/").status_code == 404
    make_user("jaime2", "jefe_sector")
    client.login(username="jaime2", password="s3cret-pass")
    assert client.get(f"/cage/gaming-days/{DAY}/report/").status_code == 403
    make_user("cris2", "crupier")
    client.login(username="cris2", password="s3cret-pass")
    assert client.get(f"/cage/gaming-days/{DAY}/report/").status_code == 403


def test_the_printed_anchor_shows_a_rewritten_day(floor_app, audit_files):
    """The inspector's paper alone (the anchor file lost) catches a day
    rewritten with the key: the printed digest is no longer the chain's."""
    anchor = GamingDayView.objects.get(day=DAY).anchor
    audit_files["anchors"].unlink()
    first = EventJournalEntry.objects.get(position=2)
    EventJournalEntry.objects.filter(position=first.position).update(actor="mallory")
    rechain_from(first.position, keyring().digest)
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command(
            "verify_log", "--anchor", f"{anchor['position']}:{anchor['digest']}", stdout=out
        )
    assert (
        f"position {anchor['position']}: changed: the journal row's digest is not the one of "
        "the given anchor (--anchor)"
    ) in out.getvalue()
