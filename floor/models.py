"""Read models: what the consoles and the API show, rebuilt from the event log.

Nothing here is the truth; the event store is. Every row is written by a
projection (floor.projections) and can be dropped and rebuilt with
``manage.py rebuild_projections``.
"""

from __future__ import annotations

from itertools import islice

from django.core.validators import RegexValidator
from django.db import models
from django.db.models.query import ModelIterable
from django.utils.translation import gettext, gettext_lazy


class ProjectionPosition(models.Model):
    """How far a projector has applied the log: moved in the same transaction as
    the read models it updates, so each event is applied exactly once."""

    name = models.CharField(primary_key=True, max_length=100)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True)
    # The shape of the read models this row's projection built (its
    # ``version``): a release that changes them finds its predecessor's number
    # here and rebuilds them (floor.kernel.web.shadow_rebuild.rebuild_if_outdated).
    version = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"{self.name} at {self.position}"


class LiveMark(models.Model):
    """The last position at which an event changed what one console shows
    (``scope``: ``sector:<id>``, ``table:<id>``, ``cage``, or ``all`` for an
    event that may show anywhere). Stamped by the floor's projection in the
    same transaction as the read models it changed (floor.projections.live_marks),
    so a console's live part answers 204 while its own scopes stand still,
    however busy the rest of the room is."""

    scope = models.CharField(primary_key=True, max_length=60)
    position = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.scope} at {self.position}"


class SectorView(models.Model):
    id = models.UUIDField(primary_key=True)
    name = models.CharField(max_length=60, unique=True)
    table_count = models.PositiveSmallIntegerField(default=0)
    opened_at = models.DateTimeField()
    opened_by = models.CharField(max_length=150)
    # The casino's closing time and when the last hands start [CM-24].
    closes_at = models.DateTimeField(null=True)
    last_hands_at = models.DateTimeField(null=True)
    last_hands_begun = models.BooleanField(default=False)
    # The jefes the director named to run it; empty: any jefe [GA art. 19.1].
    jefes = models.JSONField(default=list)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class TableView(models.Model):
    id = models.UUIDField(primary_key=True)
    sector = models.ForeignKey(SectorView, related_name="tables", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=30)
    limit = models.CharField(max_length=20)
    minimum_cents = models.BigIntegerField()
    maximum_cents = models.BigIntegerField()
    seats = models.PositiveSmallIntegerField()
    # The crupier dealing here (the only dealer who may report its hands).
    dealer = models.CharField(max_length=150, blank=True, default="")
    status = models.CharField(max_length=20)
    opened_at = models.DateTimeField()
    opened_by = models.CharField(max_length=150)
    second_variant = models.CharField(max_length=30, blank=True, default="")
    ante_cents = models.BigIntegerField(default=0)
    rake = models.JSONField(null=True)
    button = models.PositiveSmallIntegerField(null=True)
    hands_played = models.PositiveIntegerField(default=0)
    hand_in_progress = models.PositiveIntegerField(null=True)
    draw_open = models.BooleanField(default=False)
    players = models.PositiveSmallIntegerField(default=0)
    suspended_at = models.DateTimeField(null=True)
    closes_at = models.DateTimeField(null=True)
    closed_at = models.DateTimeField(null=True)
    seat_change_requests = models.JSONField(default=list)
    # The clocks running at the table: the action clock [CM-20..22], the time
    # rake's session [GA art. 18.3b; PT 7b], the last hands still to deal [CM-24].
    action_clock = models.JSONField(null=True)
    session = models.JSONField(null=True)
    # Which rule ends a time-charged table's sessions [GA art. 18.3b; PT 7b]
    # (floor.domain.session_clock.session_rule_read); None at a table charging
    # per hand.
    session_rule = models.JSONField(null=True)
    last_hands_left = models.PositiveSmallIntegerField(null=True)
    # The jackpot stakes of the hand just played and the next [GA art. 8b;
    # PT-SD 8]: jackpot id (hex) -> hand -> seats, players, dealt in, as the
    # Table keeps them (floor.domain.table_jackpots), so the card offers the
    # stake and prize forms by the command's own checks.
    jackpot_stakes = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["sector__name", "number"]
        constraints = [
            # A closed table's number is given to the next table opened in
            # its sector (floor.domain.sector.release_table).
            models.UniqueConstraint(
                fields=["sector", "number"],
                condition=~models.Q(status="closed"),
                name="open_table_number_in_sector",
            )
        ]

    def __str__(self) -> str:
        return f"{self.sector.name} #{self.number}"

    @property
    def label(self) -> str:
        """The table as the consoles name it, in the active language: "Mesa 1 ·
        Sector A" (the cage's lists, its receipts)."""
        return f"{gettext('Table %(number)s') % {'number': self.number}} · {self.sector.name}"


