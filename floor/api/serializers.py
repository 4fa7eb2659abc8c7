"""Shapes of the floor API: read models out, commands in.

Command serializers check types only; the rules (stakes band, seats, the four
tables of a sector) are the domain's, which answers with a code. Serializers
never query: what they show is loaded by the selectors (floor.selectors), and
the read models are named here only as the shapes of the ModelSerializers.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from floor.application.seating import TABLE_PAYMENTS
from floor.domain import balance
from floor.domain.seat import SEAT_FLAGS
from floor.domain.sector import MAX_SECTOR_NAME_LENGTH
from floor.domain.table import CLOSING_REASONS, LEAVING_REASONS
from floor.domain.waiting_list import LIST_LEAVING_REASONS
from floor.models import (
    BalanceGroupView,
    EventJournalEntry,
    HandView,
    PlayerView,
    SeatView,
    SectorView,
    TableView,
    WaitingEntryView,
    WaitingListView,
)
from floor.selectors.players import is_staff_member
from games.limits import MAX_AMOUNT_CENTS, BettingLimit, small_blind_for
from games.profiles import get_profile
from games.rake import SessionEnd
from games.variants import Variant

# The variants a table may play, as the API offers them (one enum in the schema).
VARIANT_CHOICES = [v.value for v in Variant]
# How a time-charged session ends after its hour [GA art. 18.3b; PT 7b].
SESSION_END_CHOICES = [e.value for e in SessionEnd]


class TableSerializer(serializers.ModelSerializer):
    sector_id = serializers.UUIDField(read_only=True)
    sector_name = serializers.CharField(source="sector.name", read_only=True)
    small_blind_cents = serializers.SerializerMethodField()

    class Meta:
        model = TableView
        fields = [
            "id",
            "sector_id",
            "sector_name",
            "number",
            "variant",
            "limit",
            "minimum_cents",
            "maximum_cents",
            "small_blind_cents",
            "ante_cents",
            "rake",
            "seats",
            "status",
            "dealer",
            "opened_at",
            "opened_by",
        ]

    def get_small_blind_cents(self, table: TableView) -> int:
        return small_blind_for(table.minimum_cents)


class SectorSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)

    class Meta:
        model = SectorView
        fields = ["id", "name", "table_count", "opened_at", "opened_by", "jefes", "tables"]


class CommandIdField(serializers.UUIDField):
    """A command id is a UUID the client draws (uuid4): the docs always said so,
    and a free text (``"x"``, ``"1"``) from two clients would collide. DRF's
    field also takes an integer as a UUID; a command id is only ever a string.
    The domain gets the canonical lowercase form, so ``ABC...`` repeats ``abc...``."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return str(super().to_internal_value(data))


class CommandSerializer(serializers.Serializer):
    command_id = CommandIdField(
        help_text="Chosen by the client: a UUID (uuid4). A repeat returns the first "
        "outcome and records nothing new.",
    )


NO_SUCH_STAFF = {
    "jefe_sector": gettext_lazy("There is no jefe de sector called %(username)s."),
    "crupier": gettext_lazy("There is no crupier called %(username)s."),
}


def staff_member(username: str, role: str) -> str:
    """A user holding ``role`` (a floor group), or the input error."""
    if not is_staff_member(username, role):
        raise serializers.ValidationError(str(NO_SUCH_STAFF[role]) % {"username": username})
    return username


class AssignJefesSerializer(CommandSerializer):
    jefes = serializers.ListField(
        child=serializers.CharField(max_length=150),
        max_length=20,
        allow_empty=True,
        help_text="Usernames of jefes de sector; empty: any jefe runs the sector.",
    )

    def validate_jefes(self, jefes: list[str]) -> list[str]:
        return [staff_member(name, "jefe_sector") for name in jefes]


class AssignDealerSerializer(CommandSerializer):
    dealer = serializers.CharField(
        max_length=150,
        allow_null=True,
        allow_blank=True,
        required=False,
        default=None,
        help_text="Username of a crupier; empty or null: nobody (the jefe reports).",
    )

    def validate_dealer(self, dealer: str | None) -> str | None:
        return staff_member(dealer, "crupier") if dealer else None


class OpenSectorSerializer(CommandSerializer):
    name = serializers.CharField(max_length=MAX_SECTOR_NAME_LENGTH)


