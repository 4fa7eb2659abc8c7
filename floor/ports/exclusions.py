"""The exclusion lists' check as the ledger's cage asks it (issue 25, item 2):
a patron excluded, or possibly so until a director resolves it, buys no
chips at the cage. The check itself is the floor's door check
(floor.application.exclusion_gate, which reads no Django; floor.apps plugs
the lists in)."""

from __future__ import annotations

from floor.application.exclusion_gate import CAGE, admit

__all__ = ["CAGE", "admit"]
