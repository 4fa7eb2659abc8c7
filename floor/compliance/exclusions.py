"""Exclusion lists: imported, and a patron checked against them (issue 25, item 2).

A Spanish casino checks the national register of gaming bans (RGIAJ) and the
region's own register (Galicia keeps its register of banned persons; a listing
there counts in Galicia); a Portuguese casino, the SRIJ's access bans
(Decreto-Lei 422/89 arts. 36-38). The house keeps its own list: the room's
self-exclusions. Articles to confirm against the texts, as issue 25 asks.

The lists arrive as CSV files with document numbers, names and birth dates in
columns that differ from one sender to another: the importer reads them
through a mapping (``FLOOR_EXCLUSION_MAPPING``, or the command's
``--mapping``). Each version is kept whole (its date is the version), and a
check reads the latest version of each list that applies: the national lists
everywhere they were imported, a regional list only where the room's profile
says its region is (``exclusion_region``). The house list is read whole,
every version: a self-exclusion stays until lifted (a director's decision,
after the house's minimum period: ``lift_self_exclusion``).

A patron is matched by their recorded document (PatronIdentity): the same
number, normalised the same way, is ``excluded``; the same name key (upper
case, accents stripped, single spaces) and birth date without a document
match is ``possible``, which a director resolves. A patron with no recorded
document is ``not_identified``.

The rows are personal data kept outside the event log; the log records the
import (list, version, row counts) and the checks (list versions, result).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, router, transaction
from django.db.models import Q

from floor import runtime
from floor.application.exclusion_gate import (
    CLEAR,
    EXCLUDED,
    NOT_IDENTIFIED,
    POSSIBLE,
    CheckResult,
)
from floor.compliance.documents import normalise_number
from floor.compliance.records import identity_of
from floor.kernel.errors import invalid
from floor.kernel.service import Outcome
from floor.kernel.web.gateway import ReadModelsBehind, actor_for, perform, record_as
from floor.models import ExclusionEntry, ExclusionList, PatronIdentity

BATCH = 5000
MAX_DOCUMENT = 20
MAX_NAME = 120
# At most this many bad rows are named (by line number) in the report.
NAMED_BAD_ROWS = 20
NATIONAL = (ExclusionList.RGIAJ, ExclusionList.SRIJ)
MAPPING_KEYS = ("document", "name", "birth_date", "date_format", "delimiter")


def name_key(name: object) -> str:
    """A name as lists and documents are compared: upper case, accents
    stripped (NFKD, combining marks dropped), single spaces."""
    if not isinstance(name, str):
        return ""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.upper().split())


def label(row: ExclusionList) -> str:
    """A list version as events and refusals name it: "rgiaj 2026-11-01",
    "regional GA 2026-10-15"."""
    region = f" {row.region}" if row.region else ""
    return f"{row.source}{region} {row.version.isoformat()}"


# --- the mapping ----------------------------------------------------------------


@dataclass(frozen=True)
class Mapping:
    document: str = ""
    name: tuple[str, ...] = ()
    birth_date: str = ""
    date_format: str = "%Y-%m-%d"
    delimiter: str = ","


def parse_mapping(text: object) -> Mapping:
    """``document=DNI;name=NOMBRE+APELLIDOS;birth_date=NACIMIENTO;
    date_format=%d/%m/%Y;delimiter=;``-like text (pairs separated by ";"; a
    delimiter ";" is written "semicolon", a tab "tab")."""
    if not isinstance(text, str) or not text.strip():
        raise invalid("exclusion_mapping_invalid", keys=list(MAPPING_KEYS))
    found: dict[str, Any] = {}
    for pair in text.split(";"):
        if not pair.strip():
            continue
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or key not in MAPPING_KEYS:
            raise invalid("exclusion_mapping_invalid", keys=list(MAPPING_KEYS))
        found[key] = value.strip()
    if "name" in found:
        found["name"] = tuple(c.strip() for c in found["name"].split("+") if c.strip())
    delimiter = {"tab": "\t", "semicolon": ";", "comma": ","}.get(
        found.get("delimiter", ","), found.get("delimiter", ",")
    )
    found["delimiter"] = delimiter
    if len(delimiter) != 1 or not (found.get("document") or found.get("name")):
        raise invalid("exclusion_mapping_invalid", keys=list(MAPPING_KEYS))
    return Mapping(**found)


def default_mapping() -> Mapping:
    return parse_mapping(settings.FLOOR_EXCLUSION_MAPPING)


# --- reading a file ---------------------------------------------------------------


@dataclass
class Read:
    entries: list[tuple[str, str, date | None]]
    bad_rows: int = 0
    bad_lines: list[int] | None = None


def read_rows(lines: Iterable[str], mapping: Mapping) -> Read:
    """The file's rows as (document, name key, birth date); a row that cannot
    be read is counted (and its line named, the first few), never a crash: a
    date not in the mapping's format, a document too long, a NUL byte in a
    mapped column, a row with neither a document nor a name and birth date
    (it could match nobody)."""
    try:
        return _read(lines, mapping)
    except csv.Error:
        raise invalid("exclusion_file_unreadable") from None


def _read(lines: Iterable[str], mapping: Mapping) -> Read:
    reader = csv.DictReader(lines, delimiter=mapping.delimiter)
    columns = set(reader.fieldnames or ())
    wanted = {c for c in (mapping.document, mapping.birth_date, *mapping.name) if c}
    if not wanted <= columns:
        raise invalid("exclusion_columns_missing", missing=sorted(wanted - columns))
    read = Read(entries=[], bad_lines=[])
    for row in reader:
        line = reader.line_num
        try:
            entry = _entry(row, mapping)
        except ValueError:
            entry = None
        if entry is None:
            read.bad_rows += 1
            if len(read.bad_lines) < NAMED_BAD_ROWS:
                read.bad_lines.append(line)
            continue
        read.entries.append(entry)
    return read


def _entry(row: dict, mapping: Mapping) -> tuple[str, str, date | None] | None:
    mapped = (mapping.document, mapping.birth_date, *mapping.name)
    if any("\x00" in (row.get(c) or "") for c in mapped if c):
        # A NUL byte is no document, name or date (and PostgreSQL stores no
        # NUL in text: kept, it would fail the import after its event).
        return None
    document = normalise_number(row.get(mapping.document) or "") if mapping.document else ""
    name = name_key(" ".join((row.get(c) or "") for c in mapping.name))
    raw_date = (row.get(mapping.birth_date) or "").strip() if mapping.birth_date else ""
    born = datetime.strptime(raw_date, mapping.date_format).date() if raw_date else None
    if len(document) > MAX_DOCUMENT or len(name) > MAX_NAME:
        return None
    if not document and not (name and born):
        return None
    return document, name, born


def _lines(data: bytes | str) -> Iterator[str]:
    """The file's lines: UTF-8 (a BOM dropped), else Latin-1, as files from
    older systems come (every byte is a Latin-1 character)."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    else:
        text = data
    return iter(io.StringIO(text, newline=""))


