from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Floor"
    default_auto_field = "django.db.models.BigAutoField"