class OpenTableSerializer(CommandSerializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    limit = serializers.ChoiceField(choices=[b.value for b in BettingLimit])
    minimum_cents = serializers.IntegerField(
        max_value=MAX_AMOUNT_CENTS, help_text="Table minimum (the big blind), in euro cents."
    )
    maximum_cents = serializers.IntegerField(
        max_value=MAX_AMOUNT_CENTS, help_text="Table maximum, in euro cents."
    )
    seats = serializers.IntegerField()
    second_variant = serializers.ChoiceField(
        choices=VARIANT_CHOICES,
        required=False,
        allow_null=True,
        help_text="A mixed table's second variant, where the profile allows it (PT 23).",
    )
    ante_cents = serializers.IntegerField(
        min_value=0, max_value=MAX_AMOUNT_CENTS, default=0, help_text="At most half the minimum."
    )
    rake_model = serializers.ChoiceField(
        choices=["per_hand", "per_session"],
        required=False,
        help_text="The announced house benefit; omitted: the profile's default.",
    )
    rake_percent = serializers.DecimalField(
        max_digits=5, decimal_places=2, required=False, help_text="Per hand: at most 5."
    )
    rake_cap_cents = serializers.IntegerField(
        min_value=1, max_value=MAX_AMOUNT_CENTS, required=False
    )
    rake_step_cents = serializers.IntegerField(
        min_value=1, max_value=MAX_AMOUNT_CENTS, required=False
    )
    session_percent = serializers.DecimalField(max_digits=5, decimal_places=2, required=False)
    session_base = serializers.ChoiceField(choices=["table_maximum", "stack"], required=False)


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField(
        required=False,
        help_text="What a domain refusal names (the seat, the pot, the limit ...), by name.",
    )


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())


# --- seats, players, waiting lists, hands ------------------------------------------


class SeatSerializer(serializers.ModelSerializer):
    player_id = serializers.UUIDField(read_only=True)
    card_number = serializers.CharField(source="player.card_number", read_only=True)
    display_name = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = SeatView
        fields = [
            "seat",
            "player_id",
            "card_number",
            "display_name",
            "stack_cents",
            *SEAT_FLAGS,  # the seat's fields the floor shows (floor.domain.seat)
        ]


class SessionRuleSerializer(serializers.Serializer):
    """Which rule ends a time-charged table's sessions [GA art. 18.3b; PT 7b]."""

    end = serializers.ChoiceField(
        choices=SESSION_END_CHOICES,
        help_text="After the hour: two more hands (GA art. 18.3b), or the hand in "
        "progress is finished (PT 7b).",
    )
    session_seconds = serializers.FloatField(help_text="The session's hour of play, in seconds.")
    hands_after_hour = serializers.IntegerField(
        allow_null=True, help_text="Hands played after the hour: 2 (GA); null under PT."
    )
    late_join_seconds = serializers.FloatField(
        allow_null=True,
        help_text="A player sitting down this long after the session's start pays it "
        "(PT 7b: 30 minutes); null under GA.",
    )
    sessions_started = serializers.IntegerField(help_text="Sessions started at the table so far.")


class SessionSerializer(serializers.Serializer):
    """The running session of a time-charged table [GA art. 18.3b; PT 7b]."""

    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    hour_at = serializers.DateTimeField(help_text="When its hour of play strikes.")
    struck = serializers.BooleanField(help_text="Whether the hour has struck.")
    hands_since_hour = serializers.IntegerField(help_text="Hands finished since the hour struck.")
    end = serializers.CharField(allow_null=True, help_text="As the table's session_rule.end.")
    hands_left = serializers.IntegerField(
        allow_null=True,
        help_text="Hands the session still plays; null until the hour strikes.",
    )
    late_join_until = serializers.DateTimeField(
        allow_null=True,
        help_text="A player sitting down until then pays this session (PT 7b); null under GA.",
    )


class TableFloorSerializer(TableSerializer):
    """A table with who sits where: the jefe's view of it."""

    occupied_seats = SeatSerializer(many=True, read_only=True)
    session = SessionSerializer(read_only=True, allow_null=True)
    session_rule = SessionRuleSerializer(read_only=True, allow_null=True)
    free_seats = serializers.SerializerMethodField()

    class Meta(TableSerializer.Meta):
        fields = [
            *TableSerializer.Meta.fields,
            "second_variant",
            "players",
            "button",
            "hands_played",
            "hand_in_progress",
            "draw_open",
            "suspended_at",
            "closes_at",
            "closed_at",
            "seat_change_requests",
            "action_clock",
            "session",
            "session_rule",
            "last_hands_left",
            "occupied_seats",
            "free_seats",
        ]

    def get_free_seats(self, table: TableView) -> list[int]:
        taken = {s.seat for s in table.occupied_seats.all()}
        return [n for n in range(1, table.seats + 1) if n not in taken]