# --- importing ------------------------------------------------------------------


def clean_version(value: object) -> date:
    try:
        return date.fromisoformat(value.strip()) if isinstance(value, str) else None  # type: ignore[return-value]
    except ValueError:
        raise invalid("list_version_invalid", format="YYYY-MM-DD") from None


def clean_source(source: object, region: object) -> tuple[str, str]:
    if source not in ExclusionList.SOURCES:
        raise invalid("exclusion_source_invalid", allowed=list(ExclusionList.SOURCES))
    code = region.strip().upper() if isinstance(region, str) else ""
    if source == ExclusionList.REGIONAL and not (code.isalpha() and 2 <= len(code) <= 4):
        raise invalid("exclusion_region_required")
    return str(source), code if source == ExclusionList.REGIONAL else ""


def import_list(
    user: Any,
    command_id: str,
    *,
    source: object,
    region: object = "",
    version: object,
    data: bytes | str,
    mapping: Mapping | None = None,
) -> tuple[Outcome, Read]:
    """Reads a list's file, records its import (the list, its version, the
    rows read and refused: ``import_exclusion_list``, the director's) and
    keeps its rows, in batches. A version already imported is refused; a
    file that cannot be read at all (its columns missing) records nothing."""
    kind, code = clean_source(source, region)
    day = clean_version(version)
    if day is None:
        raise invalid("list_version_invalid", format="YYYY-MM-DD")
    # A version already imported is refused by its register (list_version_exists);
    # a repeated command id answers as the first time, importing nothing again.
    read = read_rows(_lines(data), mapping or default_mapping())
    arguments = {
        "source": kind,
        "region": code,
        "version": day.isoformat(),
        "rows": len(read.entries),
        "bad_rows": read.bad_rows,
    }
    actor = actor_for(user)
    # No read model shows an import: the command does not wait for the
    # projector (a command-line import runs with none beside it).
    outcome = record_as(actor, "import_exclusion_list", command_id, **arguments)
    if not outcome.replayed:
        _keep(kind, code, day, read, actor.username)
    return outcome, read


