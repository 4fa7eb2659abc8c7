"""The player's page, at /jugador/ (issue 24; CONTRACT.md: player:signin,
player:home, player:signout)."""

from django.urls import path

from floor.player import views

app_name = "player"

urlpatterns = [
    path("", views.home, name="home"),
    path("entrar/", views.sign_in, name="signin"),
    path("salir/", views.sign_out, name="signout"),
    path("pin/", views.choose_pin, name="pin"),
    path("en-vivo/", views.live, name="live"),
    path("apuntarse/", views.join, name="join"),
    path("pedir-juego/", views.ask, name="ask"),
    path("aviso/", views.contact, name="contact"),
    path("borrarse/", views.leave, name="leave"),
    path("responder/", views.answer, name="answer"),
    path("otras-listas/", views.other_lists, name="other-lists"),
]
