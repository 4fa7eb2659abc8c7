"""Every console form, typed into at random, through the HTTP stack.

Two properties (issue 18, "Trust"):

- a form with euros, posted by the role that runs it with any text in its
  euro field, never answers a 500; what it books is exactly what the console
  said it read (the preview, /console/amount/) and, above the usual, what the
  person confirmed; a refusal records nothing and names the same reason the
  preview gave;
- every other form, with any text in each of its fields, never answers a 500
  and records nothing when it refuses.

Few examples, no deadline: the suite's time matters more than the search's depth.
"""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from floor.amounts import figure
from floor.application.catalogue import COMMAND_ROLES
from floor.console.commands import COMMANDS
from games.limits import MAX_AMOUNT_CENTS
from ledger.domain.transaction import amount_of
from tests.support.floor import new_id
from tests.support.money import open_cage
from tests.support.room import Room, all_events

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "pa55-word-ok"
FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
LANGUAGES = ("es", "gl", "pt", "en")

# What people type, and what they might: text of any kind, things shaped like
# amounts (signs, marks, spaces, exponents, currency), and amounts as each
# language writes them, up to twice the ceiling.
typed_amounts = st.one_of(  # never empty: an empty field is no amount (cash_out: all chips)
    st.text(min_size=1, max_size=24),
    st.from_regex(
        r"\A[ \u00a0]?[-+]?[0-9]{1,8}([.,\u00a0\u2009 ][0-9]{1,4}){0,3}([eE]-?[0-9]{1,3})?"
        r"[ ]?(€|EUR|eur)?\Z"
    ),
    st.builds(
        lambda cents, language: figure(cents, language),
        st.integers(0, 2 * MAX_AMOUNT_CENTS),
        st.sampled_from(LANGUAGES),
    ),
)


def as_written(language: str) -> st.SearchStrategy[str]:
    """Amounts as the person's language writes them: around the usual figures
    mostly, so that some are confirmed and booked."""
    return st.integers(1, 1_500_000).map(lambda cents: figure(cents, language))


@pytest.fixture
def floor(floor_app, make_user) -> dict:
    """Two tables (one between hands, one with a hand in play), a player with
    chips off the tables, and one logged-in client per role."""
    open_cage(floor_app)
    room = Room(floor_app, tag="FZ")
    # Buy-ins of 1,000 to 5,000 EUR: around the usual most, so some ask to confirm.
    quiet, quiet_cards = room.drawn_table(
        4, buy_in=None, minimum_cents=100_000, maximum_cents=500_000
    )
    busy, _busy_cards = room.drawn_table(4, buy_in=1000)
    room.start(busy)
    walker = room.new_player()
    clients = {}
    for role in ("jefe_sector", "cajero", "director"):
        make_user(f"fz-{role}", role, password=PASSWORD)
        clients[role] = Client()
        assert clients[role].login(username=f"fz-{role}", password=PASSWORD)
    return {
        "room": room,
        "clients": clients,
        "quiet": quiet,
        "busy": busy,
        "busy_seats": sorted(room.seats(busy)),
        "seated": quiet_cards,
        "walker": walker,
    }


def client_for(floor: dict, name: str, language: str) -> Client:
    role = next(str(r) for r in COMMAND_ROLES[name] if str(r) in floor["clients"])
    client = floor["clients"][role]
    client.cookies["django_language"] = language
    return client


def booked(events: list) -> set[int]:
    """The money figures the new events recorded: each transaction's amount,
    each fill or credit asked."""
    found = set()
    for recorded in events:
        if isinstance(getattr(recorded, "postings", None), dict):
            found.add(amount_of(recorded.postings))
        elif type(recorded).__qualname__.endswith("Requested") and hasattr(recorded, "amount"):
            found.add(recorded.amount)
    return found


def euro_forms(floor: dict) -> dict[str, dict]:
    """The money forms of the consoles, as their pages fill their other fields."""
    quiet, seated, walker = floor["quiet"], floor["seated"], floor["walker"]
    return {
        "request_tray_move": {"table_id": quiet, "move": "fill"},
        "buy_in": {"table_id": quiet, "player": seated[0], "paid_with": "cash"},
        "sell_chips": {"player": walker},
        "buy_in_at_cage": {"table_id": quiet, "player": seated[1]},
        "cash_out": {"player": walker},
    }


@FUZZ
@given(
    form=st.sampled_from(
        sorted(["request_tray_move", "buy_in", "sell_chips", "buy_in_at_cage", "cash_out"])
    ),
    language=st.sampled_from(LANGUAGES),
    data=st.data(),
)
def test_a_money_form_books_exactly_what_it_said_it_read(floor, form, language, data):
    typed = data.draw(st.one_of(typed_amounts, as_written(language)), label="typed")
    app = floor["room"].app
    client = client_for(floor, form, language)
    preview = client.get("/console/amount/", {"amount": typed, "command": form})
    assert preview.status_code == 200
    seen = preview.json()
    fields = {**euro_forms(floor)[form], "amount_eur": typed}
    before = len(all_events(app))

    response = client.post(f"/console/commands/{form}/", {"command_id": new_id(), **fields}, **JSON)

    assert response.status_code < 500, response.content
    answer = response.json()
    if not seen["ok"]:
        assert (response.status_code, answer["code"]) == (400, seen["code"])
    elif response.status_code == 428:
        assert seen["confirm"] is True
        assert answer["confirm"]["cents"] == seen["cents"]
        assert len(all_events(app)) == before
        confirmed = {**fields, "confirm_cents": str(seen["cents"])}
        response = client.post(
            f"/console/commands/{form}/", {"command_id": new_id(), **confirmed}, **JSON
        )
        assert response.status_code < 500, response.content
        assert response.status_code != 428
    else:
        assert seen["confirm"] is False
    new = all_events(app)[before:]
    event(f"{form}: {response.status_code} {answer.get('code')}")
    if response.status_code == 201:
        assert booked(new) == {seen["cents"]}
        assert seen["text"] in response.json()["message"]
    else:
        assert response.status_code >= 400 and new == []


def form_fields(name: str) -> list[str]:
    """The fields the console posts for command ``name``: its scope ids and
    its serializer's fields, euros as the forms name them."""
    command = COMMANDS[name]
    names = list(command.scope)
    for field_name, field in command.body().fields.items():
        if field_name == "command_id" or field.read_only:
            continue
        if field_name in {"contributions", "winnings", "blinds"}:
            names.append(f"{field_name}_eur.1")
        elif field_name.endswith("_cents"):
            names.append(f"{field_name[: -len('_cents')]}_eur")
        else:
            names.append(field_name)
    return names


@FUZZ
@given(data=st.data(), name=st.sampled_from(sorted(COMMANDS)), language=st.sampled_from(LANGUAGES))
def test_any_form_with_any_text_is_answered_and_a_refusal_records_nothing(
    floor, data, name, language
):
    app = floor["room"].app
    known = [
        floor["quiet"],
        floor["busy"],
        floor["walker"],
        *floor["seated"],
        *map(str, floor["busy_seats"]),
        "fill",
        "cash",
        "1",
        "0",
    ]
    fields = {
        field: data.draw(st.one_of(st.text(max_size=16), st.sampled_from(known)), label=field)
        for field in form_fields(name)
    }
    before = len(all_events(app))

    response = client_for(floor, name, language).post(
        f"/console/commands/{name}/", {"command_id": new_id(), **fields}, **JSON
    )

    assert response.status_code < 500, response.content
    event(f"{response.status_code}")
    if response.status_code >= 400:
        assert len(all_events(app)) == before
