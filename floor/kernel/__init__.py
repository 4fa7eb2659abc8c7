"""The kernel the floor and the ledger share (DESIGN.md, Layout; issue 21).

What every command of either context stands on: the audited aggregate base
(every event names its actor, role, command id and profile), the command
context and clock, the domain errors, identities derived from names, the roles
and actors, the record that makes a command idempotent, and the command service
that authorises, decides and saves a command in one ``save()``. Its web part
(floor.kernel.web) is what the two contexts' interfaces share: the endpoint
builder, the bodies' bases, the filters, the gateway and the consoles' checks.

Why inside ``floor``: the top level is fixed (DESIGN.md, Layout), ``games`` may
import neither eventsourcing nor Django, and ``config`` is the composition root
that imports everything. The kernel imports nothing of ``floor`` or ``ledger``
outside itself, and no Django but in its web part (pyproject.toml,
[tool.importlinter]): the ledger may import it without importing the floor.
"""
