"""The poker floor: sectors, tables, seats, draws, clocks and hands."""
