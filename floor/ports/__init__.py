"""What the floor offers the ledger: the ledger's only door into the floor.

The floor and the ledger share one event store and one application (a hand and
the money it moves are saved together), but the floor imports nothing of the
ledger, and the ledger imports nothing of the floor but its kernel
(floor.kernel) and these ports (pyproject.toml, [tool.importlinter]). The money
sits on the floor's tables and belongs to its players, so the dependency points
that way: the ledger plugs into the floor (its commands, its policies and its
read models declare themselves, floor.kernel.composition), never the reverse.

- floor.ports.aggregates: for the ledger's domain: the floor's aggregates
  whose events the books read (a Table, a banked hand's jackpot in play).
- floor.ports.tables: for the ledger's commands: a table by id, a player by
  card or id, a table closed as the floor closes one.
- floor.ports.reads: for the ledger's consoles and reports: the floor's read
  models as the ledger shows them.
- floor.ports.report_reads: for the ledger's reports: the floor's reports
  machinery (readers, filters, pages, CSV), the event journal by declared event
  types, and the parts of the floor's reports the ledger fills.
"""
