"""Floor aggregates and the rules they keep. No Django here: see DESIGN.md."""