class SectorFloorSerializer(SectorSerializer):
    tables = TableFloorSerializer(many=True, read_only=True)
    balance_proposals = serializers.SerializerMethodField()

    class Meta(SectorSerializer.Meta):
        fields = [
            *SectorSerializer.Meta.fields,
            "closes_at",
            "last_hands_at",
            "last_hands_begun",
            "balance_proposals",
        ]

    def get_balance_proposals(self, sector: SectorView) -> list[dict]:
        """The balancing moves proposed to or from this sector's tables, with
        why (RULES.md section 7)."""
        mine = {str(t.id) for t in sector.tables.all()}
        # The groups with a proposal, loaded with the sector (floor.selectors.tables.sector_floor).
        return [
            {"group_id": str(g.id), "game": g.game, **g.proposal}
            for g in sector.proposing_groups
            if {g.proposal["from_table"], g.proposal["to_table"]} & mine
        ]


class AnnounceClosingSerializer(CommandSerializer):
    closes_at = serializers.DateTimeField(
        help_text="When the casino closes; the last hands start 15 minutes before (CM-24)."
    )


class PlayerSerializer(serializers.ModelSerializer):
    # Null while the player sits at no table (as ``seat``).
    table_id = serializers.UUIDField(read_only=True, allow_null=True)

    class Meta:
        model = PlayerView
        fields = [
            "id",
            "card_number",
            "display_name",
            "barred",
            "bar_reason",
            "table_id",
            "seat",
            "registered_at",
            "in_tournament",
            "kept_apart",
        ]


class WaitingEntrySerializer(serializers.ModelSerializer):
    player_id = serializers.UUIDField(read_only=True)
    card_number = serializers.CharField(source="player.card_number", read_only=True)
    display_name = serializers.CharField(source="player.display_name", read_only=True)
    waiting_seconds = serializers.SerializerMethodField()

    class Meta:
        model = WaitingEntryView
        fields = [
            "position",
            "reservation",
            "player_id",
            "card_number",
            "display_name",
            "registered_at",
            "waiting_seconds",
            "status",
            "called_at",
            "call_ends_at",
            "call_table",
            "call_seat",
        ]

    def get_waiting_seconds(self, entry: WaitingEntryView) -> int:
        return max(0, int((timezone.now() - entry.registered_at).total_seconds()))


class WaitingListSerializer(serializers.ModelSerializer):
    entries = WaitingEntrySerializer(many=True, read_only=True)

    class Meta:
        model = WaitingListView
        fields = ["id", "game", "variant", "limit", "minimum_cents", "maximum_cents", "entries"]


class HandSerializer(serializers.ModelSerializer):
    class Meta:
        model = HandView
        fields = [
            "number",
            "variant",
            "button",
            "dealt_in",
            "blinds",
            "started_at",
            "ended_at",
            "pot_cents",
            "rake_cents",
            "contributions",
            "winnings",
            "dead",
        ]


class JournalSerializer(serializers.ModelSerializer):
    event = serializers.SerializerMethodField()

    class Meta:
        model = EventJournalEntry
        fields = [
            "position",
            "event",
            "originator_id",
            "originator_version",
            "occurred_at",
            "actor",
            "actor_role",
            "command_id",
            "rule_profile",
            "data",
        ]

    def get_event(self, entry: EventJournalEntry) -> str:
        return entry.topic.rsplit(":", 1)[-1]


# --- command bodies ------------------------------------------------------------------

Cents = serializers.IntegerField


class RegisterPlayerSerializer(CommandSerializer):
    card_number = serializers.CharField(max_length=40)
    display_name = serializers.CharField(max_length=120)


class BarPlayerSerializer(CommandSerializer):
    reason = serializers.CharField(max_length=200)


class PlayerCommandSerializer(CommandSerializer):
    player = serializers.CharField(max_length=40, help_text="The player's id or card number.")