class PlayerView(models.Model):
    """A player as the floor knows them: card number and display name only."""

    id = models.UUIDField(primary_key=True)
    card_number = models.CharField(max_length=30, unique=True)
    display_name = models.CharField(max_length=60)
    barred = models.BooleanField(default=False)
    bar_reason = models.CharField(max_length=200, blank=True, default="")
    table = models.ForeignKey(
        TableView, null=True, related_name="+", on_delete=models.SET_NULL, db_constraint=False
    )
    seat = models.PositiveSmallIntegerField(null=True)
    registered_at = models.DateTimeField()
    in_tournament = models.BooleanField(default=False)  # CM-23
    kept_apart = models.JSONField(default=list)  # player ids kept from their table [CM-14]
    # The gaming days (ISO) of the player's last uses of the absence clock [CM-18].
    absence_days = models.JSONField(default=list)
    # Once seated, the player's other lists are dropped (True) or kept, as the
    # player chose on their page (issue 24).
    drops_other_lists = models.BooleanField(default=False)

    class Meta:
        ordering = ["card_number"]

    def __str__(self) -> str:
        return f"{self.card_number} {self.display_name}"


class BalanceGroupView(models.Model):
    """The tables of one game and stakes (RULES.md section 7): the move the
    service proposes and why, and the players asking to change table."""

    id = models.UUIDField(primary_key=True)
    game = models.CharField(max_length=80, unique=True)
    table_ids = models.JSONField(default=list)  # open tables, in the order they opened
    proposal = models.JSONField(null=True)
    change_requests = models.JSONField(default=list)
    # The must-move tables: each (id text) -> the main table it feeds
    # (floor.domain.must_move).
    must_move = models.JSONField(default=dict)
    moves = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game"]

    def __str__(self) -> str:
        return self.game


class SeatView(models.Model):
    """An occupied seat: who sits there, their stack and what the floor must watch."""

    table = models.ForeignKey(TableView, related_name="occupied_seats", on_delete=models.CASCADE)
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(PlayerView, related_name="+", on_delete=models.CASCADE)
    stack_cents = models.BigIntegerField(default=0)
    newcomer = models.BooleanField(default=False)
    posts_big_blind = models.BooleanField(default=False)
    resting = models.BooleanField(default=False)
    rested_hands = models.PositiveSmallIntegerField(default=0)
    idle_hands = models.PositiveSmallIntegerField(default=0)
    owes_cents = models.BigIntegerField(default=0)
    must_rebuy = models.BooleanField(default=False)
    must_leave = models.CharField(max_length=30, blank=True, default="")
    must_post_big_blind = models.BooleanField(default=False)
    rest_exceeded = models.BooleanField(default=False)
    # Dealt a hand here: may ask for the absence clock [CM-19].
    played_hand = models.BooleanField(default=False)
    # On the absence clock [CM-18]: its deadlines, warned, posting blinds.
    away = models.JSONField(null=True)
    time_due = models.BooleanField(default=False)  # owes the session's time charge
    # Asked for the absence clock during the hand: it starts when the hand ends.
    away_after_hand = models.BooleanField(default=False)
    # Where a move or seat change brought the player from, while it may be
    # undone (floor.domain.corrections); None otherwise.
    moved_from = models.JSONField(null=True)
    # Rests taken at this table: under PT 13 a third means leaving, so the card
    # offers "Rest" by the command's own check (floor.domain.rests.rest_refusal).
    rests = models.PositiveSmallIntegerField(default=0)
    # When the player sat down here, as an order (floor.domain.seat): a
    # must-move table moves its players in it. None before it was recorded.
    arrival = models.PositiveIntegerField(null=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="one_player_a_seat")]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}"


class WaitingListView(models.Model):
    """One game's waiting list."""

    id = models.UUIDField(primary_key=True)
    game = models.CharField(max_length=80, unique=True)
    variant = models.CharField(max_length=30)
    limit = models.CharField(max_length=20)
    minimum_cents = models.BigIntegerField()
    maximum_cents = models.BigIntegerField()

    class Meta:
        ordering = ["variant", "minimum_cents", "maximum_cents", "limit"]

    def __str__(self) -> str:
        return self.game


