"""Personal data (issue 25, item 4): how long it is kept, its purge, and
lifting a self-exclusion.

Retention is the profile's, with its source: ten years in Spain (Ley 10/2010
art. 25), seven in Portugal (Lei 83/2017 art. 51), both to be confirmed
against the texts, counted from the patron's last activity that needed their
record (its own date, a check at a door, a cage operation). The purge erases
an identity past it as the director does (``IdentityErased``, no data, the
chain whole), keeps a self-excluded patron's while the exclusion is in force
and one a list that applies still names, deletes the rows of a list version
superseded longer ago (its own row stays: the log names it) and the refused
attempts older than the retention. The director's erasure follows the same
law: refused within the retention, naming the day, unless the document was
recorded in error (its reason in the event). A self-exclusion is lifted by a director, with a
reason, only after the house's minimum period (six months, as the RGIAJ's;
to be confirmed): before, ``self_exclusion_too_recent`` and nothing recorded;
after, the patron is off the house list and the doors admit them."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from django.conf import settings
from django.core.management import call_command

from floor import runtime
from floor.compliance.exclusions import check_patron, exclude_self, import_list, lift_self_exclusion
from floor.compliance.identity import record_identity
from floor.compliance.retention import last_activity, purge
from floor.domain.player import Player
from floor.models import ExclusionEntry, ExclusionList, PatronIdentity
from games.profile_rules import months_after, years_after
from games.profiles import get_profile
from tests.support.floor import new_id
from tests.support.money import CAJERO, open_cage
from tests.support.room import Room, all_events, events_of, pid, refused

pytestmark = pytest.mark.django_db

NUMBER, NAME = "12345678Z", "Lucía Pérez Souto"
HEADER = "document_number,full_name,birth_date\n"
TEN_YEARS = timedelta(days=3653)  # ten calendar years from 2026 (or 2031) hold three 29 Februaries


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="RT")


@pytest.fixture
def director(make_user):
    return make_user("dora-r", "director")


@pytest.fixture
def cage(make_user):
    return make_user("carla-r", "cajero")


def identify(cage, card: str, number: str = NUMBER, name: str = NAME):
    return record_identity(
        cage,
        new_id(),
        player=card,
        document_type="dni",
        document_number=number,
        country="ES",
        full_name=name,
        birth_date="1980-05-17",
    )


def logged(app) -> str:
    return json.dumps([vars(e) for e in all_events(app)], default=str)


def purge_output(*flags: str) -> str:
    out = io.StringIO()
    call_command("purge_personal_data", *flags, stdout=out)
    return out.getvalue()


# --- the rules ----------------------------------------------------------------------


def test_each_profile_keeps_data_as_its_law_says_and_the_twins_do_not_shorten_it():
    for code in ("GA", "CM", "TEST", "TEST_GA"):
        rule = get_profile(code).retention
        assert (rule.years, rule.source) == (10, "Ley 10/2010 art. 25")
    for code in ("PT", "TEST_PT"):
        rule = get_profile(code).retention
        assert (rule.years, rule.source) == (7, "Lei 83/2017 art. 51")
    for code in ("GA", "PT", "CM", "TEST"):
        assert get_profile(code).self_exclusion.minimum_months == 6
    assert "RGIAJ" in get_profile("GA").self_exclusion.source


def test_years_and_months_are_calendar_ones():
    leap = datetime(2028, 2, 29, 12, 0, tzinfo=UTC)
    assert years_after(leap, 10) == datetime(2038, 2, 28, 12, 0, tzinfo=UTC)
    assert years_after(datetime(2026, 11, 22, tzinfo=UTC), 7) == datetime(2033, 11, 22, tzinfo=UTC)
    assert months_after(datetime(2026, 8, 31, tzinfo=UTC), 6) == datetime(2027, 2, 28, tzinfo=UTC)
    assert months_after(datetime(2026, 11, 22, tzinfo=UTC), 6) == datetime(2027, 5, 22, tzinfo=UTC)


# --- lifting a self-exclusion ----------------------------------------------------------


def test_a_self_exclusion_is_lifted_only_after_the_minimum_period(
    room, clock, director, cage, api_as
):
    app = room.app
    table_id = room.drawn_table(4)[0]
    card = room.new_player()
    identify(cage, card)
    exclude_self(cage, new_id(), player=card)
    error = refused(app, "patron_excluded", room.sit, table_id, card)
    assert error.params["list"] == "house"
    assert ExclusionEntry.objects.filter(player_id=UUID(pid(card))).count() == 1

    # A day short of six months: refused, naming the day, recording nothing.
    clock.advance(timedelta(days=180))
    before = len(all_events(app))
    error = refused(
        app,
        "self_exclusion_too_recent",
        lift_self_exclusion,
        director,
        new_id(),
        player=card,
        reason="asked in writing",
    )
    assert error.params["day"] == "2027-05-22"
    assert len(all_events(app)) == before
    refused(app, "patron_excluded", room.sit, table_id, card)

    # Six months on: the director lifts it, with a reason; the seat admits them.
    clock.advance(timedelta(days=2))
    refused(
        app,
        "lift_reason_required",
        lift_self_exclusion,
        director,
        new_id(),
        player=card,
        reason=" ",
    )
    lift_self_exclusion(director, new_id(), player=card, reason="Asked in writing; period served")
    (event,) = events_of(app, pid(card), "SelfExclusionLifted")
    assert (event.actor, event.actor_role, event.reason) == (
        "dora-r",
        "director",
        "Asked in writing; period served",
    )
    assert not ExclusionEntry.objects.filter(player_id=UUID(pid(card))).exists()
    assert ExclusionList.objects.get(source="house").row_count == 0
    assert check_patron(pid(card), "GA").result == "clear"
    room.sit(table_id, card)
    assert card in room.seats(table_id).values()
    # Nothing personal in the log: the document stays in its row.
    assert NUMBER not in logged(app) and "Lucía" not in logged(app)
    # Lifted, there is nothing to lift.
    refused(
        app, "not_self_excluded", lift_self_exclusion, director, new_id(), player=card, reason="x"
    )


def test_lifting_is_the_directors_over_the_api(room, clock, cage, api_as):
    card = room.new_player()
    identify(cage, card)
    exclude_self(cage, new_id(), player=card)
    url = f"/api/players/{pid(card)}/self-exclusion/lift/"
    body = {"command_id": new_id(), "reason": "period served"}
    for username, role in (("jaime-r", "jefe_sector"), ("carla-r2", "cajero")):
        answer = api_as(username, role).post(url, body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (403, "role_not_allowed")
    director = api_as("dora-r2", "director")
    early = director.post(url, body, format="json")
    assert (early.status_code, early.json()["code"]) == (409, "self_exclusion_too_recent")
    missing = director.post(url, {"command_id": new_id()}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (400, "lift_reason_required")
    clock.advance(timedelta(days=183))
    done = director.post(url, {"command_id": new_id(), "reason": "period served"}, format="json")
    assert done.status_code == 201, done.content
    assert not runtime.floor_app().repository.get(UUID(pid(card))).self_excluded


def test_a_self_exclusion_recorded_before_its_date_was_kept_counts_from_its_event(
    room, clock, cage, director, monkeypatch
):
    """A SelfExcluded event recorded before it carried its date (``at``) is
    dated by its own timestamp: the six-month minimum runs from it, never
    waived for want of the field [RGIAJ, Real Decreto 1614/2011; the
    profile's ``self_exclusion``]."""
    card = room.new_player()
    identify(cage, card)
    # As the code before issue 25 item 4 recorded it: no date in the event.
    monkeypatch.setattr(Player, "exclude_self", lambda self, at: self._self_excluded_event())
    exclude_self(cage, new_id(), player=card)
    monkeypatch.undo()
    (event,) = events_of(room.app, pid(card), "SelfExcluded")
    assert event.at == ""
    clock.advance(timedelta(days=30))
    error = refused(
        room.app,
        "self_exclusion_too_recent",
        lift_self_exclusion,
        director,
        new_id(),
        player=card,
        reason="asked today",
    )
    assert error.params["until"] == months_after(event.timestamp, 6).isoformat()
    clock.advance(timedelta(days=160))
    lift_self_exclusion(director, new_id(), player=card, reason="period served")
    assert not runtime.floor_app().repository.get(UUID(pid(card))).self_excluded


# --- the purge -------------------------------------------------------------------------


def test_an_identity_past_retention_is_erased_as_the_director_would(room, clock, cage):
    app = room.app
    card = room.new_player()
    identify(cage, card)
    clock.advance(TEN_YEARS - timedelta(days=1))
    assert "Nothing past its retention." in purge_output()
    assert PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()

    clock.advance(timedelta(days=1))
    dry = purge_output("--dry-run")
    assert f"identity of player {UUID(pid(card))}" in dry and "would be erased" in dry
    assert "Ley 10/2010 art. 25" in dry and NUMBER not in dry
    assert PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()
    assert not events_of(app, pid(card), "IdentityErased")

    done = purge_output()
    assert "1 identities erased" in done
    assert not PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()
    (event,) = events_of(app, pid(card), "IdentityErased")
    assert (event.actor, event.actor_role, event.reason) == (
        "floor-clock",
        "clock",
        "retention_ended",
    )
    assert set(vars(event)) - {"originator_id", "originator_version", "timestamp"} <= {
        "rule_profile",
        "actor",
        "actor_role",
        "command_id",
        "reason",
    }
    # Run again: nothing more, nothing recorded twice.
    assert "Nothing past its retention." in purge_output()
    assert len(events_of(app, pid(card), "IdentityErased")) == 1
    runtime.floor_projector().catch_up()
    out = io.StringIO()
    call_command("verify_log", stdout=out)
    assert "chain intact" in out.getvalue()


def test_the_clock_runs_from_the_last_check_that_read_the_record(room, clock, cage, director):
    app = room.app
    table_id = room.drawn_table(4)[0]
    card = room.new_player()
    identify(cage, card)
    recorded = PatronIdentity.objects.get(player_id=UUID(pid(card))).recorded_at
    import_list(director, new_id(), source="rgiaj", version="2026-11-01", data=HEADER.encode())
    # Three years on, the patron sits: the check reads their document.
    clock.advance(timedelta(days=3 * 365))
    room.sit(table_id, card)
    assert events_of(app, pid(card), "ExclusionChecked")
    runtime.floor_projector().catch_up()
    identity = PatronIdentity.objects.get(player_id=UUID(pid(card)))
    assert last_activity(identity) == clock.now() > recorded
    # Ten years after the record, not after the check: kept.
    clock.advance(TEN_YEARS - timedelta(days=3 * 365) + timedelta(days=1))
    assert purge().identities == []
    clock.advance(timedelta(days=3 * 365))
    found = purge()
    assert [d.player_id for d in found.identities] == [UUID(pid(card))] and found.erased == 1


def test_a_cage_operation_moves_the_clock_too(room, clock, cage):
    app = room.app
    card = room.new_player()
    identify(cage, card)
    # Five years on, the patron buys chips at the cage (no list imported:
    # no check is recorded; the operation is, for the thresholds).
    clock.advance(timedelta(days=5 * 365))
    open_cage(app)
    app.sell_chips(CAJERO, new_id(), player=card, amount_cents=500)
    assert not events_of(app, pid(card), "ExclusionChecked")
    bought = clock.now()
    clock.advance(TEN_YEARS - timedelta(days=1))
    runtime.floor_projector().catch_up()
    identity = PatronIdentity.objects.get(player_id=UUID(pid(card)))
    assert last_activity(identity) == bought
    assert purge().identities == []
    clock.advance(timedelta(days=5 * 365))
    assert purge().erased == 1


def test_a_self_excluded_patron_is_kept_while_the_exclusion_is_in_force(
    room, clock, cage, director
):
    app = room.app
    card = room.new_player()
    identify(cage, card)
    exclude_self(cage, new_id(), player=card)
    clock.advance(TEN_YEARS + timedelta(days=1))
    dry = purge_output("--dry-run")
    assert "kept: self-excluded, in force" in dry
    found = purge()
    assert found.kept_self_excluded == [UUID(pid(card))] and found.erased == 0
    assert PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()
    assert not events_of(app, pid(card), "IdentityErased")
    assert ExclusionEntry.objects.filter(player_id=UUID(pid(card))).exists()
    # Lifted, the retention applies again (its clock never stopped).
    lift_self_exclusion(director, new_id(), player=card, reason="period served")
    assert purge().erased == 1
    assert not PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()


def test_the_purge_keeps_the_document_of_a_patron_still_on_a_list(room, clock, cage, director):
    """A patron identified once, then put on the RGIAJ, is refused at every
    door; refusals record no event, so their last activity stays the day
    they were identified. Erasing their document then would let every door
    admit them by card (a patron not identified is let through): the purge
    keeps the document while a list that applies names it, says why, and
    erases it once no list does [RGIAJ, Ley 13/2011 art. 6, Real Decreto
    1614/2011; the retention: Ley 10/2010 art. 25]."""
    app = room.app
    table_id = room.drawn_table(4)[0]
    card = room.new_player()
    identify(cage, card)
    listed = HEADER + f"{NUMBER},{NAME},1980-05-17\n"
    import_list(director, new_id(), source="rgiaj", version="2026-11-01", data=listed.encode())
    refused(app, "patron_excluded", room.sit, table_id, card)
    # Nine years on, a new version of the register still lists them; they keep trying.
    clock.advance(timedelta(days=9 * 365))
    import_list(director, new_id(), source="rgiaj", version="2035-11-01", data=listed.encode())
    clock.advance(TEN_YEARS - timedelta(days=9 * 365) + timedelta(days=2))
    refused(app, "patron_excluded", room.sit, table_id, card)
    dry = purge_output("--dry-run")
    assert f"identity of player {pid(card)}" in dry
    assert "kept: on an exclusion list (rgiaj 2035-11-01)" in dry
    found = purge()
    assert found.kept_listed == [(UUID(pid(card)), ("rgiaj 2035-11-01",))]
    assert found.erased == 0 and not events_of(app, pid(card), "IdentityErased")
    # Still on the register in force: still refused at the seat.
    refused(app, "patron_excluded", room.sit, table_id, card)
    # A version that no longer lists them: the retention applies again.
    import_list(
        director,
        new_id(),
        source="rgiaj",
        version="2036-12-01",
        data=(HEADER + "11111111H,Someone,1970-01-01\n").encode(),
    )
    assert purge().erased == 1
    assert not PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()


def test_a_possible_match_keeps_the_document_too(room, clock, cage, director):
    """A list naming the patron by name and birth date without their
    document (``possible``) keeps it as well: the director's decision on the
    match needs the document it is taken on."""
    card = room.new_player()
    identify(cage, card)
    listed = HEADER + f",{NAME},1980-05-17\n"
    import_list(director, new_id(), source="rgiaj", version="2026-11-01", data=listed.encode())
    clock.advance(TEN_YEARS + timedelta(days=1))
    found = purge()
    assert found.kept_listed == [(UUID(pid(card)), ("rgiaj 2026-11-01",))]
    assert PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()


def test_a_superseded_list_version_loses_its_rows_and_keeps_its_record(room, clock, director):
    first = HEADER + "11111111H,Someone,1970-01-01\n22222222J,Other,1971-01-01\n"
    import_list(director, new_id(), source="rgiaj", version="2026-11-01", data=first.encode())
    import_list(
        director,
        new_id(),
        source="regional",
        region="GA",
        version="2026-11-01",
        data=first.encode(),
    )
    clock.advance(timedelta(days=30))
    second = HEADER + "33333333P,Third,1972-01-01\n"
    import_list(director, new_id(), source="rgiaj", version="2026-12-01", data=second.encode())
    superseded_at = clock.now()
    clock.advance(TEN_YEARS - timedelta(days=1))
    assert purge().versions == []
    clock.advance(timedelta(days=1))
    dry = purge_output("--dry-run")
    assert "list rgiaj 2026-11-01: superseded" in dry and "2 rows would be deleted" in dry
    assert ExclusionEntry.objects.count() == 5

    found = purge()
    assert [v.superseded_at for v in found.versions] == [superseded_at]
    assert found.rows_deleted == 2
    old = ExclusionList.objects.get(source="rgiaj", version="2026-11-01")
    # The version's record stays (the log names it), its rows are gone.
    assert old.purged_at == clock.now() and old.row_count == 2 and not old.entries.exists()
    assert ExclusionList.objects.get(source="rgiaj", version="2026-12-01").entries.count() == 1
    # The regional list was never superseded: kept whole.
    assert ExclusionList.objects.get(source="regional").entries.count() == 2
    assert purge().versions == []


def test_the_register_of_refused_attempts_is_purged_with_the_retention(
    room, clock, cage, director, api_as
):
    """A refused attempt (ExclusionRefusal: a patron's id, when and where
    they tried) is personal data kept for the same due diligence as the
    document: each row goes once the retention has run from its own attempt
    [Ley 10/2010 art. 25; GDPR art. 5.1.e]; a younger attempt stays."""
    from floor.models import ExclusionRefusal

    table_id = room.drawn_table(4)[0]
    card = room.new_player()
    identify(cage, card)
    listed = HEADER + f"{NUMBER},{NAME},1980-05-17\n"
    import_list(director, new_id(), source="rgiaj", version="2026-11-01", data=listed.encode())
    jefe = api_as("jaime-rr", "jefe_sector")

    def attempt() -> None:
        answer = jefe.post(
            f"/api/tables/{table_id}/seat/",
            {"command_id": new_id(), "player": card},
            format="json",
        )
        assert (answer.status_code, answer.json()["code"]) == (409, "patron_excluded")

    attempt()
    first = clock.now()
    clock.advance(timedelta(days=5 * 365))
    attempt()
    assert ExclusionRefusal.objects.filter(player_id=UUID(pid(card))).count() == 2
    clock.advance(TEN_YEARS - timedelta(days=5 * 365) - timedelta(days=1))
    assert purge().refusals == 0
    clock.advance(timedelta(days=2))
    dry = purge_output("--dry-run")
    assert "refused attempts at the doors before" in dry and ": 1 would be deleted" in dry
    assert ExclusionRefusal.objects.count() == 2
    found = purge()
    assert found.refusals == 1
    (kept,) = ExclusionRefusal.objects.filter(player_id=UUID(pid(card)))
    assert kept.at > first
    assert purge().refusals == 0


# --- the director's erasure -------------------------------------------------------------


def test_the_director_cannot_erase_a_document_the_aml_law_still_requires(
    room, clock, cage, director
):
    """A patron identified at the cage because they crossed the 2,000 EUR
    threshold is not erased the same evening: the AML report would show the
    operations of a patron nobody can identify. The documents of due
    diligence are kept ten years after the operation [Ley 10/2010 art. 25;
    PT: Lei 83/2017 art. 51, seven]; the director's erasure is refused until
    then (``identity_retention_running``, naming the day), nothing recorded;
    from that day it is recorded with its reason, ``retention_ended``."""
    from floor.compliance.identity import erase_identity

    app = room.app
    open_cage(app)
    card = room.new_player()
    identify(cage, card)
    app.sell_chips(CAJERO, new_id(), player=card, amount_cents=2_500 * 100)
    bought = clock.now()
    error = refused(
        app, "identity_retention_running", erase_identity, director, new_id(), player=card
    )
    until = years_after(bought, 10)
    assert error.params["until"] == until.isoformat()
    assert error.params["source"] == "Ley 10/2010 art. 25"
    assert PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()
    clock.advance(until - clock.now() - timedelta(seconds=1))
    refused(app, "identity_retention_running", erase_identity, director, new_id(), player=card)
    clock.advance(timedelta(seconds=1))
    erase_identity(director, new_id(), player=card)
    assert not PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()
    (event,) = events_of(app, pid(card), "IdentityErased")
    assert (event.actor, event.reason) == ("dora-r", "retention_ended")


def test_a_document_kept_for_an_exclusion_is_erased_only_if_recorded_in_error(
    room, clock, cage, director
):
    """Past the retention, the director's erasure is refused as the purge
    keeps the document: a self-exclusion in force (the house list needs it)
    and a list that applies still naming it (floor.compliance.retention). A
    document recorded in error (another patron's, a typo) is not a document
    of due diligence: erased at any time with ``reason="recorded_in_error"``,
    recorded in the event, its house-list entry with it (it named someone
    else); the patron's card stays self-excluded at every door."""
    from floor.compliance.identity import erase_identity

    app = room.app
    table_id = room.drawn_table(4)[0]
    excluded, listed = room.new_player(), room.new_player()
    identify(cage, excluded)
    identify(cage, listed, number="00000001R", name="Ana Souto Pérez")
    exclude_self(cage, new_id(), player=excluded)
    rgiaj = HEADER + "00000001R,Ana Souto Pérez,1980-05-17\n"
    import_list(director, new_id(), source="rgiaj", version="2026-11-01", data=rgiaj.encode())
    clock.advance(TEN_YEARS + timedelta(days=1))
    refused(app, "patron_self_excluded", erase_identity, director, new_id(), player=excluded)
    error = refused(
        app, "patron_on_exclusion_list", erase_identity, director, new_id(), player=listed
    )
    assert error.params["lists"] == "rgiaj 2026-11-01"
    refused(
        app, "erase_reason_invalid", erase_identity, director, new_id(), player=listed, reason="x"
    )
    assert PatronIdentity.objects.count() == 2

    erase_identity(director, new_id(), player=excluded, reason="recorded_in_error")
    (event,) = events_of(app, pid(excluded), "IdentityErased")
    assert event.reason == "recorded_in_error"
    assert not ExclusionEntry.objects.filter(player_id=UUID(pid(excluded))).exists()
    assert runtime.floor_app().repository.get(UUID(pid(excluded))).self_excluded
    refused(app, "patron_excluded", room.sit, table_id, excluded)


def test_beat_runs_the_purge_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["personal-data-purge"]
    assert entry["task"] == "floor.tasks.purge_personal_data"
    assert entry["schedule"] == settings.FLOOR_PURGE_SECONDS == 86400


def test_the_beat_task_purges(room, clock, cage):
    from floor.tasks import purge_personal_data

    card = room.new_player()
    identify(cage, card)
    clock.advance(TEN_YEARS + timedelta(days=1))
    assert purge_personal_data() == 1
    assert not PatronIdentity.objects.exists()


def test_nothing_is_purged_while_the_journal_lags(room, clock, cage, monkeypatch):
    card = room.new_player()
    identify(cage, card)
    clock.advance(TEN_YEARS + timedelta(days=1))

    class Lagging:
        def catch_up(self) -> int:
            return 0

        def lag(self) -> int:
            return 3

    monkeypatch.setattr(runtime, "floor_projector", Lagging)
    assert "lags the log: nothing purged" in purge_output()
    assert PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()
    assert not events_of(room.app, pid(card), "IdentityErased")


def test_a_row_the_log_does_not_know_is_named_and_kept_not_a_crash(room, clock):
    # A row written without its command (by hand, say): the log says the
    # patron was never identified, so the purge cannot record its erasure.
    card = room.new_player()
    PatronIdentity.objects.create(
        player_id=UUID(pid(card)),
        document_type="dni",
        document_number=NUMBER,
        country="ES",
        full_name=NAME,
        birth_date="1980-05-17",
        recorded_at=clock.now(),
        recorded_by="someone",
    )
    clock.advance(TEN_YEARS + timedelta(days=1))
    found = purge()
    assert found.failed == [(UUID(pid(card)), "identity_not_recorded")] and found.erased == 0
    assert PatronIdentity.objects.filter(player_id=UUID(pid(card))).exists()
    assert "not erased: identity_not_recorded" in purge_output()
