"""Every read model's rows in a comparable form: what a rebuild must give back
(the soak's check, the rebuild bench, the projection's tests)."""

from __future__ import annotations

import json

# Operational tables a rebuild does not make (they are not projections), the
# projector's own position, and the audit journal (kept, never rebuilt: its own
# checks are verify_log's). The journal's mentions are read models: compared.
NOT_PROJECTED = {
    "schedulerheartbeat",
    "processrestart",
    "pendingtimer",
    "projectionposition",
    "eventjournalentry",
    # The players' one-time sign-in codes (floor.player): secrets, not projections.
    "playersignincode",
    # A player's contact details (kept outside the log, erasable) and the
    # notifications' outbox (sent once, kept through a rebuild like the journal).
    "playercontact",
    "notification",
    # A patron's identity document (issue 25): personal data outside the log.
    "patronidentity",
    # The exclusion lists as received (issue 25, item 2): personal data outside the log.
    "exclusionlist",
    "exclusionentry",
    # The attempts the lists refused (issue 25): kept outside the log, like failed logins.
    "exclusionrefusal",
}


def read_models() -> dict[str, list]:
    """Every read model's rows, in a comparable form."""
    from django.apps import apps

    rows = {}
    for label in ("floor", "ledger"):
        for model in apps.get_app_config(label).get_models():
            name = model._meta.model_name
            if name in NOT_PROJECTED:
                continue
            # A surrogate key is numbered anew by a rebuild: not part of what it shows.
            fields = [
                f.attname
                for f in model._meta.concrete_fields
                if not (f.primary_key and f.get_internal_type() in ("AutoField", "BigAutoField"))
            ]
            rows[f"{label}.{name}"] = sorted(
                json.dumps(row, sort_keys=True, default=str)
                for row in model.objects.values(*fields)
            )
    return rows


def differences(live: dict[str, list], rebuilt: dict[str, list]) -> dict[str, dict]:
    """The read models that differ, with two rows of each side as examples."""
    names = set(live) | set(rebuilt)
    return {
        name: {
            "live_only": sorted(set(live.get(name, [])) - set(rebuilt.get(name, [])))[:2],
            "rebuilt_only": sorted(set(rebuilt.get(name, [])) - set(live.get(name, [])))[:2],
        }
        for name in sorted(names)
        if live.get(name) != rebuilt.get(name)
    }