class WaitingEntryView(models.Model):
    waiting_list = models.ForeignKey(
        WaitingListView, related_name="entries", on_delete=models.CASCADE
    )
    player = models.ForeignKey(PlayerView, related_name="+", on_delete=models.CASCADE)
    position = models.PositiveIntegerField()
    reservation = models.PositiveIntegerField()
    registered_at = models.DateTimeField()
    status = models.CharField(max_length=20)
    called_at = models.DateTimeField(null=True)
    call_ends_at = models.DateTimeField(null=True)
    call_table = models.UUIDField(null=True)
    call_seat = models.PositiveSmallIntegerField(null=True)
    # Issue 24: a remote ("called in") entry, made by the player from outside
    # the room, callable once checked in, expiring at ``check_in_by`` if not;
    # the called player's answer to the call ("coming", "five_more",
    # "not_coming"; blank: none) and when it came.
    remote = models.BooleanField(default=False)
    checked_in = models.BooleanField(default=True)
    check_in_by = models.DateTimeField(null=True)
    answer = models.CharField(max_length=20, blank=True, default="")
    answered_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["waiting_list", "position"]

    def __str__(self) -> str:
        return f"{self.waiting_list} #{self.reservation}"


class HandView(models.Model):
    """One hand as the dealer reported it."""

    table = models.ForeignKey(TableView, related_name="hands", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()
    variant = models.CharField(max_length=30)
    button = models.PositiveSmallIntegerField()
    dealt_in = models.JSONField(default=list)
    blinds = models.JSONField(default=dict)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True)
    pot_cents = models.BigIntegerField(null=True)
    rake_cents = models.BigIntegerField(null=True)
    contributions = models.JSONField(default=dict)
    winnings = models.JSONField(default=dict)
    dead = models.JSONField(default=list)  # seats whose hand the action clock killed [CM-22]
    # Missed blinds a returning player posted dead with this hand [PT 90].
    dead_blinds = models.JSONField(default=dict)
    # The crupier dealing the table when the hand started (Table.dealer; blank:
    # none named, the jefe reported): the dealers' report counts by it (issue 26).
    dealer = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_number")]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"


class JournalQuerySet(models.QuerySet):
    """Journal rows that, once ``with_data(loader)`` is asked, get their
    events' data from the event store: ``loader`` takes positions and returns
    {position: data}, called once for the rows a query fetches (once per
    chunk of ``iterator``), never once per row."""

    _data_loader = None

    def with_data(self, loader) -> JournalQuerySet:
        clone = self._chain()
        clone._data_loader = loader
        return clone

    def _clone(self):
        clone = super()._clone()
        clone._data_loader = self._data_loader
        return clone

    def _loads_data(self) -> bool:
        return self._data_loader is not None and issubclass(self._iterable_class, ModelIterable)

    def _fetch_all(self) -> None:
        fresh = self._result_cache is None
        super()._fetch_all()
        if fresh and self._loads_data():
            _attach_data(self._result_cache, self._data_loader)

    def iterator(self, chunk_size: int | None = None):
        if not self._loads_data():
            yield from super().iterator(chunk_size)
            return
        rows = super().iterator(chunk_size)
        while chunk := list(islice(rows, chunk_size or 2000)):
            _attach_data(chunk, self._data_loader)
            yield from chunk


MISSING = "_missing"
"""The key of the data of a row whose stored event is gone or unreadable
(beside ``_position``, its log position)."""


def missing_data(position: int, why: str) -> dict:
    """The data a row gets when its stored event cannot give it: an explicit
    marker (``{"_missing": why}``), never ``{}``, so a page shows it as such
    and a report that needs the fields refuses (floor.reports.common.event_of)
    rather than count an empty event."""
    return {MISSING: f"position {position}: {why}", "_position": position}


def _attach_data(entries, loader) -> None:
    found = loader([entry.position for entry in entries])
    for entry in entries:
        data = found.get(entry.position)
        entry.data = missing_data(entry.position, "no stored event") if data is None else data


def _digest_text(value):
    """A digest column's value as the hex text every reader uses; text the
    database gave back as text (SQLite, an edited row) stays as it is."""
    if isinstance(value, bytes | memoryview):
        return bytes(value).hex()
    return value


def _digest_bytes(value: str, *, keep_text: bool) -> bytes | str:
    """The bytes a digest's hex stands for. Text that would not read back the
    same (not lowercase hex: a row edited on SQLite, read back as it was and
    chained from by the next row) is kept as text where the database can hold
    it (``keep_text``), so it is written back unchanged and the chain check
    still sees it; elsewhere it is refused."""
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raw = None
    if raw is not None and raw.hex() == value:
        return raw
    if keep_text:
        return value
    raise ValueError(f"not a digest in hex: {value[:80]!r}")


