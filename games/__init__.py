"""Pure poker rules: variants, limits and rule profiles. No Django, no I/O."""
