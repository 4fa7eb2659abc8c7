"""Every action a table card renders is one its command takes (issue 22, "No
control is offered that the server would refuse in that state").

The sector console is walked through the states a shift goes through (a
table registering, seats drawn, a hand in play, resting, away, the action
clock, a seat offered to the list, a suspension, the closing time, a jackpot
staked and its hand played); in each, EVERY ``form[data-command]`` of every
table card is filled the way a person would (its hidden fields as rendered,
a valid value where a person types or picks) and run through the console's
own reading (floor.console.reading, the API's serializer, the form's
``prepare``) into its command, in a unit of work never saved. The command
must not refuse it for the state; a refusal for the value typed is allowed
only on a form where a person types that value.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.http import QueryDict
from django.test import Client
from django.utils import translation

from floor import runtime
from floor.console.actions import COMMANDS as CONSOLE
from floor.console.reading import ScopeSerializer, form_data
from floor.kernel.context import CommandContext, command_context
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.kernel.unit_of_work import UnitOfWork
from tests.support.floor import CRUPIER, DIRECTOR, JEFE, new_id
from tests.support.room import Room

pytestmark = pytest.mark.django_db

# What a person types in a field the form requires, by the field's name.
TYPED = {"pot_eur": "4", "amount_eur": "10", "stack_eur": "7,50"}
# What a person types in a field the form leaves optional: the bet those who
# played a hand to the end called (with no blind reported, nothing says it).
OPTIONAL = {"called_eur": "4"}
# Refusals about the value typed or picked, not the state: allowed only on a
# form whose fields a person fills in (a buy-in's amount, the card of the
# player to seat, the hand a jackpot winner shows).
TYPED_REFUSALS = {
    "buy_in_out_of_limits",
    "buy_in_not_table_average",
    "buy_in_below_minimum",
    "buy_in_above_maximum",
    "rebuy_out_of_limits",
    "rebuy_below_minimum",
    "rebuy_above_maximum",
    "player_not_found",
    "no_jackpot_prize",
}


class Forms(HTMLParser):
    """The command forms of a piece of HTML: each one's command, its fields
    (hidden, typed, picked, ticked) as a person finds them."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._select: dict | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "form" and "data-command" in a:
            self.forms.append({"command": a["data-command"], "fields": []})
        if not self.forms:
            return
        fields = self.forms[-1]["fields"]
        if tag == "input" and a.get("name"):
            fields.append(
                {
                    "kind": a.get("type", "text"),
                    "name": a["name"],
                    "value": a.get("value", ""),
                    "checked": "checked" in a,
                    "required": "required" in a,
                }
            )
        elif tag == "select" and a.get("name"):
            self._select = {"kind": "select", "name": a["name"], "options": []}
            fields.append(self._select)
        elif tag == "option" and self._select is not None:
            self._select["options"].append(a.get("value"))

    def handle_data(self, data: str) -> None:
        # <option>5</option>: an option without a value is its text.
        select = self._select
        if select is not None and select["options"] and select["options"][-1] is None:
            select["options"][-1] = data.strip()

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


@pytest.fixture
def room(floor_app) -> Room:
    return Room(floor_app, tag="EA")


def card_forms(client: Client, room: Room) -> list[tuple[str, dict]]:
    """Every command form of every table card of the sector: (table id, form)."""
    runtime.floor_projector().catch_up()
    html = client.get(f"/sectors/{room.sector_id}/live/").content.decode()
    found = []
    for match in re.finditer(r'data-live-key="table-([0-9a-f-]+)"', html):
        section = html[match.start() : html.index("</section>", match.start())]
        parser = Forms()
        parser.feed(section)
        found += [(match.group(1), form) for form in parser.forms]
    return found


def player_to_seat(room: Room, table_id: str, seat: str | None, spare: str) -> str:
    """The card a jefe types to seat a player: the one called to that seat,
    else the first waiting on the game's list [PT 12; CM-5, CM-6], else one
    who waits nowhere."""
    waiting = room.waiting(table_id)
    entries = waiting.entries if waiting else []
    called = [
        e
        for e in entries
        if e["status"] == "called" and seat and str((e.get("call") or {}).get("seat")) == seat
    ]
    first = called or [e for e in entries if e["status"] == "waiting"]
    return room.get(first[0]["player_id"]).card_number if first else spare


