"""Shapes of the floor API: read models out, commands in.

Command serializers check types only; the rules (stakes band, seats, the four
tables of a sector) are the domain's, which answers with a code. Serializers
never query: what they show is loaded by the selectors (floor.selectors), and
the read models are named here only as the shapes of the ModelSerializers.

One module per concern (common, tables, players, seating, hands, banked,
balancing, journal); this package re-exports every public name, so
``from floor.api import serializers as s; s.X`` reads as before. The bases the
bodies extend and the refusal's shape are the kernel's, shared with the cage
(floor.kernel.web.serializers).
"""

from floor.api.serializers.balancing import (
    PLAYING,
    AcceptMoveSerializer,
    AllowTogetherSerializer,
    BalanceGroupSerializer,
    DinnerBreakSerializer,
    GrantTableChangeSerializer,
    GroupTableSerializer,
    KeepApartSerializer,
    MoveFromMustMoveSerializer,
    OverrideMoveSerializer,
    StartMustMoveSerializer,
)
from floor.api.serializers.banked import (
    CARDS_HELP,
    BankedBankSerializer,
    BankedBoxSerializer,
    BankedHandFormSerializer,
    BankedHandSerializer,
)
from floor.api.serializers.common import (
    SESSION_END_CHOICES,
    VARIANT_CHOICES,
    Cents,
    MeSerializer,
    RequiredBooleanField,
)
from floor.api.serializers.corrections import FixStackSerializer, UndoMoveSerializer
from floor.api.serializers.hands import (
    EndHandFormSerializer,
    EndHandSerializer,
    HandEndFormSerializer,
    HandResultSerializer,
    HandSerializer,
    SettlementPotSerializer,
    SettlementSerializer,
    StartHandSerializer,
)
from floor.api.serializers.journal import (
    JournalSerializer,
)
from floor.api.serializers.players import (
    AnswerCallSerializer,
    BarPlayerSerializer,
    ContactSerializer,
    GameSerializer,
    IdentitySerializer,
    LeaveListSerializer,
    PersonalDataSerializer,
    PlayerSerializer,
    RegisterPlayerSerializer,
    ResolveExclusionSerializer,
    ShownIdentitySerializer,
    WaitingEntrySerializer,
    WaitingListSerializer,
)
from floor.api.serializers.seating import (
    BuyInSerializer,
    CallNextSerializer,
    ChangeSeatSerializer,
    DrawSerializer,
    LeaveTableSerializer,
    SeatCommandSerializer,
    SeatPlayerSerializer,
    StartActionClockSerializer,
)
from floor.api.serializers.tables import (
    NO_SUCH_STAFF,
    AnnounceClosingSerializer,
    AssignDealerSerializer,
    AssignJefesSerializer,
    CloseTableSerializer,
    OpenSectorSerializer,
    OpenTableSerializer,
    SeatSerializer,
    SectorFloorSerializer,
    SectorSerializer,
    SessionRuleSerializer,
    SessionSerializer,
    TableFloorSerializer,
    TableSerializer,
    staff_member,
)

__all__ = [
    "CARDS_HELP",
    "NO_SUCH_STAFF",
    "PLAYING",
    "SESSION_END_CHOICES",
    "VARIANT_CHOICES",
    "AcceptMoveSerializer",
    "AllowTogetherSerializer",
    "AnnounceClosingSerializer",
    "AnswerCallSerializer",
    "AssignDealerSerializer",
    "AssignJefesSerializer",
    "BalanceGroupSerializer",
    "BankedBankSerializer",
    "BankedBoxSerializer",
    "BankedHandFormSerializer",
    "BankedHandSerializer",
    "BarPlayerSerializer",
    "BuyInSerializer",
    "CallNextSerializer",
    "Cents",
    "ChangeSeatSerializer",
    "CloseTableSerializer",
    "ContactSerializer",
    "DinnerBreakSerializer",
    "DrawSerializer",
    "EndHandFormSerializer",
    "EndHandSerializer",
    "FixStackSerializer",
    "GameSerializer",
    "GrantTableChangeSerializer",
    "GroupTableSerializer",
    "HandEndFormSerializer",
    "HandResultSerializer",
    "HandSerializer",
    "IdentitySerializer",
    "JournalSerializer",
    "KeepApartSerializer",
    "LeaveListSerializer",
    "LeaveTableSerializer",
    "MeSerializer",
    "MoveFromMustMoveSerializer",
    "OpenSectorSerializer",
    "OpenTableSerializer",
    "OverrideMoveSerializer",
    "PersonalDataSerializer",
    "PlayerSerializer",
    "RegisterPlayerSerializer",
    "RequiredBooleanField",
    "ResolveExclusionSerializer",
    "SeatCommandSerializer",
    "SeatPlayerSerializer",
    "SeatSerializer",
    "SectorFloorSerializer",
    "SectorSerializer",
    "SessionRuleSerializer",
    "SessionSerializer",
    "SettlementPotSerializer",
    "SettlementSerializer",
    "ShownIdentitySerializer",
    "StartActionClockSerializer",
    "StartHandSerializer",
    "StartMustMoveSerializer",
    "TableFloorSerializer",
    "TableSerializer",
    "UndoMoveSerializer",
    "WaitingEntrySerializer",
    "WaitingListSerializer",
    "staff_member",
]
