"""How long personal data is kept, and its purge (issue 25, item 4).

The profile's ``retention`` says how long (ES: ten years, Ley 10/2010 art.
25; PT: seven years, Lei 83/2017 art. 51; both to be confirmed against the
texts): games.profile_rules.DataRetention says why the clock runs from the
patron's last activity that needed their record.

What is purged, daily (``floor.tasks.purge_personal_data``) or by hand
(``manage.py purge_personal_data``, ``--dry-run`` to see first):

- a patron's identity document (PatronIdentity), once the retention has run
  from the last of: the row's own date, their last check at a door
  (``Player.ExclusionChecked``), their last cage operation
  (``GamingDay.PatronCageNoted``). It is erased as the director erases it:
  the command (``purge_identity``, the clock's) records ``IdentityErased``,
  which holds no data, and the row is deleted; the log and its chain stay
  whole. A patron self-excluded at the room is not purged while the
  exclusion is in force (the command refuses it: the house list reads the
  document). Nor is a patron whose document a list that applies in the
  room still lists (``excluded``, or ``possible`` by name and birth date,
  floor.compliance.exclusions.check_identity): a refused attempt records no
  event, so a listed patron who keeps trying looks inactive, and erasing
  their document would let every door admit them by card (a patron not
  identified is let through). The document is the room's means of keeping
  the exclusion, which the register's rules oblige it to apply [RGIAJ, Ley
  13/2011 art. 6 and Real Decreto 1614/2011; PT: Decreto-Lei 422/89 arts.
  36-38]; it is kept while listed, and the retention applies again (its
  clock never stopped) once no list names it;
- the rows of an exclusion list's version that a newer version of the same
  list superseded (was imported) longer ago than the retention. The
  version's own row (list, date, row count, who imported it) stays, marked
  ``purged_at``: the log names the version (the import's
  ``VersionImported``, each check's list versions), so an inspector can
  still see which version a check read. The house list is never superseded:
  its entries go when a self-exclusion is lifted;
- the register of refused attempts at the doors (ExclusionRefusal,
  floor.compliance.refusals: a patron's id, when and where they tried), each
  row once the retention has run from its own attempt: it is personal data
  kept for the same due diligence [Ley 10/2010 art. 25; Lei 83/2017 art. 51;
  GDPR art. 5.1.e, kept no longer than needed]. Nothing in the log names
  the row, so it is simply deleted.

The activity is read from the audit journal (the events that concern the
patron): the purge first brings it up to date, and purges nothing while it
lags, so a journal being rebuilt never makes a recent patron look old.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from floor import runtime
from floor.application.clocks import CLOCK_ACTOR
from floor.application.exclusion_gate import EXCLUDED, POSSIBLE
from floor.compliance.exclusions import check_identity
from floor.compliance.records import identity_of
from floor.kernel.errors import DomainError, conflict
from floor.kernel.web.gateway import record_as
from floor.kernel.web.projector import ProjectionLagging
from floor.models import (
    EventJournalEntry,
    ExclusionEntry,
    ExclusionList,
    ExclusionRefusal,
    JournalMention,
    PatronIdentity,
)
from games.profile_rules import years_after

# The events that used a patron's record: a check at a door, a cage
# operation, the record itself (recorded or corrected). Matched by their
# class's name: the cage's event is the ledger's (the floor imports nothing of
# the ledger, pyproject.toml).
ACTIVITY = (
    ":Player.ExclusionChecked",
    ":Player.IdentityRecorded",
    ":GamingDay.PatronCageNoted",
)


@dataclass
class Due:
    """A patron's identity past its retention."""

    player_id: UUID
    last_activity: datetime
    kept_until: datetime


@dataclass
class Superseded:
    """A list version's rows past their retention."""

    version: ExclusionList
    superseded_at: datetime
    kept_until: datetime


