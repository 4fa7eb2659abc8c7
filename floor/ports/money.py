"""How the pages write money, for the ledger (which reaches the floor through
its ports): the one format of floor.amounts, so the cage's pages and answers
group thousands as the floor's do."""

from floor.amounts import figure, money

__all__ = ["figure", "money"]
