"""The floor's record of patrons' identity as the ledger's cage asks it
(issue 25): whether a patron is identified, never the document itself. The
cage's money-laundering thresholds (ledger.application.aml) refuse an
operation until the patron is; ledger.apps plugs this in."""

from __future__ import annotations

from floor.compliance.identity import is_identified
from floor.compliance.standing import self_exclusion_of

# The cage's player card shows a self-exclusion in force and from when a
# director may lift it (issue 25): self_exclusion_of.
__all__ = ["is_identified", "self_exclusion_of"]