def _keep(kind: str, code: str, day: date, read: Read, by: str) -> ExclusionList:
    with transaction.atomic():
        kept = ExclusionList.objects.create(
            source=kind,
            region=code,
            version=day,
            imported_at=runtime.floor_app().clock.now(),
            imported_by=by,
            row_count=len(read.entries),
            bad_rows=read.bad_rows,
        )
        for start in range(0, len(read.entries), BATCH):
            ExclusionEntry.objects.bulk_create(
                ExclusionEntry(
                    exclusion_list=kept, document_number=number, name_key=name, birth_date=born
                )
                for number, name, born in read.entries[start : start + BATCH]
            )
    return kept


# --- checking ---------------------------------------------------------------------
#
# A check runs at every door (issue 25 asks under a millisecond at seating), so
# it is two small queries, each on its index, with their SQL written once here:
# the ORM spent about 150 us compiling each query it ran in 15 us (bench/
# README.md, "exclusion_list.py"). The lists that apply change only when a
# version is imported: they are kept in the process, stamped with the lists'
# count and highest id, which the first query reads beside the patron's
# document, so a version imported by another process is seen at the next check.


def applicable_lists(region: str) -> list[ExclusionList]:
    """The latest version of each national list and of the region's list,
    and every version of the house list (one query: the lists are few)."""
    latest: dict[tuple[str, str], ExclusionList] = {}
    house = []
    for row in ExclusionList.objects.only("id", "source", "region", "version"):
        if row.source == ExclusionList.HOUSE:
            house.append(row)
        elif row.source in NATIONAL or (region and row.region == region):
            key = (row.source, row.region)
            if key not in latest or latest[key].version < row.version:
                latest[key] = row
    return sorted([*latest.values(), *house], key=lambda x: (x.source, x.region, x.version))


@dataclass(frozen=True)
class Applicable:
    """The lists that apply in a region, as a check uses them: their labels,
    in order, and each one's label by its id; ``stamp`` says which state of
    the lists they were read from."""

    stamp: tuple[int, int]
    labels: tuple[str, ...]
    by_id: dict[int, str]


# region -> the lists that apply there, as last read by this process.
_applicable: dict[str, Applicable] = {}


def forget_lists(**_: object) -> None:
    """Drops what this process read of the lists (a version saved or deleted
    here: floor.apps connects it to ExclusionList's signals). Another
    process's import is seen by its stamp."""
    _applicable.clear()


def lists_for(region: str, stamp: tuple[int, int]) -> Applicable:
    """The lists that apply in ``region``, read again only when the lists'
    stamp (their count and highest id) is not the one they were read at."""
    known = _applicable.get(region)
    if known is not None and known.stamp == stamp:
        return known
    lists = applicable_lists(region)
    known = Applicable(stamp, tuple(label(x) for x in lists), {x.id: label(x) for x in lists})
    _applicable[region] = known
    return known


