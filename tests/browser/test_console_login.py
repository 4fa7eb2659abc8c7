"""A jefe de sector logs in to the console in Chromium and sees the sector page."""

import pytest

from floor import runtime
from tests.support.floor import open_sector, open_tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_jefe_logs_in_and_sees_the_sector_page(live_server, page, floor_app, make_user, tmp_path):
    open_tables(floor_app, open_sector(floor_app, "Sector Atlántico"), 2)
    runtime.floor_projector().catch_up()
    make_user("jaime", "jefe_sector", password="pa55-word-ok")

    page.goto(f"{live_server.url}/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "jaime")
    page.fill("#id_password", "pa55-word-ok")
    page.click("button[type=submit] >> nth=-1")

    page.click("text=Sector Atlántico")
    assert page.inner_text("[data-testid=sector-name]") == "Sector Atlántico"
    rows = page.locator("[data-testid=table-card]")
    assert rows.count() == 2
    assert page.inner_text("[data-testid=whoami]") == "jaime"
    page.screenshot(path=str(tmp_path / "sector.png"), full_page=True)


def test_jefe_sees_sector_full_inline_in_the_browser(live_server, page, floor_app, make_user):
    sector_id = open_sector(floor_app, "Sector Norte")
    open_tables(floor_app, sector_id, 4)
    runtime.floor_projector().catch_up()
    make_user("jaime", "jefe_sector", password="pa55-word-ok")

    page.goto(f"{live_server.url}/accounts/login/?next=/sectors/{sector_id}/")
    page.fill("#id_username", "jaime")
    page.fill("#id_password", "pa55-word-ok")
    page.click("button[type=submit] >> nth=-1")
    page.select_option("#id_variant", "omaha")
    page.select_option("#id_limit", "pot_limit")
    page.fill("#id_minimum_cents", "2")
    page.fill("#id_maximum_cents", "6")
    page.fill("#id_seats", "10")
    page.click("button[type=submit] >> nth=-1")
    error = page.inner_text("[data-testid=form-error]")
    assert "GA art. 19" in error and "Sector Norte" in error
    assert page.locator("[data-testid=table-card]").count() == 4


def test_a_locked_out_jefe_reads_why_on_the_login_page(live_server, page, floor_app, make_user):
    """Five wrong passwords, then the right one: the login page says the user is
    locked out (in Spanish) instead of logging in; no error page."""
    from django.conf import settings

    make_user("jaime", "jefe_sector", password="pa55-word-ok")
    page.goto(f"{live_server.url}/accounts/login/")
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        page.fill("#id_username", "jaime")
        page.fill("#id_password", f"guess-{attempt}")
        page.click("button[type=submit] >> nth=-1")
    page.fill("#id_username", "jaime")
    page.fill("#id_password", "pa55-word-ok")
    page.click("button[type=submit] >> nth=-1")
    assert "/accounts/login/" in page.url
    error = page.inner_text("[data-testid=login-error]")
    assert "director" in error and "15" in error
