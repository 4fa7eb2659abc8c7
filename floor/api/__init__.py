"""The floor's REST API (DRF)."""
