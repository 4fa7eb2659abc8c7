from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_migrate, post_save, pre_migrate

        # The kernel's web machinery (the gateway, the consoles' read check and
        # live parts) runs on this floor: its application, read rule, logs
        # (floor.hosting).
        from floor.hosting import install_host

        install_host()

        # The receivers of logging in: lockouts logged, tokens revoked on a
        # password change (floor.logins).
        from floor import logins  # noqa: F401

        # The floor's commands and policies declare themselves as their modules
        # load (floor.kernel.registry, floor.kernel.composition).
        from floor.application import catalogue  # noqa: F401

        # The exclusion lists' check at the doors (issue 25, item 2): the
        # commands read no read model, so the lists' check is plugged in.
        from floor.application.exclusion_gate import checked_by
        from floor.compliance.exclusions import check_patron, forget_lists
        from floor.models import ExclusionList

        checked_by(check_patron)
        # The check keeps the lists that apply in the process; a version saved
        # or deleted here is read again at once (another process's, by its stamp).
        for signal in (post_save, post_delete):
            signal.connect(forget_lists, sender=ExclusionList, dispatch_uid="floor.forget_lists")
        from floor.db_schema import ensure_event_store, ensure_schema

        # The casino's PostgreSQL schema exists before migrate's first table
        # (floor.db_schema, FLOOR_DB_SCHEMA).
        pre_migrate.connect(ensure_schema, dispatch_uid="floor.db_schema.ensure_schema")
        # ...and the event store's tables after it, before any service starts.
        post_migrate.connect(
            ensure_event_store, sender=self, dispatch_uid="floor.db_schema.ensure_event_store"
        )
