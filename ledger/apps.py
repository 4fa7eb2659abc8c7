from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        plug_in_the_books()
        declare_read_side()
        # The books' parts of the floor's rake and history reports (floor.reports.parts).
        from ledger import reports

        reports.declare()


def plug_in_the_books() -> None:
    """The ledger's part of the one application (floor.kernel.composition):
    its commands declare themselves as their modules load, the books follow
    every command, and its long-lived aggregates are snapshotted. The floor
    imports nothing of this: the ledger plugs in."""
    from django.apps import apps

    from floor.kernel.composition import ROOM
    from ledger.application import aml, banked, cage, corrections, gaming_days, jackpots  # noqa: F401
    from ledger.application.books import Books
    from ledger.domain.account import Account
    from ledger.domain.cage import Cage

    ROOM.add_policy("books", Books())
    # Whether a patron is identified, for the cage's thresholds: the floor's
    # record of documents (personal data, outside the log; issue 25), read
    # from the database once Django's apps are loaded. A bench's in-memory
    # floor without them keeps the check that nobody is identified.
    if apps.models_ready:
        from floor.ports.compliance import is_identified

        aml.identified_by(is_identified)
        # What a patron brought into the day besides the cage's chips, which a
        # certificate of winnings takes off their result (the books' read side).
        from ledger.patron_money import brought_in

        aml.brought_in_by(brought_in)
    ROOM.snapshot_every(Account, 100)
    ROOM.snapshot_every(Cage, 50)


def declare_read_side() -> None:
    """What the floor's projector and consoles show of the books, declared
    where the floor looks (floor.kernel.composition), so the floor imports
    nothing of the ledger: the books' read models, applied by the one
    projector with the floor's; the close of a gaming day, where the audit
    journal anchors its chain; the money on a table and the jackpots it plays
    for; the cage's console actions.
    """
    from floor.kernel.composition import ROOM, DayCloseAnchor
    from floor.kernel.registry import COMMANDS
    from ledger import projections, selectors
    from ledger.console_actions import cage_actions, jackpots_at_tables

    ROOM.add_read_models(projections.READ_MODEL_PART)
    ROOM.anchor_day_close(
        DayCloseAnchor(
            # The handler's name is the command's (floor.kernel.registry).
            command=COMMANDS.close_gaming_day.__name__,
            gaming_day=projections.closed_day,
            keep=projections.keep_close_anchor,
        )
    )
    ROOM.show_table_money(selectors.BooksOnTheFloor())
    ROOM.add_console_actions("cage", cage_actions)
    ROOM.show_table_jackpots(jackpots_at_tables)
