from django.urls import path

from floor import board, views

app_name = "floor"

urlpatterns = [
    path("", views.home, name="home"),
    path("sectors/<uuid:sector_id>/", views.sector, name="sector"),
    path("board/", board.board, name="board"),
]
