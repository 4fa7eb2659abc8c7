"""The floor's record of patrons' identity as the ledger's cage asks it
(issue 25): whether a patron is identified, never the document itself. The
cage's money-laundering thresholds (ledger.application.aml) refuse an
operation until the patron is; ledger.apps plugs this in."""

from __future__ import annotations

from floor.compliance.identity import is_identified

__all__ = ["is_identified"]
