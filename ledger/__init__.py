"""The cage and the double-entry ledger (built in the ledger issue)."""