class HexDigestField(models.BinaryField):
    """A SHA-256 digest stored as its 32 bytes, read and written as its 64
    lowercase hex digits (issue 23, item 6: the journal's two digests as hex
    text were 128 bytes of a row's 340). Every reader (verify_log, the
    anchors, the close report, the API) keeps seeing the hex string it saw
    when the column was text; only the database holds bytes. Django has no
    such field (a ``BinaryField`` gives ``bytes``/``memoryview`` back), hence
    this one: conversions only, both ways, ``""`` as empty bytes."""

    # What ``full_clean`` checks is the value as every caller has it, 64
    # lowercase hex digits, not the stored bytes: a BinaryField's max_length
    # validator would hold the 64-character text to 32 and refuse every row.
    default_validators = [
        RegexValidator(
            r"\A[0-9a-f]{64}\Z", gettext_lazy("Enter a SHA-256 digest as 64 lowercase hex digits.")
        )
    ]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def _check_str_default_value(self):
        # BinaryField refuses a text default (E170): this field's values are text.
        return []

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        if kwargs.get("default") == "":
            del kwargs["default"]
        return name, path, args, kwargs

    def from_db_value(self, value, expression, connection):
        # SQLite does not enforce the column's type: a value edited to text
        # (the tampering the chain exists to catch) or written as hex by a
        # process of the previous version comes back as ``str``. It is given
        # back as it is, so the chain check names the row ("changed") rather
        # than the read failing.
        return _digest_text(value)

    def to_python(self, value):
        return _digest_text(value)

    def get_db_prep_value(self, value, connection, prepared=False):
        if not prepared and isinstance(value, str):
            value = _digest_bytes(value, keep_text=connection.vendor == "sqlite")
            if isinstance(value, str):
                return value  # text SQLite holds as it is (see _digest_bytes)
        return super().get_db_prep_value(value, connection, prepared)

    def get_prep_value(self, value):
        if isinstance(value, str):
            value = _digest_bytes(value, keep_text=False)
        return super().get_prep_value(value)

    def value_to_string(self, obj):
        return self.value_from_object(obj)


class EventJournalEntry(models.Model):
    """One row per event: who did what, under which command and profile, when.

    The audit trail that inspectors read; the position is the event's place in
    the log, so a second application of one event cannot go unnoticed, and the
    digests chain the rows so that ``manage.py verify_log`` can prove them whole.
    """

    position = models.BigIntegerField(primary_key=True)
    topic = models.CharField(max_length=200)
    originator_id = models.UUIDField(db_index=True)
    originator_version = models.PositiveIntegerField()
    occurred_at = models.DateTimeField()
    actor = models.CharField(max_length=150)
    actor_role = models.CharField(max_length=30)
    command_id = models.CharField(max_length=100, db_index=True)
    rule_profile = models.CharField(max_length=20)
    # No copy of the event's data (issue 23, item 6: it was most of the read
    # models' bytes): the event store holds the same content at the same
    # position, immutable. A queryset ``with_data`` reads it from there, a
    # page at a time (floor.selectors.journal.data_at), into ``data``.
    # The journal's hash chain (floor.audit): an HMAC-SHA256, under the audit
    # key ``key_id`` (kept outside the database), of the previous row's digest
    # and this row's content, so an edited or removed row shows. Rows written
    # before the key have no key id: their link is a plain sha256.
    # Stored as 32 bytes each, read as hex (HexDigestField; migration 0023).
    previous_digest = HexDigestField()
    digest = HexDigestField()
    key_id = models.CharField(max_length=32, default="", blank=True)

    objects = JournalQuerySet.as_manager()

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.position} {self.topic}"

    @property
    def data(self) -> dict:
        """The event's own fields, as the store holds them (set by a queryset
        ``with_data``, or by the projection that wrote the row). Read without
        them, a row says so rather than read the store once per row."""
        try:
            return self.__dict__["_data"]
        except KeyError:
            raise AttributeError(
                f"journal row {self.position}: its data is read from the event store "
                "by a queryset's with_data() (floor.selectors.journal), not kept on the row"
            ) from None

    @data.setter
    def data(self, value: dict) -> None:
        self.__dict__["_data"] = value


class PlayerSignInCode(models.Model):
    """A one-time sign-in code the desk gave a player (issue 24): kept hashed
    with Django's password hashers, never in an event (the event
    Player.SignInCodeIssued records who gave it and until when). Not a read
    model: a rebuild neither makes nor clears it. Only a player's newest code
    signs in; it is spent at its first use."""

    # The player's sign-in user name (floor.player: "player-" + card number).
    username = models.CharField(max_length=150, db_index=True)
    code_hash = models.CharField(max_length=128)
    issued_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    issued_by = models.CharField(max_length=150)
    used_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["-issued_at", "-id"]

    def __str__(self) -> str:
        return f"{self.username} code until {self.expires_at:%H:%M}"


