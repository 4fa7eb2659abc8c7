"""The ledger's commands, each a function of the command's unit of work, run
through the one command pipeline (floor.kernel) so a floor command and the
money it moves are saved together; declared as the ledger plugs in (ledger.apps)."""