def _sql(model: type, text: str) -> tuple[Any, str]:
    """The connection ``model`` is read from, and ``text`` with its table and
    columns named as that database quotes them ({table}, {column_name})."""
    connection = connections[router.db_for_read(model) or DEFAULT_DB_ALIAS]
    quote = connection.ops.quote_name
    names = {f.name: quote(f.column) for f in model._meta.concrete_fields}
    return connection, text.format(table=quote(model._meta.db_table), **names)


def _prep(model: type, field: str, value: object, connection: Any) -> object:
    """``value`` as the database takes it for ``model.field`` (a UUID on
    SQLite is its hex, a date its ISO text), as the ORM would send it."""
    return model._meta.get_field(field).get_db_prep_value(value, connection)


def _stamp_sql(connection: Any) -> str:
    quote = connection.ops.quote_name
    table = quote(ExclusionList._meta.db_table)
    return f"(SELECT COUNT(*) FROM {table}), (SELECT COALESCE(MAX(id), 0) FROM {table})"


def _document_and_stamp(player_id: UUID | str) -> tuple | None:
    """One query: the patron's document number, full name and birth date, and
    the lists' stamp; None when no document is recorded."""
    connection, text = _sql(
        PatronIdentity,
        "SELECT {document_number}, {full_name}, {birth_date}, %s FROM {table} "
        "WHERE {player_id} = %%s",
    )
    player = _prep(PatronIdentity, "player_id", UUID(str(player_id)), connection)
    with connection.cursor() as cursor:
        cursor.execute(text % _stamp_sql(connection), [player])
        return cursor.fetchone()


def _lists_stamp() -> tuple[int, int]:
    connection = connections[router.db_for_read(ExclusionList) or DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_stamp_sql(connection)}")
        count, top = cursor.fetchone()
    return int(count), int(top)


def _hits(number: str, key: str, born: date | None) -> list[tuple[int, str]]:
    """The entries of any version matching by document, or by name key and
    birth date, as (list id, document number). Not filtered by list in the
    query: the database then looks each branch up on its own index (the
    list's key would have it scan a whole list); the versions that do not
    apply are dropped by the caller."""
    connection, text = _sql(
        ExclusionEntry,
        "SELECT {exclusion_list}, {document_number} FROM {table} "
        "WHERE {document_number} = %s OR ({name_key} = %s AND {birth_date} = %s)",
    )
    params = [number, key, _prep(ExclusionEntry, "birth_date", born, connection)]
    with connection.cursor() as cursor:
        cursor.execute(text, params)
        return cursor.fetchall()


def _checked(applicable: Applicable, number: str, full_name: str, born: date | None):
    if not applicable.labels:
        return CheckResult(CLEAR, applicable.labels)
    documented, named = set(), set()
    for list_id, listed_number in _hits(number, name_key(full_name), born):
        found = applicable.by_id.get(list_id)
        if found is not None:
            (documented if listed_number == number else named).add(found)
    if documented:
        return CheckResult(EXCLUDED, applicable.labels, tuple(sorted(documented)))
    if named:
        return CheckResult(POSSIBLE, applicable.labels, tuple(sorted(named)))
    return CheckResult(CLEAR, applicable.labels)


def check_identity(identity: PatronIdentity | None, region: str) -> CheckResult:
    """What the lists that apply in ``region`` say of this document: a
    document match is ``excluded``, a name key and birth date match without
    one ``possible``."""
    if identity is None:
        return CheckResult(NOT_IDENTIFIED)
    applicable = lists_for(region, _lists_stamp())
    return _checked(applicable, identity.document_number, identity.full_name, identity.birth_date)


def check_patron(player_id: UUID | str, region: str = "") -> CheckResult:
    """The patron checked against the lists that apply in ``region``:
    excluded, possible, clear or not_identified (floor.apps plugs this into
    the doors' check, floor.application.exclusion_gate). Two queries: the
    document with the lists' stamp, then the entries that match it."""
    found = _document_and_stamp(player_id)
    if found is None:
        return CheckResult(NOT_IDENTIFIED)
    number, full_name, born, count, top = found
    return _checked(lists_for(region, (int(count), int(top))), number, full_name, born)