class GameSerializer(PlayerCommandSerializer):
    """A game is named by one of its tables or by variant, limit and stakes."""

    table_id = serializers.UUIDField(required=False)
    variant = serializers.ChoiceField(choices=[v.value for v in Variant], required=False)
    limit = serializers.ChoiceField(choices=[b.value for b in BettingLimit], required=False)
    minimum_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS, required=False)
    maximum_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS, required=False)

    def validate(self, attrs: dict) -> dict:
        game_fields = ("variant", "limit", "minimum_cents", "maximum_cents")
        if "table_id" not in attrs and not all(f in attrs for f in game_fields):
            raise serializers.ValidationError(
                "Name the game by table_id, or by variant, limit, minimum_cents and maximum_cents."
            )
        return attrs


class LeaveListSerializer(GameSerializer):
    reason = serializers.ChoiceField(choices=LIST_LEAVING_REASONS, default="withdrew")


class DrawSerializer(CommandSerializer):
    table_ids = serializers.ListField(
        child=serializers.UUIDField(),
        min_length=1,
        max_length=4,
        required=False,
        help_text="Other tables of the same game drawn together, by suit (PT 25).",
    )


class SeatPlayerSerializer(PlayerCommandSerializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, help_text="Omit while the draw is open (CM-3)."
    )
    post_big_blind = serializers.BooleanField(default=False)
    leave_other_lists = serializers.BooleanField(default=False)


class StartActionClockSerializer(CommandSerializer):
    seat = serializers.IntegerField(help_text="The player to act.")
    pot_cents = serializers.IntegerField(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        help_text="The pot now: 2 min up to 200 EUR, 4 above.",
    )


class SeatCommandSerializer(CommandSerializer):
    seat = serializers.IntegerField()


class CallNextSerializer(CommandSerializer):
    seat = serializers.IntegerField(help_text="The free seat offered.")


class ChangeSeatSerializer(PlayerCommandSerializer):
    seat = serializers.IntegerField()


class LeaveTableSerializer(PlayerCommandSerializer):
    reason = serializers.ChoiceField(choices=LEAVING_REASONS, default="left")


class BuyInSerializer(PlayerCommandSerializer):
    amount_cents = Cents(min_value=1, max_value=MAX_AMOUNT_CENTS)
    paid_with = serializers.ChoiceField(
        choices=TABLE_PAYMENTS,
        default="cash",
        help_text="cash given at the table (chips from its tray) or the player's own "
        "chips from off the tables; a buy-in paid at the cage is the cage's "
        "(POST /api/cage/buy-ins/).",
    )


class CloseTableSerializer(CommandSerializer):
    reason = serializers.ChoiceField(choices=CLOSING_REASONS, default="closed_by_jefe")


class StartHandSerializer(CommandSerializer):
    dealt_in = serializers.ListField(child=serializers.IntegerField(), min_length=1)
    button = serializers.IntegerField(required=False, allow_null=True)
    blinds = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS),
        required=False,
        help_text="Seat -> blind posted, in cents.",
    )
    variant = serializers.ChoiceField(
        choices=[v.value for v in Variant], required=False, allow_null=True
    )


class HandResultSerializer(serializers.Serializer):
    """A hand's end: what each seat put in, and either the winnings typed (checked
    against the pots) or who won, from which the service settles the pots."""

    contributions = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS),
        help_text="Seat -> everything the seat put in the pot this hand, in cents: its "
        "blinds, any missed blinds posted dead (PT 90), its bets and any uncalled chips.",
    )
    winnings = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS),
        required=False,
        help_text="Seat -> everything the seat takes back, in cents: what it won from the "
        "pots plus its own uncalled chips. Or leave it out and say who won "
        "(pot_winners or shown): the service computes it.",
    )
    rake_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        allow_null=True,
        help_text="With winnings: the rake taken (0 if left out), at most the limit on the "
        "called pots. Otherwise the service computes the table's announced rake; if given, "
        "it must be that.",
    )
    pot_winners = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=99), max_length=11
        ),
        required=False,
        max_length=11,
        help_text="Who won each pot, main pot first (see the settlement preview for the "
        "pots): seats sharing a pot split it by the profile's rule. A pot only one seat "
        "may win may be left out.",
    )
    shown = serializers.DictField(
        child=serializers.CharField(max_length=60),
        required=False,
        help_text='Seat -> the cards it showed, e.g. "As Kd"; the service ranks them with '
        "the board and awards each pot to its best hand.",
    )
    board = serializers.CharField(
        max_length=60, required=False, allow_blank=True, help_text='The common cards, "Ks 7d 2c".'
    )
    folded = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=99),
        required=False,
        max_length=11,
        help_text="Seats that gave up their hand though their bet matched (a hand mucked). "
        "A seat that put in less than the bet with chips behind folded anyway.",
    )