class SchedulerHeartbeat(models.Model):
    """The last time a scheduled task ran: shows that beat and a worker live."""

    name = models.CharField(primary_key=True, max_length=100)
    last_run_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.last_run_at:%H:%M:%S}"


class ProcessRestart(models.Model):
    """A background process ``runfloor`` restarted after it died (floor.liveness).

    An operational record, not an event of the floor: it says nothing about
    the room, only that the clocks stopped for a moment; ``/healthz`` and the
    metrics count those of the last hour.
    """

    process = models.CharField(max_length=40)  # web, worker, beat
    reason = models.CharField(max_length=200)  # "exited with -9"
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.process} restarted at {self.at:%H:%M:%S}: {self.reason}"


class PendingTimer(models.Model):
    """A deadline an event recorded, waiting to fire (DESIGN.md, Time and timers).

    Written by the projection; fired by its ETA task or claimed by the sweeper
    with a compare-and-set update on ``state``. Firing is an idempotent command
    whose id is ``key``, so a timer fired twice has its effect once.
    """

    PENDING, CLAIMED, FIRED, CANCELLED = "pending", "claimed", "fired", "cancelled"

    key = models.CharField(primary_key=True, max_length=200)
    kind = models.CharField(max_length=40)
    subject = models.UUIDField(db_index=True)  # the aggregate the deadline belongs to
    due_at = models.DateTimeField(db_index=True)
    command = models.CharField(max_length=60)
    arguments = models.JSONField(default=dict)
    state = models.CharField(max_length=12, default=PENDING, db_index=True)
    claimed_at = models.DateTimeField(null=True)
    fired_at = models.DateTimeField(null=True)
    outcome = models.JSONField(null=True)

    # What the sweeper and the worker write (floor.timers), which no event
    # holds: a shadow rebuild carries it over from the live rows it replaces,
    # for the timers they claimed or fired (floor.kernel.web.shadow_db), or
    # the switch would set those pending again and they would be refired.
    shadow_carried = (
        ("state", "claimed_at", "fired_at", "outcome"),
        models.Q(state__in=(CLAIMED, FIRED)),
    )

    class Meta:
        ordering = ["due_at"]

    def __str__(self) -> str:
        return f"{self.kind} at {self.due_at:%H:%M:%S} ({self.state})"


# --- the reports' indexed read models (issue 23, item 4) ------------------------------
# Projected with the others (floor.projections.report_views), so that a report
# reads an index rather than the whole journal: its time follows what it
# answers, not the length of the log.


def subject_bytes(subject: str) -> bytes:
    """A mention's subject as the table stores it (``SubjectField``): an
    aggregate's id (32 lowercase hex digits) as its 16 bytes, any other
    subject (an account's name) as its UTF-8 after one NUL byte, two when
    that would make 16 bytes, so only an id is ever 16 bytes long and the
    text comes back whole (a subject may not hold a NUL)."""
    if len(subject) == 32:
        try:
            raw = bytes.fromhex(subject)
        except ValueError:
            raw = b""
        if len(raw) == 16 and raw.hex() == subject:
            return raw
    if "\x00" in subject:
        raise ValueError(f"a mention's subject holds a NUL: {subject!r}")
    name = subject.encode()
    return (b"\x00\x00" if len(name) == 15 else b"\x00") + name


def subject_text(stored: bytes | memoryview | str) -> str:
    """``subject_bytes`` undone. Text is given back as it is: SQLite does not
    enforce the column's type, so a row edited to text, or written by a
    process of the previous version, is read as it stands rather than fail."""
    if isinstance(stored, str):
        return stored
    stored = bytes(stored)
    if len(stored) == 16:
        return stored.hex()
    return stored.lstrip(b"\x00").decode()