# --- self-exclusion ---------------------------------------------------------------


def house_list(by: str) -> ExclusionList:
    """The house list's latest version, opened today if there is none."""
    found = ExclusionList.objects.filter(source=ExclusionList.HOUSE).order_by("-version").first()
    if found is not None:
        return found
    now = runtime.floor_app().clock.now()
    return ExclusionList.objects.create(
        source=ExclusionList.HOUSE,
        region="",
        version=now.date(),
        imported_at=now,
        imported_by=by,
    )


def exclude_self(user: Any, command_id: str, *, player: str) -> Outcome:
    """Records the patron's self-exclusion (``exclude_self``: every door
    refuses them from now on) and, if their document is recorded, puts it on
    the house list, so the same document under another card is refused too."""
    by = actor_for(user).username
    try:
        outcome = perform("exclude_self", user, command_id, player=player)
    except ReadModelsBehind as behind:
        if not behind.outcome.replayed:
            put_on_house_list(behind.outcome.result["player_id"], by)
        raise
    if not outcome.replayed:
        put_on_house_list(outcome.result["player_id"], by)
    return outcome


def put_on_house_list(player_id: str, by: str) -> None:
    """Puts the patron's recorded document on the house list, once: at their
    self-exclusion, and when a self-excluded patron's document is recorded or
    replaced afterwards (floor.compliance.identity.record_identity). A
    replaced document adds its entry beside the old one: both go when the
    self-exclusion is lifted."""
    identity = identity_of(player_id)
    if identity is None:
        return
    with transaction.atomic():
        kept = house_list(by)
        already = ExclusionEntry.objects.filter(
            exclusion_list__source=ExclusionList.HOUSE,
            player_id=UUID(str(player_id)),
            document_number=identity.document_number,
        )
        if already.exists():
            return
        ExclusionEntry.objects.create(
            exclusion_list=kept,
            document_number=identity.document_number,
            name_key=name_key(identity.full_name),
            birth_date=identity.birth_date,
            player_id=UUID(str(player_id)),
        )
        kept.row_count = kept.entries.count()
        kept.save(update_fields=["row_count"])


def lift_self_exclusion(user: Any, command_id: str, *, player: str, reason: object) -> Outcome:
    """Lifts the patron's self-exclusion (``lift_self_exclusion``, the
    director's, once the house's minimum period has passed) and takes their
    document off the house list, so no door refuses them for it."""
    try:
        outcome = perform("lift_self_exclusion", user, command_id, player=player, reason=reason)
    except ReadModelsBehind as behind:
        if not behind.outcome.replayed:
            _off_house_list(behind.outcome.result["player_id"])
        raise
    if not outcome.replayed:
        _off_house_list(outcome.result["player_id"])
    return outcome


def off_house_list(player_id: str, document_number: str) -> None:
    """Deletes the patron's house-list entry of one document: a document
    erased as recorded in error (floor.compliance.identity.erase_identity)
    named someone else, or no one. Their other entries, and their
    self-exclusion (every door still refuses their card), stay."""
    mine = Q(player_id=UUID(str(player_id)), document_number=document_number)
    _delete_house_entries(mine)


def _off_house_list(player_id: str) -> None:
    """Deletes the patron's house-list entries: theirs by id, and, for an
    entry kept before the id was (none in service), by their document."""
    mine = Q(player_id=UUID(str(player_id)))
    identity = identity_of(player_id)
    if identity is not None:
        mine |= Q(player_id__isnull=True, document_number=identity.document_number)
    _delete_house_entries(mine)


def _delete_house_entries(mine: Q) -> None:
    with transaction.atomic():
        ExclusionEntry.objects.filter(mine, exclusion_list__source=ExclusionList.HOUSE).delete()
        for kept in ExclusionList.objects.filter(source=ExclusionList.HOUSE):
            kept.row_count = kept.entries.count()
            kept.save(update_fields=["row_count"])
