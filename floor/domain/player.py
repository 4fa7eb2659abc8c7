"""A player: a card number and a display name, nothing more (no other personal
data is needed to run a floor), whether they are barred, and where they sit.

The player aggregate is what keeps anyone from sitting at two tables at once:
seating changes the table and the player in one save, so two jefes seating the
same player at two tables conflict on the player's version.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime
from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict, invalid
from floor.kernel.identity import name_based_id

# How a player may ask to be told of a call (issue 24, item 3).
CONTACT_NONE, CONTACT_EMAIL, CONTACT_SMS = "none", "email", "sms"
CONTACT_CHANNELS = (CONTACT_NONE, CONTACT_EMAIL, CONTACT_SMS)

# Why a patron's identity document was erased (issue 25, item 4): its
# retention ended [Ley 10/2010 art. 25; Lei 83/2017 art. 51], or it was
# recorded in error (another patron's document, a typo). Codes, never words:
# the event holds no personal data.
ERASED_RETENTION_ENDED, ERASED_IN_ERROR = "retention_ended", "recorded_in_error"
ERASE_REASONS = (ERASED_RETENTION_ENDED, ERASED_IN_ERROR)

CARD_NUMBER = re.compile(r"^[A-Z0-9][A-Z0-9-]{0,29}$")
MAX_DISPLAY_NAME_LENGTH = 60


class Player(AuditedAggregate):
    # Version 2 added the absence days, separation and the tournament: a
    # snapshot taken before them is brought up to date when loaded.
    # Version 3 added the player's choice of the other lists once seated.
    class_version = 3

    @staticmethod
    def upcast_v1_v2(state: dict) -> None:
        state.setdefault("absence_days", [])
        state.setdefault("kept_apart", [])
        state.setdefault("in_tournament", False)

    @staticmethod
    def upcast_v2_v3(state: dict) -> None:
        state.setdefault("drops_other_lists", False)

    @staticmethod
    def clean_card_number(card_number: object) -> str:
        """Card numbers are letters, digits and dashes, compared without case."""
        cleaned = str(card_number).strip().upper() if isinstance(card_number, str) else ""
        if not CARD_NUMBER.match(cleaned):
            raise invalid("card_number_invalid", card_number=str(card_number)[:40])
        return cleaned

    @staticmethod
    def create_id(card_number: str) -> UUID:
        return name_based_id("player", Player.clean_card_number(card_number))

    @staticmethod
    def clean_display_name(name: object) -> str:
        cleaned = " ".join(str(name).split()) if isinstance(name, str) else ""
        if not cleaned:
            raise invalid("display_name_required")
        if not cleaned.isprintable() or len(cleaned) > MAX_DISPLAY_NAME_LENGTH:
            raise invalid("display_name_invalid", max_length=MAX_DISPLAY_NAME_LENGTH)
        return cleaned

    @classmethod
    def register(cls, card_number: str, display_name: str) -> Player:
        return cls(
            card_number=cls.clean_card_number(card_number),
            display_name=cls.clean_display_name(display_name),
        )

    @event("Registered")
    def __init__(self, card_number: str, display_name: str) -> None:
        self.card_number = card_number
        self.display_name = display_name
        self.barred = False
        self.bar_reason = ""
        # {"table_id": hex, "seat": n} while seated, else None.
        self.seated_at: dict | None = None
        # Game keys of sessions the player was in when their table closed, for
        # the draw priority of the next session [PT 27].
        self.previous_sessions: list[str] = []
        # When and which game the player last left, for the re-seat cool-down.
        self.last_left: dict | None = None
        # Game keys of the waiting lists the player is on (a player may be on
        # several and leave the others when seated, if they ask so).
        self.waiting_lists: list[str] = []
        # Gaming days on which the player used the absence clock [CM-18].
        self.absence_days: list[str] = []
        # Players the jefe keeps from this player's table [CM-14] (hex ids).
        self.kept_apart: list[str] = []
        # Registered in the running tournament: no cash table but on its dinner
        # break [CM-23].
        self.in_tournament = False
        # Once seated at one game, the player's other lists are dropped (True)
        # or kept (False), as the player chose (issue 24).
        self.drops_other_lists = False

    # --- barring ---------------------------------------------------------------

    def bar(self, reason: str) -> None:
        reason = " ".join(str(reason).split())
        if not reason:
            raise invalid("bar_reason_required")
        if self.barred:
            raise conflict("player_already_barred")
        if self.seated_at is not None:
            raise conflict("player_seated")
        self._barred(reason=reason[:200])

    @event("Barred")
    def _barred(self, reason: str) -> None:
        self.barred = True
        self.bar_reason = reason

    def lift_bar(self) -> None:
        if not self.barred:
            raise conflict("player_not_barred")
        self._bar_lifted()

    @event("BarLifted")
    def _bar_lifted(self) -> None:
        self.barred = False
        self.bar_reason = ""

    def check_may_play(self) -> None:
        """Barred players may neither register for a game nor sit."""
        if self.barred:
            raise conflict("player_barred", player=self.card_number)

    # --- seating ---------------------------------------------------------------

    def check_not_seated(self) -> None:
        if self.seated_at is not None:
            raise conflict("player_already_seated", player=self.card_number)

    def take_seat(self, table_id: UUID, seat: int, game_key: str = "") -> None:
        self.check_may_play()
        self.check_not_seated()
        self._seated(table_id=table_id, seat=seat, game_key=game_key)

    @event("Seated")
    def _seated(self, table_id: UUID, seat: int, game_key: str = "") -> None:
        self.seated_at = {"table_id": table_id.hex, "seat": seat}
        # Playing the game's new session spends the previous session's
        # priority [PT 27]; the next close marks the player again.
        self.previous_sessions = [k for k in self.previous_sessions if k != game_key]

    def move_seat(self, table_id: UUID, seat: int) -> None:
        self._seat_changed(table_id=table_id, seat=seat)

    @event("SeatChanged")
    def _seat_changed(self, table_id: UUID, seat: int) -> None:
        self.seated_at = {"table_id": table_id.hex, "seat": seat}

    def leave_seat(self, table_id: UUID, game_key: str, reason: str, at: datetime) -> None:
        """Leaves the table; a table closing marks a session played [PT 27]."""
        self._left_table(table_id=table_id, game_key=game_key, reason=reason, at=at)

    @event("LeftTable")
    def _left_table(self, table_id: UUID, game_key: str, reason: str, at: datetime) -> None:
        self.seated_at = None
        if reason != "table_closed":
            # Leaving is the player's doing; a table closing under them is not,
            # and sends them on without the re-seat cool-down [CM-13].
            self.last_left = {"table_id": table_id.hex, "game": game_key, "at": at.isoformat()}
        if reason == "table_closed" and game_key not in self.previous_sessions:
            self.previous_sessions = [*self.previous_sessions, game_key]

    def joined_list(self, game_key: str) -> None:
        if game_key not in self.waiting_lists:
            self._joined_list(game_key=game_key)

    @event("JoinedWaitingList")
    def _joined_list(self, game_key: str) -> None:
        self.waiting_lists = [*self.waiting_lists, game_key]

    def left_list(self, game_key: str) -> None:
        if game_key in self.waiting_lists:
            self._left_list(game_key=game_key)

    @event("LeftWaitingList")
    def _left_list(self, game_key: str) -> None:
        self.waiting_lists = [k for k in self.waiting_lists if k != game_key]

    # --- the player's own sign-in (issue 24) -------------------------------------
    # Who gave a player a sign-in code, and when the player chose a PIN, are the
    # floor's record like any other act (the actor, role and command are on the
    # event); the secrets are not: the code and the PIN are kept hashed by the
    # sign-in (floor.player), never in an event, which is kept for good.

    def sign_in_code_issued(self, expires_at: datetime) -> None:
        """The desk gave the player a one-time sign-in code, valid until ``expires_at``."""
        self.check_may_play()
        self._sign_in_code_issued(expires_at=expires_at)

    @event("SignInCodeIssued")
    def _sign_in_code_issued(self, expires_at: datetime) -> None:
        """Nothing of the player changes: the code lives outside the events."""

    def pin_chosen(self) -> None:
        """The player chose their sign-in PIN (the first, or a new one after a code)."""
        self._pin_chosen()

    @event("PinChosen")
    def _pin_chosen(self) -> None:
        """Nothing of the player changes: the PIN is kept hashed outside the events."""

    def choose_other_lists(self, drop: bool) -> None:
        """What becomes of the player's other lists once a seat is taken: kept
        (a player may wait for several games [CM-7]) or dropped."""
        if bool(drop) != self.drops_other_lists:
            self._other_lists_chosen(drop=bool(drop))

    @event("OtherListsChosen")
    def _other_lists_chosen(self, drop: bool) -> None:
        self.drops_other_lists = drop

    def lists_left_on_seating(self, game_key: str, leave_other_lists: bool = False) -> list[str]:
        """The lists the player leaves on taking a seat in ``game_key``'s game:
        that game's, and the others too when the jefe or the player said so."""
        keys = list(self.waiting_lists) if leave_other_lists or self.drops_other_lists else []
        return keys if game_key in keys else [*keys, game_key]

    def check_absence_left(self, day: date, uses_per_day: int) -> None:
        """Refused when the player has used the absence clock ``uses_per_day``
        times on this gaming day [CM-18]."""
        if not absence_left_today(self.absence_days, day, uses_per_day):
            raise conflict("absence_used_today")

    def use_absence_clock(self, day: date, table_id: UUID, uses_per_day: int) -> None:
        """The absence clock is once a gaming day [CM-18]."""
        self.check_absence_left(day, uses_per_day)
        self._absence_clock_used(gaming_day=day.isoformat(), table_id=table_id)

    @event("AbsenceClockUsed")
    def _absence_clock_used(self, gaming_day: str, table_id: UUID) -> None:
        # Only today's count matters: earlier days are dropped.
        self.absence_days = [d for d in self.absence_days if d == gaming_day] + [gaming_day]

    def move_table(self, table_id: UUID, seat: int) -> None:
        """Sits at another table of the game, moved there (not a leaving: no
        cool-down follows, CM-13)."""
        self._moved_table(table_id=table_id, seat=seat)

    @event("MovedTable")
    def _moved_table(self, table_id: UUID, seat: int) -> None:
        self.seated_at = {"table_id": table_id.hex, "seat": seat}

    # --- separation [CM-14] and the tournament [CM-23] -------------------------------

    def keep_apart_from(self, other: UUID, reason: str) -> None:
        if other == self.id:
            raise conflict("keep_apart_self")
        if other.hex not in self.kept_apart:
            self._kept_apart(other=other.hex, reason=reason)

    @event("KeptApart")
    def _kept_apart(self, other: str, reason: str) -> None:
        self.kept_apart = [*self.kept_apart, other]

    def allow_together(self, other: UUID) -> None:
        if other.hex not in self.kept_apart:
            raise conflict("not_kept_apart")
        self._allowed_together(other=other.hex)

    @event("AllowedTogether")
    def _allowed_together(self, other: str) -> None:
        self.kept_apart = [p for p in self.kept_apart if p != other]

    def check_apart(self, seated: list[str]) -> None:
        """Refuses a seat at a table where a player kept apart sits [CM-14]."""
        if any(p in self.kept_apart for p in seated):
            raise conflict("players_kept_apart")

    def enter_tournament(self) -> None:
        if self.in_tournament:
            raise conflict("already_in_tournament")
        self._entered_tournament()

    @event("EnteredTournament")
    def _entered_tournament(self) -> None:
        self.in_tournament = True

    def leave_tournament(self) -> None:
        if not self.in_tournament:
            raise conflict("not_in_tournament")
        self._left_tournament()

    @event("LeftTournament")
    def _left_tournament(self) -> None:
        self.in_tournament = False

    def check_not_in_tournament(self, dinner_break: bool) -> None:
        """Nobody plays the tournament and a cash table at once, but on the
        tournament's dinner break [CM-23]."""
        if self.in_tournament and not dinner_break:
            raise conflict("player_in_tournament")

    def played_previous_session(self, game_key: str) -> bool:
        return game_key in self.previous_sessions

    @property
    def contact_channel(self) -> str:
        """How the player asked to be told of a call: none, email or sms (issue
        24, item 3). Players registered before it asked for none."""
        return self.__dict__.get("_contact_channel", CONTACT_NONE)

    def change_contact_preference(self, channel: object) -> None:
        """Records that the player's contact details or channel changed, and
        which channel they chose: the address or number is personal data kept
        outside the log (floor.models.PlayerContact), erasable (issue 25)."""
        if channel not in CONTACT_CHANNELS:
            raise invalid("contact_channel_invalid", allowed=list(CONTACT_CHANNELS))
        self._contact_preference_changed(channel=channel)

    @event("ContactPreferenceChanged")
    def _contact_preference_changed(self, channel: str) -> None:
        self._contact_channel = channel

    # --- identity (issue 25, item 1) ---------------------------------------------
    # Ley 10/2010 art. 7.5: the casino identifies its patrons. The log records
    # that the patron was identified, by whom, with which kind of document and
    # which country; the number, the name and the birth date are personal data
    # kept outside it (floor.models.PatronIdentity), erasable (floor.compliance).

    @property
    def identity_document(self) -> dict | None:
        """The kind and country of the patron's recorded document, or None.
        Players registered before issue 25 were never identified."""
        return self.__dict__.get("_identity_document")

    def record_identity(self, document_type: str, country: str) -> None:
        """Records that the patron showed a document of this kind and country;
        recorded again, it is a correction: a new event, the old one kept."""
        self._identity_recorded(document_type=document_type, country=country)

    @event("IdentityRecorded")
    def _identity_recorded(self, document_type: str, country: str) -> None:
        self._identity_document = {"document_type": document_type, "country": country}

    def erase_identity(self, reason: str = ERASED_RETENTION_ENDED) -> None:
        """Records that the patron's identity data was erased (its row
        deleted) and why: its retention ended (the purge, or the director
        after it: floor.compliance.retention), or it was recorded in error
        (the wrong patron's document, a typo: the director's, at any time).
        A self-excluded patron's document is kept while the exclusion is in
        force (the house list needs it), unless it was recorded in error."""
        if self.identity_document is None:
            raise conflict("identity_not_recorded")
        if reason not in ERASE_REASONS:
            raise invalid("erase_reason_invalid", allowed=list(ERASE_REASONS))
        if reason != ERASED_IN_ERROR and self.self_excluded:
            raise conflict("patron_self_excluded")
        self._identity_erased(reason=reason)

    @event("IdentityErased")
    def _identity_erased(self, reason: str = "") -> None:
        # "" on the events recorded before the reason was (a director's erasure).
        self._identity_document = None

    # --- exclusion lists (issue 25, item 2) ---------------------------------------
    # The lists themselves are personal data outside the log (floor.models.
    # ExclusionList, floor.compliance.exclusions); the log records each check
    # that let an identified patron through (the door, the result, the list
    # versions read), a director's decision on a possible match and a
    # self-exclusion, never a name, a number or a birth date.

    @property
    def self_excluded(self) -> bool:
        """Whether the patron asked the room to exclude them (the house list)."""
        return bool(self.__dict__.get("_self_excluded", False))

    @property
    def exclusion_resolution(self) -> dict | None:
        """The director's last decision on a possible match: {"decision":
        "clear"|"excluded", "lists": [the list versions it was taken on]}."""
        return self.__dict__.get("_exclusion_resolution")

    def exclusion_checked(self, door: str, result: str, lists: Sequence[str]) -> None:
        """Records that the patron was checked at ``door`` against ``lists``
        (labels such as "rgiaj 2026-11-01") with ``result``."""
        self._exclusion_checked(door=door, result=result, lists=list(lists))

    @event("ExclusionChecked")
    def _exclusion_checked(self, door: str, result: str, lists: list[str]) -> None:
        pass

    def resolve_possible_exclusion(self, decision: str, note: str, lists: Sequence[str]) -> None:
        """The director's decision on a name and birth date match without a
        document match: ``clear`` lets the patron in while those list versions
        stand, ``excluded`` keeps them out."""
        self._possible_exclusion_resolved(decision=decision, note=note, lists=list(lists))

    @event("PossibleExclusionResolved")
    def _possible_exclusion_resolved(self, decision: str, note: str, lists: list[str]) -> None:
        self._exclusion_resolution = {"decision": decision, "lists": lists}

    @property
    def self_excluded_at(self) -> datetime | None:
        """When the self-exclusion in force was taken (None: none, or one
        recorded before the date was kept)."""
        at = self.__dict__.get("_self_excluded_at")
        return datetime.fromisoformat(at) if at else None

    def exclude_self(self, at: datetime) -> None:
        """Records the patron's self-exclusion, taken at the room: from now
        every door refuses them (the house list)."""
        if self.self_excluded:
            raise conflict("patron_already_self_excluded")
        self._self_excluded_event(at=at.isoformat())

    @event("SelfExcluded")
    def _self_excluded_event(self, at: str = "") -> None:
        self._self_excluded = True
        self._self_excluded_at = at

    def lift_self_exclusion(self, reason: str, at: datetime, until: datetime | None) -> None:
        """Lifts the patron's self-exclusion, not before ``until`` (the
        house's minimum period from when it was taken, computed by the
        command from the profile; for a self-exclusion recorded before its
        date was kept, from its event's timestamp: floor.application.
        exclusions). ``until`` None lifts at once."""
        if not self.self_excluded:
            raise conflict("not_self_excluded")
        if until is not None and at < until:
            raise conflict(
                "self_exclusion_too_recent", until=until.isoformat(), day=until.date().isoformat()
            )
        self._self_exclusion_lifted(reason=reason)

    @event("SelfExclusionLifted")
    def _self_exclusion_lifted(self, reason: str) -> None:
        self._self_excluded = False
        self._self_excluded_at = ""


def absence_left_today(days: Sequence[str], day: date, uses_per_day: int) -> bool:
    """Whether a player whose uses of the absence clock fell on ``days`` (ISO
    gaming days) may use it again on ``day`` [CM-18]: the Player's check, and
    the console's (floor.console.sector) before it offers "Away"."""
    return list(days).count(day.isoformat()) < uses_per_day
