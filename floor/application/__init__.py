"""Commands: load aggregates, let them decide, save all they changed at once."""
