"""The jefe de sector's console: the room's sectors and each sector's tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import resolve, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from floor.access import may_read, reader
from floor.admin import manages_staff
from floor.amounts import figure
from floor.console.sector import acts_on_sector, live_context, staff_forms
from floor.forms import (
    OpenSectorForm,
    OpenTableForm,
)
from floor.kernel.errors import DomainError
from floor.kernel.registry import COMMANDS
from floor.kernel.service import Outcome
from floor.kernel.web.access import console_read
from floor.kernel.web.gateway import ReadModelsBehind, ServiceUnavailable, actor_for, perform
from floor.kernel.web.live import stamp
from floor.messages import STATUS_BY_KIND, describe, message_for
from floor.runtime import floor_app
from floor.selectors import interest
from floor.selectors import tables as floor_tables


def run_form_command(
    request: HttpRequest, form: forms.Form, command: Callable[[dict], Outcome]
) -> tuple[Outcome | None, int]:
    """Runs the form's command; a refusal becomes the form's inline error.

    Returns the outcome (None when refused or invalid) and the page's status.
    """
    if request.method != "POST":
        return None, 200
    if not form.is_valid():
        form.new_attempt()
        return None, 400
    arguments = dict(form.cleaned_data)
    try:
        return command(arguments), 200
    except DomainError as refused:
        form.add_error(None, describe(refused))
        form.new_attempt()
        return None, STATUS_BY_KIND[refused.kind]
    except ReadModelsBehind as behind:
        messages.warning(request, message_for(behind.code))
        return behind.outcome, 202
    except ServiceUnavailable as unavailable:
        form.add_error(None, message_for(unavailable.code))
        return None, 503


# The reports home links to (issue 22), by URL name: the floor's and the
# ledger's (floor.reports.urls, ledger.reports.urls), as the API names them.
REPORT_LINKS = (
    ("report-tables", gettext_lazy("Tables")),
    ("report-rake", gettext_lazy("Rake")),
    ("report-waiting-lists", gettext_lazy("Waiting lists")),
    ("report-clocks", gettext_lazy("Action clocks")),
    ("report-occupancy", gettext_lazy("Occupancy")),
    ("report-players", gettext_lazy("Players: hours and rating")),
    ("report-game-hours", gettext_lazy("Players' hours per game and hour of day")),
    ("report-dealers", gettext_lazy("Dealers: hands and hands per hour")),
    ("report-cage", gettext_lazy("The cage")),
    ("report-voids", gettext_lazy("Voided entries")),
    ("report-aml", gettext_lazy("Cage identification threshold")),
    ("report-exclusion-refusals", gettext_lazy("Refused at the door (exclusion lists)")),
)


def reads_of(url: str) -> str:
    """The resource the view at ``url`` reads (its own ``reads``,
    floor.domain.reads): a link asks the rule its page answers by, so home
    never links to a refusal nor hides a report one reads [GA art. 19.1]."""
    return resolve(url).func.view_class.reads


def report_links(user) -> dict:
    """The reports ``user`` reads, each by its own read rule: management all,
    the jefe his sectors' floor reports, the cage its rake, its books, its
    voids and the histories."""
    links = []
    for name, label in REPORT_LINKS:
        url = reverse(name)
        if may_read(user, reads_of(url)):
            links.append({"url": url, "label": label, "name": name})
    history = reverse("report-history")
    return {"links": links, "history": history if may_read(user, reads_of(history)) else None}


@console_read("home")
def home(request: HttpRequest) -> HttpResponse:
    """The sectors the user reads (a jefe's own, every one to management), the
    tables a dealer deals, the cage's link to who reads it; the director opens
    sectors here."""
    form = OpenSectorForm(request.POST or None)
    outcome, status = run_form_command(
        request,
        form,
        lambda data: perform(
            COMMANDS.open_sector, request.user, data["command_id"], name=data["name"]
        ),
    )
    if outcome is not None:
        if status != 200:  # recorded, but its page may not exist yet
            return redirect("floor:home")
        messages.success(request, _("Sector %(name)s is open.") % outcome.result)
        return redirect("floor:sector", sector_id=outcome.result["sector_id"])
    actor = actor_for(request.user)
    return render(
        request,
        "floor/home.html",
        {
            "sectors": (
                reader(request.user, "sectors").sectors(floor_tables.all_sectors())
                if may_read(request.user, "sectors")
                else floor_tables.no_sectors()
            ),
            "dealt_tables": floor_tables.dealt_tables(actor.username),
            "form": form,
            "can_open_sector": COMMANDS.may(actor, COMMANDS.open_sector),
            "works_the_cage": may_read(request.user, "cage"),
            "manages_staff": manages_staff(request.user),
            "reads_sectors": may_read(request.user, "sectors"),
            "reads_compliance": may_read(request.user, "compliance"),
            # The reports' links (issue 22), each shown to whom reads it.
            "reports": report_links(request.user),
            "max_tables": floor_app().profile.max_tables_per_sector,
        },
        status=status,
    )


@console_read("sectors")
def sector(request: HttpRequest, sector_id: UUID) -> HttpResponse:
    """The jefe's console for one sector: its tables, seats, lists and
    proposals, live (floor.console.sector); the jefe opens a table here. A jefe
    reads his sectors' only (floor.domain.reads)."""
    request.reader.check_sector(floor_tables.sector(sector_id))
    opening_for = None
    if request.method == "POST":
        form = OpenTableForm(request.POST)
    else:
        # The prompt of a game asked for (issue 24, item 4) fills in its game.
        opening_for = interest.wanted_game(floor_app().profile, request.GET.get("open_for"))
        form = OpenTableForm(initial=opening_table_for(opening_for))

    def open_table(data: dict) -> Outcome:
        command_id = data.pop("command_id")
        return perform(COMMANDS.open_table, request.user, command_id, sector_id=sector_id, **data)

    outcome, status = run_form_command(request, form, open_table)
    if outcome is not None:
        if status == 200:
            messages.success(request, _("Table %(number)s is open.") % outcome.result)
        return redirect("floor:sector", sector_id=sector_id)
    context = live_context(sector_id)
    acts = acts_on_sector(request.user, context["sector"])
    context.update(staff_forms(request.user, context["sector"]))
    context.update(
        {
            "form": form,
            "opening_for": opening_for,
            "acts": acts,
            "can_open_table": acts and COMMANDS.may(actor_for(request.user), COMMANDS.open_table),
            # A self-exclusion taken at the desk, lifted by the director (issue 25).
            "may_exclude_self": COMMANDS.may(actor_for(request.user), COMMANDS.exclude_self),
            "may_lift_self_exclusion": COMMANDS.may(
                actor_for(request.user), COMMANDS.lift_self_exclusion
            ),
            "poll_ms": settings.FLOOR_CONSOLE_POLL_MS,
            "live_url": reverse("floor:sector-live", args=[sector_id]),
        }
    )
    return stamp(render(request, "floor/console.html", context, status=status), context["position"])


def opening_table_for(wanted: interest.WantedGame | None) -> dict[str, Any] | None:
    """The open-table form's values for a game asked for: its game and stakes,
    typed as the jefe's language writes amounts; None for no game."""
    if wanted is None:
        return None
    game = wanted.waiting_list
    return {
        "variant": game.variant,
        "limit": game.limit,
        "minimum_cents": figure(game.minimum_cents),
        "maximum_cents": figure(game.maximum_cents),
    }


def no_icon(request: HttpRequest) -> HttpResponse:
    """The room's pages name no icon, but a browser still asks for
    /favicon.ico on pages that are not ours (the admin, a JSON answer opened
    in a tab): nothing, and no 404 WARNING in the log each time."""
    return HttpResponse(status=204, headers={"Cache-Control": "public, max-age=86400"})


no_icon.reads = "public"  # floor.domain.reads: a browser asks before anyone logs in
