from django.urls import path

from floor import views

app_name = "floor"

urlpatterns = [
    path("", views.home, name="home"),
    path("sectors/<uuid:sector_id>/", views.sector, name="sector"),
]
