"""The service's URLs plus the bench-only ORM baseline endpoints.

The baseline lives under /bench/ so that it can never shadow a product URL; it
is only routed when DJANGO_SETTINGS_MODULE is bench.settings.
"""

from django.urls import include, path

from bench import baseline_views

urlpatterns = [
    path(
        "bench/orm/sectors/", baseline_views.OrmSectorListView.as_view(), name="bench-orm-sectors"
    ),
    path(
        "bench/orm/sectors/<uuid:sector_id>/tables/",
        baseline_views.OrmSectorTablesView.as_view(),
        name="bench-orm-sector-tables",
    ),
    path("", include("config.urls")),
]