@dataclass
class Purge:
    """What a purge found (and, unless a dry run, erased)."""

    source: str
    identities: list[Due] = field(default_factory=list)
    kept_self_excluded: list[UUID] = field(default_factory=list)
    # Kept because a list that applies names the document: the patron and the versions.
    kept_listed: list[tuple[UUID, tuple[str, ...]]] = field(default_factory=list)
    versions: list[Superseded] = field(default_factory=list)
    # Refused for another reason (the record and the log disagree): named, not purged.
    failed: list[tuple[UUID, str]] = field(default_factory=list)
    # The refused attempts older than the retention (counted; deleted unless a dry run).
    refusals: int = 0
    refusals_before: datetime | None = None
    erased: int = 0
    rows_deleted: int = 0
    lagging: bool = False


def last_activity(identity: PatronIdentity) -> datetime:
    """The latest of the record's date and the journal's events that used it."""
    positions = JournalMention.objects.filter(subject=identity.player_id.hex).values("position")
    activity = Q()
    for suffix in ACTIVITY:
        activity |= Q(topic__endswith=suffix)
    latest = EventJournalEntry.objects.filter(activity, position__in=positions).aggregate(
        last=Max("occurred_at")
    )["last"]
    return max(identity.recorded_at, latest) if latest else identity.recorded_at


def identities_due(now: datetime) -> list[Due]:
    """The identities whose retention ended by ``now``: first those whose own
    date is old enough (one query), then each one's last activity."""
    rule = runtime.floor_app().profile.retention
    if rule.years is None:
        return []
    due = []
    oldest = years_after(now, -rule.years)
    for identity in PatronIdentity.objects.filter(recorded_at__lte=oldest).order_by("recorded_at"):
        last = last_activity(identity)
        until = rule.kept_until(last)
        if until is not None and until <= now:
            due.append(Due(identity.player_id, last, until))
    return due


def versions_due(now: datetime) -> list[Superseded]:
    """The list versions (the house's excepted) whose rows are past retention:
    a newer version of the same list was imported longer ago than it."""
    rule = runtime.floor_app().profile.retention
    if rule.years is None:
        return []
    by_list: dict[tuple[str, str], list[ExclusionList]] = {}
    for row in ExclusionList.objects.exclude(source=ExclusionList.HOUSE).order_by("version"):
        by_list.setdefault((row.source, row.region), []).append(row)
    due = []
    for versions in by_list.values():
        for index, older in enumerate(versions[:-1]):
            # Superseded when the first newer version arrived (or when it
            # was itself imported, if a newer one was there before it).
            first_newer = min(newer.imported_at for newer in versions[index + 1 :])
            superseded = max(older.imported_at, first_newer)
            until = rule.kept_until(superseded)
            if older.purged_at is None and until is not None and until <= now:
                due.append(Superseded(older, superseded, until))
    return due


def refusals_due(now: datetime) -> tuple[datetime | None, int]:
    """The refused attempts whose retention ended by ``now``: those before
    the returned instant (None, and none, when the profile keeps data for
    good), and how many they are."""
    rule = runtime.floor_app().profile.retention
    if rule.years is None:
        return None, 0
    before = years_after(now, -rule.years)
    return before, ExclusionRefusal.objects.filter(at__lt=before).count()


def purge(*, dry_run: bool = False) -> Purge:
    """Finds what is past retention and, unless ``dry_run``, erases it (see
    the module's docstring). A self-excluded patron, and one a list that
    applies still names, are reported as kept, with why."""
    app = runtime.floor_app()
    now = app.clock.now()
    found = Purge(source=app.profile.retention.source)
    projector = runtime.floor_projector()
    projector.catch_up()
    if projector.lag():
        found.lagging = True
        return found
    found.identities = identities_due(now)
    found.versions = versions_due(now)
    found.refusals_before, found.refusals = refusals_due(now)
    region = app.profile.exclusion_region
    erasable = []
    for due in found.identities:
        if _self_excluded(due.player_id):
            found.kept_self_excluded.append(due.player_id)
        elif listed := _listed(due.player_id, region):
            found.kept_listed.append((due.player_id, listed))
        else:
            erasable.append(due)
    if dry_run:
        return found
    for due in erasable:
        refused = _erase(due)
        if refused is None:
            found.erased += 1
        elif refused == "patron_self_excluded":
            found.kept_self_excluded.append(due.player_id)
        else:
            found.failed.append((due.player_id, refused))
    for superseded in found.versions:
        found.rows_deleted += _drop_rows(superseded.version, now)
    if found.refusals_before is not None:
        found.refusals, _ = ExclusionRefusal.objects.filter(at__lt=found.refusals_before).delete()
    return found


