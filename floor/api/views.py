"""Floor API endpoints: list and read sectors and tables, open them."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from floor.api.serializers import (
    MeSerializer,
    OpenSectorSerializer,
    OpenTableSerializer,
    SectorSerializer,
    TableSerializer,
)
from floor.kernel.web.gateway import actor_for, perform
from floor.kernel.web.responses import REFUSALS, command_response
from floor.kernel.web.serializers import ErrorSerializer
from floor.selectors import tables as floor_tables


class SectorListView(APIView):
    command: str  # open_sector, what a POST runs (floor.api.commands, floor.api.permissions)
    reads = "sectors"  # what a GET reads (floor.domain.reads)

    @extend_schema(responses=SectorSerializer(many=True), operation_id="sectors_list")
    def get(self, request: Request) -> Response:
        """Every sector of the room the reader reads (a jefe's own), with its tables."""
        found = request.reader.sectors(floor_tables.sectors())
        return Response(SectorSerializer(found, many=True).data)

    @extend_schema(
        request=OpenSectorSerializer,
        responses={201: SectorSerializer, 200: SectorSerializer, **REFUSALS},
        summary="Open a sector (director)",
    )
    def post(self, request: Request) -> Response:
        """Opens a sector. Only the director may; names are unique in the casino."""
        command = OpenSectorSerializer(data=request.data)
        command.is_valid(raise_exception=True)
        outcome = perform(
            self.command,
            request.user,
            command.validated_data["command_id"],
            name=command.validated_data["name"],
        )
        sector = floor_tables.sector_of_tables(outcome.result["sector_id"])
        return command_response(outcome, SectorSerializer(sector).data)


class SectorDetailView(APIView):
    reads = "sectors"

    @extend_schema(responses={200: SectorSerializer, 404: ErrorSerializer})
    def get(self, request: Request, sector_id: UUID) -> Response:
        """One sector, with its tables."""
        sector = floor_tables.sector_of_tables(sector_id)
        request.reader.check_sector(sector)
        return Response(SectorSerializer(sector).data)


class SectorTablesView(APIView):
    command: str  # open_table, what a POST runs (floor.api.commands, floor.api.permissions)
    reads = "sectors"

    @extend_schema(responses=TableSerializer(many=True), operation_id="sector_tables_list")
    def get(self, request: Request, sector_id: UUID) -> Response:
        """The tables of one sector, by number."""
        sector = floor_tables.sector(sector_id)
        request.reader.check_sector(sector)
        tables = floor_tables.sector_tables(sector)
        return Response(TableSerializer(tables, many=True).data)

    @extend_schema(
        request=OpenTableSerializer,
        responses={201: TableSerializer, 200: TableSerializer, **REFUSALS},
        summary="Open a table in a sector (jefe de sector); at most four per sector",
    )
    def post(self, request: Request, sector_id: UUID) -> Response:
        """Opens a table in the sector: 409 sector_full past four tables (GA art. 19)."""
        command = OpenTableSerializer(data=request.data)
        command.is_valid(raise_exception=True)
        data = dict(command.validated_data)
        outcome = perform(
            self.command,
            request.user,
            data.pop("command_id"),
            sector_id=sector_id,
            **data,
        )
        table = floor_tables.table_with_sector(outcome.result["table_id"])
        return command_response(outcome, TableSerializer(table).data)


class TableListView(APIView):
    reads = "tables"

    @extend_schema(responses=TableSerializer(many=True), operation_id="tables_list")
    def get(self, request: Request) -> Response:
        """Every table the reader reads: a jefe's sectors', a dealer's own, all to the rest."""
        tables = request.reader.tables(floor_tables.tables())
        return Response(TableSerializer(tables, many=True).data)


class TableDetailView(APIView):
    reads = "tables"

    @extend_schema(responses={200: TableSerializer, 404: ErrorSerializer})
    def get(self, request: Request, table_id: UUID) -> Response:
        """One table."""
        table = floor_tables.table_with_sector(table_id)
        request.reader.check_table(table)
        return Response(TableSerializer(table).data)


class MeView(APIView):
    reads = "me"

    @extend_schema(responses=MeSerializer)
    def get(self, request: Request) -> Response:
        """Who the request is authenticated as, and their floor roles."""
        return Response(
            {
                "username": request.user.get_username(),
                "roles": sorted(actor_for(request.user).roles),
            }
        )
