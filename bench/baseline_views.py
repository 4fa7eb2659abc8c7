"""The baseline: the slice's two commands written straight to the read models.

The peer the event-sourced path is measured against. It takes the same
payloads, the same token auth and role check, the same input checks and the
same rule (four tables a sector), writes the same SectorView and TableView rows
with the Django ORM in one transaction, and answers with the same serializers.
What it leaves out is exactly what event sourcing adds: the event store, the
command record that makes a repeat idempotent, the journal and the projector.
"""

from __future__ import annotations

from uuid import UUID, uuid4

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.api.serializers import (
    OpenSectorSerializer,
    OpenTableSerializer,
    SectorSerializer,
    TableSerializer,
)
from floor.application.catalogue import COMMANDS
from floor.domain.sector import Sector
from floor.domain.table import TableSpec, TableStatus
from floor.kernel.errors import conflict, not_found
from floor.kernel.web.gateway import actor_for
from floor.models import SectorView, TableView
from games.profiles import RuleProfile, get_profile


def profile() -> RuleProfile:
    """The rule profile the service runs, so both paths apply the same limits."""
    return get_profile(settings.FLOOR_RULE_PROFILE)


def authorise(request: Request, command: str) -> str:
    """Refuses a user without the command's role, as the event-sourced path does
    (same group lookup, same 403 body); returns the username to record."""
    COMMANDS.role_for(actor_for(request.user), command)
    return request.user.get_username()


def sector_with_tables(sector_id: UUID) -> SectorView:
    """Reads the sector back as the product's view does, so both responses cost
    the same queries and serialisation."""
    return get_object_or_404(SectorView.objects.prefetch_related("tables"), id=sector_id)


class OrmSectorListView(APIView):
    def post(self, request: Request) -> Response:
        """Opens a sector with one INSERT; a taken name is the same 409 (by the
        column's unique constraint, so case-sensitive, which the workload's
        distinct names never touch)."""
        command = OpenSectorSerializer(data=request.data)
        command.is_valid(raise_exception=True)
        username = authorise(request, "open_sector")
        name = Sector.clean_name(command.validated_data["name"])
        try:
            with transaction.atomic():
                sector = SectorView.objects.create(
                    id=uuid4(), name=name, opened_at=timezone.now(), opened_by=username
                )
        except IntegrityError:
            raise conflict("sector_exists", sector=name) from None
        body = SectorSerializer(sector_with_tables(sector.id)).data
        return Response(body, status=status.HTTP_201_CREATED)


class OrmSectorTablesView(APIView):
    def post(self, request: Request, sector_id: UUID) -> Response:
        """Opens a table: checks the spec, then counts, numbers and inserts under
        the sector's row lock, so concurrent requests cannot make a fifth."""
        command = OpenTableSerializer(data=request.data)
        command.is_valid(raise_exception=True)
        username = authorise(request, "open_table")
        data = dict(command.validated_data)
        data.pop("command_id")
        spec = TableSpec.check(profile=profile(), **data)
        table_id = open_table_row(sector_id, spec, username)
        table = get_object_or_404(TableView.objects.select_related("sector"), id=table_id)
        return Response(TableSerializer(table).data, status=status.HTTP_201_CREATED)


def open_table_row(sector_id: UUID, spec: TableSpec, username: str) -> UUID:
    """The ORM version of Sector.add_table plus the projection's inserts, in one
    transaction: lowest free number, at most the profile's tables a sector."""
    max_tables = profile().max_tables_per_sector
    with transaction.atomic():
        sector = SectorView.objects.select_for_update().filter(id=sector_id).first()
        if sector is None:
            raise not_found("sector_not_found")
        taken = set(TableView.objects.filter(sector=sector).values_list("number", flat=True))
        if len(taken) >= max_tables:
            raise conflict("sector_full", sector=sector.name, max_tables=max_tables)
        number = next(n for n in range(1, max_tables + 1) if n not in taken)
        table = TableView.objects.create(
            id=uuid4(),
            sector=sector,
            number=number,
            variant=spec.variant,
            limit=spec.limit,
            minimum_cents=spec.minimum_cents,
            maximum_cents=spec.maximum_cents,
            seats=spec.seats,
            status=TableStatus.REGISTERING,
            opened_at=timezone.now(),
            opened_by=username,
        )
        SectorView.objects.filter(id=sector.id).update(table_count=F("table_count") + 1)
    return table.id
