"""An exclusion register as the room received it (issue 25, item 2): the
national register (RGIAJ), a region's register (Galicia's register of banned
persons), the SRIJ's access bans (Decreto-Lei 422/89 arts. 36-38) or the
house's list. The aggregate records each version imported: its date, how many
rows were read and how many were refused, by whom (the event's metadata);
never a row, which is personal data kept outside the log
(floor.models.ExclusionEntry).
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import event

from floor.kernel.aggregate import AuditedAggregate
from floor.kernel.errors import conflict
from floor.kernel.identity import name_based_id


class ExclusionRegister(AuditedAggregate):
    @staticmethod
    def create_id(source: str, region: str) -> UUID:
        return name_based_id("exclusion_register", f"{source}:{region}")

    @classmethod
    def open(cls, source: str, region: str) -> ExclusionRegister:
        return cls(source=source, region=region)

    @event("Opened")
    def __init__(self, source: str, region: str) -> None:
        self.source = source
        self.region = region
        self.versions: list[str] = []

    def import_version(self, version: str, rows: int, bad_rows: int) -> None:
        """Records a version imported; one date, one version."""
        if version in self.versions:
            raise conflict("list_version_exists", version=version)
        self._imported(version=version, rows=rows, bad_rows=bad_rows)

    @event("VersionImported")
    def _imported(self, version: str, rows: int, bad_rows: int) -> None:
        self.versions.append(version)
