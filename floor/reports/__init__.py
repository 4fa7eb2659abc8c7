"""Read-only reports for management, the cage and the regulator's inspector."""
