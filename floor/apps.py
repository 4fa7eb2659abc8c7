from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The receivers of logging in: lockouts logged, tokens revoked on a
        # password change (floor.logins).
        from floor import logins  # noqa: F401
