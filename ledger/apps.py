from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The books' parts of the floor's rake and history reports (floor.reports.parts).
        from ledger import reports

        reports.declare()
