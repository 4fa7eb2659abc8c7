"""An exclusion list uploaded over HTTP (issue 25, item 2): the director sends
a version of a list as its CSV file; floor.compliance.exclusions reads it
through the mapping and records the import (``import_exclusion_list``). The
rows are personal data kept outside the event log; the answer says how many
were read and refused, and the lines of the first refused ones."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from floor.compliance import exclusions
from floor.kernel.registry import COMMANDS
from floor.kernel.web.endpoints import CommandView
from floor.kernel.web.gateway import actor_for
from floor.kernel.web.responses import REFUSALS, command_response
from floor.kernel.web.serializers import CommandSerializer

# A list's file, at most: the national register runs to some hundred thousand rows.
MAX_FILE_BYTES = 50 * 1024 * 1024


class UploadListSerializer(CommandSerializer):
    source = serializers.ChoiceField(choices=["rgiaj", "regional", "srij", "house"])
    region = serializers.CharField(max_length=4, required=False, allow_blank=True, default="")
    version = serializers.CharField(max_length=10, help_text="The list's date, YYYY-MM-DD.")
    mapping = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        default="",
        help_text="Blank: FLOOR_EXCLUSION_MAPPING (docs/compliance.md).",
    )
    file = serializers.FileField(max_length=200)

    def validate_file(self, value):
        if value.size > MAX_FILE_BYTES:
            raise serializers.ValidationError("file_too_large")
        return value


UPLOADED = inline_serializer(
    name="import_exclusion_list_answer",
    fields={
        "result": serializers.DictField(),
        "bad_lines": serializers.ListField(child=serializers.IntegerField()),
    },
)


class UploadListView(CommandView):
    body = UploadListSerializer
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": UploadListSerializer},
        responses={201: UPLOADED, 200: UPLOADED, **REFUSALS},
        operation_id="import_exclusion_list",
        summary="Import a version of an exclusion list from its CSV file (the director's)",
    )
    def post(self, request: Request) -> Response:
        """The director imports a list's version (issue 25, item 2); the log
        records the list, its version and the rows read and refused."""
        # Who may is asked first: a jefe's upload is a 403 whatever its body.
        COMMANDS.role_for(actor_for(request.user), "import_exclusion_list")
        checked = self.body(data=request.data)
        checked.is_valid(raise_exception=True)
        data = checked.validated_data
        mapping = exclusions.parse_mapping(data["mapping"]) if data["mapping"] else None
        outcome, read = exclusions.import_list(
            request.user,
            data["command_id"],
            source=data["source"],
            region=data["region"],
            version=data["version"],
            data=data["file"].read(),
            mapping=mapping,
        )
        return command_response(outcome, {"result": outcome.result, "bad_lines": read.bad_lines})
