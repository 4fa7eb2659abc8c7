"""The ledger's commands, run through the floor's command pipeline so a floor
command and the money it moves are saved together."""
