from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        plug_in_the_books()


def plug_in_the_books() -> None:
    """The ledger's part of the one application (floor.kernel.composition):
    its commands declare themselves as their modules load, the books follow
    every command, and its long-lived aggregates are snapshotted. The floor
    imports nothing of this: the ledger plugs in."""
    from floor.kernel.composition import ROOM
    from ledger.application import banked, cage, gaming_days, jackpots  # noqa: F401
    from ledger.application.books import Books
    from ledger.domain.account import Account
    from ledger.domain.cage import Cage

    ROOM.add_policy("books", Books())
    ROOM.snapshot_every(Account, 100)
    ROOM.snapshot_every(Cage, 50)
