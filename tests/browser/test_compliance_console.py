"""In Chromium: the director's compliance console (issue 25, item 2). From the
home page's link, the director uploads a small RGIAJ list (one row the
importer cannot read, counted and named), sees the version held marked
current; the jefe's desk refuses a patron whose name and birth date are on
it; the director finds the patron among the possible matches and clears
them with a note, and the desk admits the patron."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from floor import runtime
from floor.kernel.errors import DomainError
from floor.kernel.web.gateway import perform_as
from floor.models import ExclusionList, PatronIdentity
from tests.browser.test_shift import PASSWORD, Shot, log_in
from tests.support.floor import JEFE, new_id
from tests.support.room import Room, events_of, pid

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def shot(tmp_path) -> Shot:
    """Numbered screenshots, kept in FLOOR_SCREENSHOTS when it is set."""
    folder = Path(os.environ.get("FLOOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return Shot(folder)


def test_the_director_uploads_a_list_and_clears_a_possible_match(
    live_server,
    browser,
    floor_app,
    make_user,
    shot,
    tmp_path,
):
    room = Room(floor_app, tag="CP")
    table_id = room.drawn_table(4)[0]
    card = room.new_player("Lucía P.")
    PatronIdentity.objects.create(
        player_id=pid(card),
        document_type=PatronIdentity.DNI,
        document_number="87654321X",
        country="ES",
        full_name="Lucía Pérez Souto",
        birth_date=date(1980, 5, 17),
        recorded_at=datetime(2026, 11, 22, 20, 0, tzinfo=UTC),
        recorded_by="carla",
    )
    make_user("dora", "director", password=PASSWORD)
    runtime.floor_projector().catch_up()
    listed = tmp_path / "rgiaj.csv"
    listed.write_text(
        "document_number,full_name,birth_date\n"
        "12345678Z,Someone Else,1970-01-01\n"
        ",LUCIA PEREZ SOUTO,1980-05-17\n"
        ",Nobody Dated,\n"
    )

    context = browser.new_context(locale="es-ES", viewport={"width": 1400, "height": 1000})
    director = log_in(context, live_server.url, "dora", "/")
    director.click("[data-testid=compliance-link]")
    director.wait_for_url(f"{live_server.url}/compliance/")
    assert director.locator("[data-testid=no-lists]").is_visible()
    shot(director, "compliance-empty")

    # The upload: the list, its date, the file; the answer counts the rows.
    director.select_option("#id_source", "rgiaj")
    director.fill("#id_version", "2026-11-01")
    director.set_input_files("#id_file", str(listed))
    director.click("[data-testid=upload-form] button[type=submit]")
    director.wait_for_selector("[data-testid=list-version]")
    said = director.inner_text("main")
    assert "2 filas leídas, 1 rechazadas" in said and "Líneas rechazadas: 4." in said
    version = director.locator("[data-testid=list-version][data-label='rgiaj 2026-11-01']")
    assert version.get_attribute("data-current") == "1"
    assert ExclusionList.objects.get().row_count == 2
    shot(director, "compliance-list-imported")

    # The same version again: refused on the page, in Spanish.
    director.select_option("#id_source", "rgiaj")
    director.fill("#id_version", "2026-11-01")
    director.set_input_files("#id_file", str(listed))
    director.click("[data-testid=upload-form] button[type=submit]")
    assert "ya está importada" in director.inner_text("[data-testid=form-error]")
    shot(director, "compliance-version-refused")

    # The jefe's desk puts the patron on a list: refused, a possible match.
    with pytest.raises(DomainError) as refused:
        perform_as(JEFE, "join_waiting_list", new_id(), player=card, table_id=table_id)
    assert refused.value.code == "possible_exclusion"

    director.goto(f"{live_server.url}/compliance/")
    row = director.locator(f"[data-testid=pending][data-player='{pid(card)}']")
    assert "Lucía P." in row.inner_text() and "rgiaj 2026-11-01" in row.inner_text()
    assert director.locator("[data-testid=refusal]").count() == 1
    shot(director, "compliance-pending")

    row.locator("input[name=note]").fill("Otra persona: DNI distinto visto en el mostrador")
    row.locator("[data-testid=clear]").click()
    director.wait_for_selector("[data-testid=no-pending]")
    assert "La posible coincidencia está resuelta." in director.inner_text("main")
    shot(director, "compliance-resolved")
    (event,) = events_of(floor_app, pid(card), "PossibleExclusionResolved")
    assert (event.decision, event.actor) == ("clear", "dora")

    # The desk admits the patron now.
    perform_as(JEFE, "join_waiting_list", new_id(), player=card, table_id=table_id)
    context.close()


def test_the_cage_takes_a_self_exclusion_confirmed_first(
    live_server, browser, floor_app, make_user, shot
):
    room = Room(floor_app, tag="CX")
    card = room.new_player("Xoán Ferreiro")
    make_user("carla", "cajero", password=PASSWORD)
    runtime.floor_projector().catch_up()
    context = browser.new_context(locale="es-ES", viewport={"width": 1400, "height": 1000})
    cage = log_in(context, live_server.url, "carla", f"/cage/?card={card}")
    player = cage.locator("[data-testid=player]")
    exclude = player.locator("form[data-command=exclude_self]")
    exclude.locator("button[type=submit]").click()
    # The server's confirmation names the patron and the day it may be lifted from.
    exclude.locator("[data-testid=confirm-amount]").wait_for()
    asked = exclude.inner_text()
    assert "Xoán Ferreiro" in asked and "2027-05-22" in asked
    assert not events_of(floor_app, pid(card), "SelfExcluded")
    shot(cage, "cage-self-exclusion-asked")
    exclude.locator("[data-testid=confirm-amount]").click()
    player.locator("[data-testid=self-excluded]").wait_for()
    said = player.locator("[data-testid=self-excluded]").inner_text()
    assert "desde el 2026-11-22" in said and "puede levantarla desde el 2027-05-22" in said
    assert player.locator("form[data-command=lift_self_exclusion]").count() == 0
    assert events_of(floor_app, pid(card), "SelfExcluded")
    shot(cage, "cage-self-excluded")
    context.close()
