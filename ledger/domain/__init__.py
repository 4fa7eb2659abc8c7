"""The ledger's rules: accounts, transactions, fills and credits, jackpots and
the gaming day. No Django here."""
