from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("players/<str:username>/", views.profile, name="profile"),
    path("play/", views.new_game, name="new"),
    path("games/", views.history, name="history"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/<int:pk>/move/", views.play_move, name="move"),
    path("games/<int:pk>/resign/", views.resign, name="resign"),
    path("games/<int:pk>/rematch/", views.rematch, name="rematch"),
]