class EndHandSerializer(CommandSerializer, HandResultSerializer):
    pass


class SettlementPotSerializer(serializers.Serializer):
    amount_cents = serializers.IntegerField()
    eligible = serializers.ListField(child=serializers.IntegerField())
    rake_cents = serializers.IntegerField(required=False)
    winners = serializers.ListField(child=serializers.IntegerField(), required=False)
    paid = serializers.DictField(child=serializers.IntegerField(), required=False)


class SettlementSerializer(serializers.Serializer):
    """What a hand end would pay, recorded nowhere."""

    table_id = serializers.UUIDField()
    number = serializers.IntegerField(help_text="The hand's number.")
    pot_cents = serializers.IntegerField(
        help_text="The called pots: all put in but the chips returned."
    )
    rake_cents = serializers.IntegerField(
        help_text="The rake; asked with the contributions alone, the most the rules "
        "allow on the called pots (uncalled chips are never raked)."
    )
    pots = SettlementPotSerializer(many=True, help_text="Main pot first.")
    returned = serializers.DictField(
        child=serializers.IntegerField(), help_text="Seat -> its uncalled chips, handed back."
    )
    folded = serializers.ListField(child=serializers.IntegerField())
    payments = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Seat -> what it takes back: pot winnings plus returned chips.",
    )
    stacks = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Seat -> its stack after the hand; null when asked with the "
        "contributions alone (the pots, before anyone is named the winner).",
    )


# --- banked hands [GA art. 6-16; PT-SD; PG] ---------------------------------------------

CARDS_HELP = "Cards as text, rank then suit: 'As Kd Th 9c 2s' (the joker 'Jk')."


def _cards_field(help_text: str) -> serializers.CharField:
    return serializers.CharField(max_length=40, required=False, help_text=help_text)


class BankedBoxSerializer(serializers.Serializer):
    """One box (seat) of a banked hand; which fields apply depends on the
    table's game (floor.domain.banked_hand)."""

    ante_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Sen descarte: the ante.",
    )
    call = serializers.BooleanField(
        required=False,
        help_text="Sen descarte: true, the box went on with twice its ante; false, it passed.",
    )
    cards = _cards_field(
        "Sen descarte: the box's five cards (none for a box that passed); Trijoker: its three. "
        + CARDS_HELP
    )
    insurance_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Sen descarte: the insurance bet (GA art. 8a).",
    )
    jackpot_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Sen descarte: the progressive stake (GA art. 8b; PT-SD 8).",
    )
    extra_card = serializers.BooleanField(
        required=False, help_text="Sen descarte: the box bought a card for its ante (GA art. 8c)."
    )
    first_five = _cards_field("With a bought card: the five cards before it (GA art. 8b).")
    bet_cents = Cents(
        min_value=0,
        max_value=MAX_AMOUNT_CENTS,
        required=False,
        help_text="Trijoker: each of the three equal bets; Pai Gow: the bet.",
    )
    took_back = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2),
        max_length=2,
        required=False,
        help_text="Trijoker: the bets taken back, 1 and/or 2 (GA art. 15.2).",
    )
    high = _cards_field("Pai Gow: the five-card hand.")
    low = _cards_field("Pai Gow: the two-card hand.")


class BankedBankSerializer(serializers.Serializer):
    """The bank's hand: sen descarte its five cards; Trijoker the two common
    cards; Pai Gow its five- and two-card hands."""

    cards = _cards_field("Sen descarte: the bank's five cards.")
    common = _cards_field("Trijoker: the two common cards.")
    high = _cards_field("Pai Gow: the bank's five-card hand.")
    low = _cards_field("Pai Gow: the bank's two-card hand.")


class BankedHandSerializer(CommandSerializer):
    boxes = serializers.DictField(
        child=BankedBoxSerializer(), help_text="Seat -> the box's bets and cards."
    )
    bank = BankedBankSerializer()
    jackpot_id = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="The progressive this table feeds, when a box staked on it.",
    )


