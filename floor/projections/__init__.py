"""Projections: apply the event log to the Django read models, exactly once."""
