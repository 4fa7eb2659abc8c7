"""Benchmarks of the floor service, run side by side with a plain-ORM baseline."""