def filled(form: dict, spare_card: str) -> tuple[QueryDict, bool]:
    """The form as a person sends it, and whether a person typed or picked
    a value in it (a refusal for that value is then allowed)."""
    posted = QueryDict(mutable=True)
    posted["command_id"] = new_id()
    typed = False
    ticks: dict[str, list[dict]] = {}
    picks = [f for f in form["fields"] if f["kind"] == "select"]
    for field in form["fields"]:
        name, kind = field["name"], field["kind"]
        if kind == "hidden":
            posted[name] = field["value"]
        elif kind == "checkbox":
            ticks.setdefault(name, []).append(field)
        elif kind == "select":
            value = choice(form["command"], name, field["options"], picks)
            if value:
                posted[name] = value
                typed = typed or name.startswith(("winners.", "place."))
        elif field["required"]:
            typed = True
            posted[name] = spare_card if name == "player" else TYPED[name]
        elif name in OPTIONAL:
            typed = True
            posted[name] = OPTIONAL[name]
    for name, boxes in ticks.items():
        checked = [b for b in boxes if b["checked"]]
        if not checked and name != "folded":  # the typed result's folds stay unticked
            checked, typed = boxes, True  # none ticked (the seats staking): tick them all
        for box in checked:
            posted.appendlist(name, box["value"])
    return posted, typed


def choice(command: str, name: str, options: list[str], picks: list[dict]) -> str | None:
    """What a person picks: the end of a hand played to the end, won by the
    first seat; a jackpot won by the first staked seat's straight flush; else
    the option a person finds chosen (the first)."""
    if command == "end_hand":
        if name.startswith("ended."):
            return "called"
        first_place = next(p["name"] for p in picks if p["name"].startswith("place."))
        if name.startswith("place."):
            return "1" if name == first_place else None
    if command == "pay_jackpot":
        first = next(p["name"] for p in picks if p["name"].startswith("winners."))
        return "straight_flush" if name == first else None
    return options[0] if options else None  # "" (the rules decide) is left unsent


def dry_run(room: Room, clock, name: str, posted: QueryDict) -> DomainError | None:
    """The form read as the console's door reads it, its command run in a
    unit of work never saved: its refusal, or None."""
    command = CONSOLE[name]
    with translation.override("es"):
        data = form_data(posted, command.lists, {})
        scope = ScopeSerializer(data={k: data.pop(k) for k in command.scope if k in data})
        body = command.body(data=data)
        assert scope.is_valid() and body.is_valid(), (name, scope.errors, body.errors)
        arguments = {k: str(v) for k, v in scope.validated_data.items()}
        arguments.update(body.validated_data)
        arguments.pop("command_id")
        prepared = command.prepare(arguments)
    context = CommandContext("jaime", "jefe_sector", new_id(), room.app.profile, clock.now())
    with command_context(context):
        try:
            getattr(COMMANDS, name)(UnitOfWork(room.app, room.app.profile), **prepared)
        except DomainError as error:
            return error
    return None


def check_every_action(room: Room, clock, jefe: Client, spare_card: str) -> set[str]:
    """Runs every form of the cards; returns the commands seen."""
    seen = set()
    for table_id, form in card_forms(jefe, room):
        seat = next(
            (f["value"] for f in form["fields"] if f["name"] == "seat" and f["kind"] == "hidden"),
            None,
        )
        posted, typed = filled(form, player_to_seat(room, table_id, seat, spare_card))
        refusal = dry_run(room, clock, form["command"], posted)
        allowed = typed and refusal is not None and refusal.code in TYPED_REFUSALS
        assert refusal is None or allowed, (form["command"], refusal, dict(posted))
        seen.add(form["command"])
    return seen


