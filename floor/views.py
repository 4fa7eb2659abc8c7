"""The jefe de sector's console: the room's sectors and each sector's tables."""

from __future__ import annotations

from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from floor.api.errors import STATUS_BY_KIND
from floor.domain.errors import DomainError
from floor.domain.roles import Role
from floor.forms import (
    LIMIT_LABELS,
    STATUS_LABELS,
    VARIANT_LABELS,
    OpenSectorForm,
    OpenTableForm,
)
from floor.gateway import perform, roles_of
from floor.messages import describe
from floor.models import SectorView, TableView
from floor.runtime import floor_app


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Every sector of the room; the director opens new ones here."""
    roles = roles_of(request.user)
    form = OpenSectorForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            outcome = perform(
                "open_sector",
                request.user,
                form.cleaned_data["command_id"],
                name=form.cleaned_data["name"],
            )
        except DomainError as refused:
            form.add_error(None, describe(refused))
            status = STATUS_BY_KIND[refused.kind]
        else:
            messages.success(request, _("Sector %(name)s is open.") % outcome.result)
            return redirect("floor:sector", sector_id=outcome.result["sector_id"])
    elif request.method == "POST":
        status = 400
    sectors = SectorView.objects.prefetch_related("tables")
    return render(
        request,
        "floor/home.html",
        {
            "sectors": sectors,
            "form": form,
            "can_open_sector": Role.DIRECTOR in roles,
            "max_tables": floor_app().profile.max_tables_per_sector,
        },
        status=status,
    )


@login_required
def sector(request: HttpRequest, sector_id: UUID) -> HttpResponse:
    """One sector and its tables; the jefe opens a table here."""
    sector_view = get_object_or_404(SectorView, id=sector_id)
    roles = roles_of(request.user)
    form = OpenTableForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        arguments = dict(form.cleaned_data)
        command_id = arguments.pop("command_id")
        try:
            outcome = perform(
                "open_table", request.user, command_id, sector_id=sector_id, **arguments
            )
        except DomainError as refused:
            form.add_error(None, describe(refused))
            status = STATUS_BY_KIND[refused.kind]
        else:
            messages.success(request, _("Table %(number)s is open.") % outcome.result)
            return redirect("floor:sector", sector_id=sector_id)
    elif request.method == "POST":
        status = 400
    tables = TableView.objects.filter(sector=sector_view)
    return render(
        request,
        "floor/sector.html",
        {
            "sector": sector_view,
            "tables": [
                {
                    "view": t,
                    "variant_label": VARIANT_LABELS.get(t.variant, t.variant),
                    "limit_label": LIMIT_LABELS.get(t.limit, t.limit),
                    "status_label": STATUS_LABELS.get(t.status, t.status),
                }
                for t in tables
            ],
            "form": form,
            "can_open_table": Role.JEFE_SECTOR in roles,
        },
        status=status,
    )