class SubjectField(models.BinaryField):
    """A mention's subject stored as ``subject_bytes`` gives it, read and
    written as the text every caller uses (issue 23, item 6): an id is half
    its hex's 32 bytes, and ids are most of the mentions (SQLite compares
    blobs byte by byte, PostgreSQL's bytea too: the key's order is the
    bytes'). Django has no such field (a BinaryField gives bytes back)."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else subject_text(value)

    def to_python(self, value):
        return subject_text(value) if isinstance(value, bytes | memoryview) else value

    def get_prep_value(self, value):
        if isinstance(value, str):
            value = subject_bytes(value)
        return super().get_prep_value(value)

    def value_to_string(self, obj):
        return self.value_from_object(obj)


class JournalMention(models.Model):
    """One event of the journal that concerns one subject: a table, player or
    other aggregate by its id as hex (its own events and every event whose
    data names it), or an account by its name (declared by the books). The
    history report selects its rows by ``subject`` (floor.reports.history)."""

    # Keyed by (subject, position) itself, no surrogate id (issue 23, item 6):
    # the unique index was the whole table again, 1.9 of the 3.6 MB per 1,000
    # hands the mentions took. On SQLite the table is ``WITHOUT ROWID`` (the
    # rows are the key's b-tree, kept once: migration 0022 and
    # ``without_rowid``, which the shadow rebuild also makes it with); on
    # PostgreSQL a heap and its primary key's index, less the id.
    pk = models.CompositePrimaryKey("subject", "position")
    # An id as its 16 bytes, not its 32 hex digits (SubjectField; migration 0024).
    subject = SubjectField()
    position = models.BigIntegerField()

    without_rowid = True

    def __str__(self) -> str:
        return f"{self.subject} at {self.position}"


class OccupancyStep(models.Model):
    """A moment a table's count of occupied seats changed, and to what: the
    occupancy report adds seat-seconds between a table's steps."""

    position = models.BigIntegerField(primary_key=True)
    table_id = models.UUIDField()
    at = models.DateTimeField()
    seated = models.IntegerField()

    class Meta:
        indexes = [
            models.Index(fields=["table_id", "at"], name="occupancy_table_at"),
            # A table's last step, as the projection reads it (report_views.
            # ReportBatch.last_seated): by (table, at) it sorted all the
            # table's steps, a cost growing with the log (issue 23).
            models.Index(fields=["table_id", "position"], name="occupancy_table_position"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} at {self.at:%H:%M:%S}: {self.seated}"


class ListMove(models.Model):
    """A waiting list's registration, call or removal, with what the waiting
    report counts of it: the wait a seating ended (``wait_seconds``), or the
    registration still ``open`` that a later removal ends."""

    REGISTERED, CALLED, REMOVED = "registered", "called", "removed"

    position = models.BigIntegerField(primary_key=True)
    list_id = models.UUIDField()
    kind = models.CharField(max_length=12)
    occurred_at = models.DateTimeField()
    player_id = models.CharField(max_length=40, default="", blank=True)
    # A registration: when the wait began (its event's ``at``), and whether a
    # removal or a new registration of the same player has ended it yet.
    since = models.DateTimeField(null=True)
    open = models.BooleanField(default=False)
    # A removal: why, and the wait it ended (None: no registration found).
    reason = models.CharField(max_length=40, default="", blank=True)
    wait_seconds = models.IntegerField(null=True)

    class Meta:
        indexes = [
            models.Index(fields=["list_id", "occurred_at"], name="list_move_at"),
            models.Index(fields=["list_id", "player_id", "open"], name="list_move_open"),
            # A list's open registrations, as the projection reads them
            # (report_views.ReportBatch.still_open): by the indexes above it
            # read every move the list ever had, a cost growing with the log.
            # Partial: the few moves still open (the query's ``WHERE ...
            # AND "open"`` names this index's condition, as SQLite asks).
            models.Index(
                fields=["list_id", "position"],
                condition=models.Q(open=True),
                name="list_move_still_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} on {self.list_id} at {self.occurred_at:%H:%M:%S}"


class SeatSession(models.Model):
    """A player's stay in a seat of one table (issue 26, "Players' time and
    rating"): from sitting down (seated, drawn, or moved in) to leaving, being
    moved out, or the table closing, with the stretches they rested or were
    away within it and the money the table's events moved for them. The
    players' reports and history read their hours from it
    (floor.reports.players); the projection keeps it
    (floor.projections.seat_sessions)."""

    # The event that seated them (a draw seats several players at once).
    position = models.BigIntegerField()
    table_id = models.UUIDField()
    player_id = models.CharField(max_length=40)
    seat = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    how_started = models.CharField(max_length=12)  # seated, drawn, moved_in
    ended_at = models.DateTimeField(null=True)
    how_ended = models.CharField(max_length=12, default="", blank=True)  # left, moved_out, closed
    # [kind, from, until]: "resting" [GA art. 20; PT 13] or "away" [CM-18],
    # ISO moments, ``until`` None while it lasts.
    pauses = models.JSONField(default=list)
    # The chips a player moved in brought; bought at the seat (the first
    # purchase of a seat that had none is the buy-in, the others rebuys), the
    # buy-ins the cage voided, the time charges [GA art. 18.3b; PT 7b], and
    # the stack they left with.
    carried_in_cents = models.BigIntegerField(default=0)
    buy_in_cents = models.BigIntegerField(default=0)
    rebuys = models.PositiveIntegerField(default=0)
    rebuy_cents = models.BigIntegerField(default=0)
    voided_cents = models.BigIntegerField(default=0)
    time_charges = models.PositiveIntegerField(default=0)
    time_charged_cents = models.BigIntegerField(default=0)
    left_with_cents = models.BigIntegerField(null=True)

    class Meta:
        indexes = [
            models.Index(fields=["player_id", "started_at"], name="seat_session_player"),
            models.Index(fields=["table_id", "started_at"], name="seat_session_table"),
            models.Index(fields=["started_at"], name="seat_session_started"),
            # A table's sessions still open, as the projection reads them.
            models.Index(
                fields=["table_id", "position"],
                condition=models.Q(ended_at__isnull=True),
                name="seat_session_open",
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["position", "player_id"], name="seat_session_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} at {self.table_id} seat {self.seat} from {self.started_at}"


# --- notifications to players (issue 24, item 3) ----------------------------------------


class PlayerContact(models.Model):
    """How a player wants to be told they are called, and where: personal data,
    kept here and never in the event log, so that it can be erased (issue 25).

    The log records only that the preference changed, and to which channel
    (``Player.ContactPreferenceChanged``); the address and the number are this
    row's alone. Not a read model: nothing rebuilds it from the log, and a
    rebuild leaves it as it is (FloorProjection.read_models does not list it).
    """

    NONE, EMAIL, SMS = "none", "email", "sms"
    CHANNELS = (NONE, EMAIL, SMS)

    player_id = models.UUIDField(primary_key=True)
    channel = models.CharField(max_length=8, default=NONE)
    email = models.EmailField(max_length=254, blank=True, default="")
    # E.164: "+" and up to 15 digits (ITU-T E.164).
    phone = models.CharField(max_length=16, blank=True, default="")
    # The language the player is written to in (es, gl, pt, en).
    language = models.CharField(max_length=8, default="es")
    updated_at = models.DateTimeField()
    updated_by = models.CharField(max_length=150)

    def __str__(self) -> str:
        return f"contact of {self.player_id} ({self.channel})"

    @property
    def address(self) -> str:
        """Where the chosen channel reaches the player ("" for none)."""
        return {self.EMAIL: self.email, self.SMS: self.phone}.get(self.channel, "")


class Notification(models.Model):
    """The outbox: one message to a player that an event calls for (a call, an
    expired remote entry), written by the projection in its batch's
    transaction, keyed by the event's position (exactly once), and sent after
    the commit by a Celery task (floor.notifications.delivery).

    Like the journal, and unlike the read models, it is never rebuilt: a
    rebuild replays events whose messages were sent already (or failed), and
    must not send them again (FloorProjection.read_models does not list it).
    The address is not copied here: it is read from PlayerContact when sent,
    so an erased contact is not written to."""

    PENDING, SENDING, SENT, SKIPPED, STALE, FAILED = (
        "pending", "sending", "sent", "skipped", "stale", "failed",
    )  # fmt: skip

    position = models.BigIntegerField(primary_key=True)
    kind = models.CharField(max_length=20)
    player_id = models.UUIDField(db_index=True)
    # What the message says: the game, the table and seat, the call's end.
    context = models.JSONField(default=dict)
    created_at = models.DateTimeField()
    state = models.CharField(max_length=8, default=PENDING)
    # The channel it went through (or none: the player asked for none, or the
    # deployment has no backend for it: the embedded default).
    channel = models.CharField(max_length=8, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True)
    sent_at = models.DateTimeField(null=True)
    # The last failure's kind (no address, no provider's answer body).
    last_error = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["state", "next_attempt_at"], name="notification_due"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.player_id} ({self.state})"


class PatronIdentity(models.Model):
    """A patron's identity document (issue 25, item 1): personal data, kept
    here and never in the event log, so that it can be exported and erased
    (floor.compliance). The log records only that the patron was identified,
    with which kind of document and country, and by whom.

    Not a read model: nothing rebuilds it from the log, and a rebuild leaves
    it as it is. One row a patron; a document identifies one patron.
    """

    DNI, NIE, PASSPORT, OTHER = "dni", "nie", "passport", "other"
    DOCUMENT_TYPES = (DNI, NIE, PASSPORT, OTHER)

    player_id = models.UUIDField(primary_key=True)
    document_type = models.CharField(max_length=10)
    # Upper case, no spaces or dashes (floor.compliance.documents).
    document_number = models.CharField(max_length=20)
    country = models.CharField(max_length=2)  # ISO 3166-1 alpha-2, the issuer
    full_name = models.CharField(max_length=120)
    birth_date = models.DateField()
    recorded_at = models.DateTimeField()
    recorded_by = models.CharField(max_length=150)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["country", "document_type", "document_number"],
                name="one_patron_a_document",
            )
        ]

    def __str__(self) -> str:
        return f"identity of {self.player_id} ({self.document_type})"


class ExclusionList(models.Model):
    """One version of an exclusion list the casino received (issue 25, item 2):
    the national register (RGIAJ, Spain), a regional register (with its
    region: GA for Galicia's register of banned persons), the SRIJ's access
    bans (Portugal, Decreto-Lei 422/89 arts. 36-38) or the house's own list
    (self-exclusions taken at the room). Versioned by the list's date: a check
    reads the latest version of each list that applies
    (floor.compliance.exclusions).

    Personal data (its entries), kept outside the event log like
    PatronIdentity; the log records the import (list, version, row count)."""

    RGIAJ, REGIONAL, SRIJ, HOUSE = "rgiaj", "regional", "srij", "house"
    SOURCES = (RGIAJ, REGIONAL, SRIJ, HOUSE)

    source = models.CharField(max_length=10)
    # The region a regional list counts in (a profile's code: GA, CM, PT); blank otherwise.
    region = models.CharField(max_length=4, blank=True, default="")
    version = models.DateField()  # the list's own date
    imported_at = models.DateTimeField()
    imported_by = models.CharField(max_length=150)
    row_count = models.PositiveIntegerField(default=0)
    bad_rows = models.PositiveIntegerField(default=0)
    # When the version's rows were deleted, its retention over (issue 25,
    # item 4; floor.compliance.retention): the row itself stays, since the
    # log names the version (VersionImported, ExclusionChecked's lists).
    purged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["source", "region", "version"], name="one_list_a_version"
            )
        ]

    def __str__(self) -> str:
        region = f" {self.region}" if self.region else ""
        return f"{self.source}{region} {self.version.isoformat()}"