def test_every_rendered_action_is_taken_by_its_command(room, clock, jefe):
    seen: set[str] = set()
    spare = room.new_player()  # registered, seated nowhere: the card typed to seat a player

    # An empty table: nobody to draw, nothing to deal.
    room.table(minimum_cents=600, maximum_cents=3_000)
    assert check_every_action(room, clock, jefe, spare) <= {
        "request_tray_move",
        "break_table",
        "close_table",
        "assign_dealer",
    }

    # A table registering, its players on the list: the draw (a game of its own).
    waiting_table = room.table(minimum_cents=1_000, maximum_cents=5_000)
    for card in room.new_players(4):
        room.join(card, waiting_table)
    seen |= check_every_action(room, clock, jefe, spare)

    # Seats drawn, no hand played yet.
    table_id, cards = room.drawn_table(6)
    seen |= check_every_action(room, clock, jefe, spare)

    # A hand played; then one in play, with a player resting out of it.
    room.played(table_id)
    room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    seen |= check_every_action(room, clock, jefe, spare)
    started = room.start(table_id)
    seen |= check_every_action(room, clock, jefe, spare)

    # The action clock on a seat in the hand; an absence asked for during it.
    seat = started["dealt_in"][0]
    room.app.start_action_clock(CRUPIER, new_id(), table_id=table_id, seat=seat, pot_cents=400)
    room.app.start_absence(CRUPIER, new_id(), table_id=table_id, player=cards[1])
    seen |= check_every_action(room, clock, jefe, spare)
    room.app.stop_action_clock(CRUPIER, new_id(), table_id=table_id, seat=seat)
    room.end(table_id)

    # Away on the clock [CM-18]; seat and table changes asked for.
    assert room.state(table_id, cards[1])["away"] is not None
    seen |= check_every_action(room, clock, jefe, spare)
    room.app.request_seat_change(JEFE, new_id(), table_id=table_id, player=cards[2])
    room.app.request_table_change(JEFE, new_id(), table_id=table_id, player=cards[3])
    seen |= check_every_action(room, clock, jefe, spare)

    # A seat freed and offered to the list.
    room.app.withdraw_seat_change(JEFE, new_id(), table_id=table_id, player=cards[2])
    room.join(room.new_player(), table_id)
    room.leave(table_id, cards[4])
    seen |= check_every_action(room, clock, jefe, spare)

    # Too few players: the table suspended [CM-9].
    for card in (cards[2], cards[3], cards[5]):
        room.leave(table_id, card)
    assert room.get(table_id).status == "suspended"
    seen |= check_every_action(room, clock, jefe, spare)

    # A jackpot staked on a table and its hand played.
    jackpot_table, _jackpot_cards = room.drawn_table(
        5, buy_in=2_000, minimum_cents=400, maximum_cents=2_000
    )
    jackpot_id = room.app.create_jackpot(
        DIRECTOR,
        new_id(),
        name="Progresivo",
        stake_cents=100,
        seed_cents=50_000,
        table_ids=[jackpot_table],
    ).result["jackpot_id"]
    seen |= check_every_action(room, clock, jefe, spare)
    seats = sorted(room.seats(jackpot_table))
    room.app.stake_jackpot(
        CRUPIER,
        new_id(),
        jackpot_id=jackpot_id,
        table_id=jackpot_table,
        stakes={str(s): 100 for s in seats[:2]},
    )
    room.played(jackpot_table)
    seen |= check_every_action(room, clock, jefe, spare)

    # A seat change the jefe may undo (nothing dealt since), and stacks he may fix.
    held = room.seats(jackpot_table)
    free = next(n for n in range(1, 11) if n not in held)
    room.app.change_seat(JEFE, new_id(), table_id=jackpot_table, player=held[seats[-1]], seat=free)
    seen |= check_every_action(room, clock, jefe, spare)

    # The closing time announced: the last hands.
    closes = clock.now().replace(hour=23, minute=59)
    room.app.announce_closing(
        JEFE, new_id(), sector_id=room.sector_id, closes_at=closes.isoformat()
    )
    seen |= check_every_action(room, clock, jefe, spare)

    # The walk met every kind of action a card offers.
    assert {
        "draw_seats",
        "seat_player",
        "call_next",
        "buy_in",
        "start_rest",
        "end_rest",
        "start_absence",
        "end_absence",
        "start_action_clock",
        "stop_action_clock",
        "start_hand",
        "end_hand",
        "change_seat",
        "leave_table",
        "request_seat_change",
        "withdraw_seat_change",
        "request_table_change",
        "withdraw_table_change",
        "request_tray_move",
        "break_table",
        "close_table",
        "stake_jackpot",
        "pay_jackpot",
        "undo_move",
        "fix_stack",
    } <= seen, seen


@pytest.fixture
def pt_room(make_app):
    """A floor under the Portuguese rules: rests counted [PT 13], missed
    blinds posted dead [PT 90]."""
    app = make_app("PT")
    runtime.install(app)
    yield Room(app, tag="EP")
    runtime.install(None)


def test_under_pt_rules_every_rendered_action_is_taken_too(pt_room, clock, jefe):
    room = pt_room
    seen: set[str] = set()
    spare = room.new_player()
    table_id, cards = room.drawn_table(6)
    room.played(table_id)
    # Two rests taken: a third would mean leaving [PT 13]; the blinds missed meanwhile.
    for _ in range(2):
        room.app.start_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
        room.played(table_id)
        seen |= check_every_action(room, clock, jefe, spare)
        room.app.end_rest(CRUPIER, new_id(), table_id=table_id, player=cards[0])
    seen |= check_every_action(room, clock, jefe, spare)
    # Back with blinds owed: the hand dealt takes them dead [PT 90], and the
    # end-hand form counts them.
    started = room.start(table_id)
    assert started["dead_blinds"]
    seen |= check_every_action(room, clock, jefe, spare)
    assert {"end_hand", "end_rest", "start_rest", "start_hand"} <= seen, seen