class BankedHandFormSerializer(CommandSerializer):
    """The console's banked-hand form, field by field (``ante_eur.3``,
    ``cards.3``, ``bank_cards`` ...); floor.console.commands makes it the API's
    ``BankedHandSerializer`` shape."""

    ante = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    play = serializers.DictField(child=serializers.ChoiceField(["call", "fold"]), required=False)
    cards = serializers.DictField(child=serializers.CharField(max_length=40), required=False)
    insurance = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    jackpot = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    first_five = serializers.DictField(child=serializers.CharField(max_length=40), required=False)
    bet = serializers.DictField(
        child=Cents(min_value=0, max_value=MAX_AMOUNT_CENTS), required=False
    )
    took_back = serializers.DictField(
        child=serializers.ChoiceField(["none", "1", "2", "1,2"]), required=False
    )
    high = serializers.DictField(child=serializers.CharField(max_length=40), required=False)
    low = serializers.DictField(child=serializers.CharField(max_length=40), required=False)
    bank_cards = serializers.CharField(max_length=40, required=False)
    bank_common = serializers.CharField(max_length=40, required=False)
    bank_high = serializers.CharField(max_length=40, required=False)
    bank_low = serializers.CharField(max_length=40, required=False)
    jackpot_id = serializers.UUIDField(required=False)


# --- balancing (RULES.md section 7) ------------------------------------------------------


class GroupTableSerializer(serializers.ModelSerializer):
    sector_name = serializers.CharField(source="sector.name", read_only=True)

    class Meta:
        model = TableView
        fields = ["id", "sector_id", "sector_name", "number", "status", "players", "seats"]


class BalanceGroupSerializer(serializers.ModelSerializer):
    """A game's tables across the sectors, how far apart they are, the move the
    service proposes and why, the table-change requests, and whether the list
    can start another table."""

    tables = serializers.SerializerMethodField()
    spread = serializers.SerializerMethodField()
    open_table = serializers.SerializerMethodField()

    class Meta:
        model = BalanceGroupView
        fields = [
            "id",
            "game",
            "tables",
            "spread",
            "proposal",
            "change_requests",
            "moves",
            "open_table",
        ]

    # A group comes loaded with its tables (``group_tables``, in the group's
    # order) and the players waiting on its list (``waiting_players``) by
    # floor.selectors.balancing, for every group at once: no query per group.

    def get_tables(self, group: BalanceGroupView) -> list[dict]:
        return GroupTableSerializer(group.group_tables, many=True).data

    def get_spread(self, group: BalanceGroupView) -> int:
        playing = {str(t.id): t.players for t in group.group_tables if t.status in PLAYING}
        return balance.spread(playing)

    def get_open_table(self, group: BalanceGroupView) -> dict | None:
        tables = [t for t in group.group_tables if t.status in PLAYING]
        free = sum(t.seats - t.players for t in tables)
        profile = get_profile(settings.FLOOR_RULE_PROFILE)
        return balance.opening_proposal(group.waiting_players, free, profile.min_players)


PLAYING = ("running", "suspended")


class AcceptMoveSerializer(CommandSerializer):
    proposal_id = serializers.IntegerField(help_text="The proposal's id, as listed.")


class OverrideMoveSerializer(PlayerCommandSerializer):
    to_table_id = serializers.UUIDField()
    seat = serializers.IntegerField(required=False, allow_null=True)
    reason = serializers.CharField(max_length=200, help_text="Why this move (on record).")


class GrantTableChangeSerializer(CommandSerializer):
    to_table_id = serializers.UUIDField()
    seat = serializers.IntegerField(required=False, allow_null=True)


class KeepApartSerializer(CommandSerializer):
    other = serializers.CharField(max_length=40, help_text="The other player's id or card.")
    reason = serializers.CharField(max_length=200)


class AllowTogetherSerializer(CommandSerializer):
    other = serializers.CharField(max_length=40)


class RequiredBooleanField(serializers.BooleanField):
    """A boolean the request must give. DRF reads one missing from a form body
    as false (an unticked checkbox); a switch with no default must be said."""

    default_empty_html = serializers.empty


class DinnerBreakSerializer(CommandSerializer):
    on = RequiredBooleanField(help_text="true: the dinner break starts; false: it ends.")