# How long a director's erasure waits for the audit journal to catch up.
JOURNAL_WAIT_SECONDS = 5.0


def check_erasable(identity: PatronIdentity) -> None:
    """Refuses a director's erasure of ``identity`` that the law does not
    allow yet (floor.compliance.identity.erase_identity, without the reason
    ``recorded_in_error``): the same rule as the purge's. Within the
    profile's retention, counted from the patron's last activity,
    ``identity_retention_running`` names the day it ends and its source
    [Ley 10/2010 art. 25; Lei 83/2017 art. 51: the documents of due
    diligence are kept for the period, so the AML report's operations stay
    traceable to a patron]; a profile that keeps them for good,
    ``identity_kept_for_good``; past it, a self-exclusion in force,
    ``patron_self_excluded``, and a document a list that applies still
    names, ``patron_on_exclusion_list`` (the module's docstring). The
    activity is read from the audit journal, brought up to date first: while
    it lags, ``personal_data_journal_lagging``, never a guess."""
    rule = runtime.floor_app().profile.retention
    if rule.years is None:
        raise conflict("identity_kept_for_good", source=rule.source)
    try:
        runtime.floor_projector().catch_up(timeout=JOURNAL_WAIT_SECONDS)
    except ProjectionLagging:
        raise conflict("personal_data_journal_lagging") from None
    until = rule.kept_until(last_activity(identity))
    if until is not None and until > runtime.floor_app().clock.now():
        raise conflict(
            "identity_retention_running",
            until=until.isoformat(),
            day=timezone.localtime(until).date().isoformat(),
            source=rule.source,
        )
    if _self_excluded(identity.player_id):
        # Before the lists: the patron's own entry on the house list is not why.
        raise conflict("patron_self_excluded")
    listed = _listed(identity.player_id, runtime.floor_app().profile.exclusion_region)
    if listed:
        raise conflict("patron_on_exclusion_list", lists=", ".join(listed))


def _listed(player_id: UUID, region: str) -> tuple[str, ...]:
    """The list versions that name the patron's document (by number, or by
    name and birth date), of the lists that apply in ``region``; () if none."""
    checked = check_identity(identity_of(player_id), region)
    return checked.matched if checked.result in (EXCLUDED, POSSIBLE) else ()


def _self_excluded(player_id: UUID) -> bool:
    player = runtime.floor_app().repository.get(player_id)
    return bool(getattr(player, "self_excluded", False))


def _erase(due: Due) -> str | None:
    """Records the purge (the clock's command) and deletes the row; the
    refusal's code when the command refuses (``patron_self_excluded``: a
    self-exclusion in force). The command id is the patron's and the
    retention's end: a purge run twice records once."""
    command_id = f"purge-identity:{due.player_id.hex}:{due.kept_until.isoformat()}"
    try:
        outcome = record_as(CLOCK_ACTOR, "purge_identity", command_id, player=due.player_id.hex)
    except DomainError as refused:
        return refused.code
    PatronIdentity.objects.filter(player_id=UUID(outcome.result["player_id"])).delete()
    return None


def _drop_rows(version: ExclusionList, now: datetime) -> int:
    with transaction.atomic():
        deleted, _ = ExclusionEntry.objects.filter(exclusion_list=version).delete()
        version.purged_at = now
        version.save(update_fields=["purged_at"])
    return deleted