class ExclusionEntry(models.Model):
    """A person on one version of an exclusion list: a document number
    (normalised as PatronIdentity's; blank when the list gives none), a name
    key (upper case, accents stripped, single spaces) and a birth date. A
    document match excludes; a name and birth date match without one is a
    possible match a director resolves (floor.compliance.exclusions)."""

    exclusion_list = models.ForeignKey(
        ExclusionList, on_delete=models.CASCADE, related_name="entries"
    )
    document_number = models.CharField(max_length=20, blank=True, default="")
    name_key = models.CharField(max_length=120, blank=True, default="")
    birth_date = models.DateField(null=True, blank=True)
    # On the house list, the patron who excluded themself (their entry goes
    # when the exclusion is lifted, even if their identity row changed);
    # null on the lists the casino receives.
    player_id = models.UUIDField(null=True, blank=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["document_number"], name="exclusion_by_document"),
            models.Index(fields=["name_key", "birth_date"], name="exclusion_by_name_birth"),
        ]

    def __str__(self) -> str:
        return f"entry of {self.exclusion_list}"


class ExclusionRefusal(models.Model):
    """A refused attempt of an excluded patron, or of a possible match not
    yet resolved, at one of the floor's doors (issue 25, item 2): who tried
    (the player's id), where (the door and the command), what the lists said
    (excluded or possible) and which versions matched, who was at the desk
    (the staff's username and role, or the player from their phone), the
    command id and the time (the floor's clock).

    Kept outside the event log, as django-axes keeps failed logins: a refused
    command records nothing in the log, and this row is written in its own
    transaction once the command recorded nothing (floor.compliance.refusals).
    No name and no document: the player's id only. One row a command id (a
    retried refusal is one attempt)."""

    at = models.DateTimeField(db_index=True)
    player_id = models.UUIDField(db_index=True)
    door = models.CharField(max_length=20)
    result = models.CharField(max_length=10)
    # The list versions that matched ("rgiaj 2026-11-01", "house self-exclusion").
    lists = models.JSONField(default=list)
    command = models.CharField(max_length=64)
    command_id = models.CharField(max_length=100)
    actor = models.CharField(max_length=150)
    actor_role = models.CharField(max_length=30)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["actor", "command_id"], name="one_refusal_a_command_id")
        ]

    def __str__(self) -> str:
        return f"{self.result} at {self.door} ({self.command_id})"
