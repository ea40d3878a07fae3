from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("players/<str:username>/", views.profile, name="profile"),
    # Your account: your games to download, and deleting the account.
    path("account/", views.account, name="account"),
    path("account/games.json", views.account_games_json, name="account_games_json"),
    path("account/games.csv", views.account_games_csv, name="account_games_csv"),
    path("account/delete/", views.account_delete, name="account_delete"),
    path("play/", views.new_game, name="new"),
    path("games/", views.history, name="history"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/<int:pk>/move/", views.play_move, name="move"),
    path("games/<int:pk>/resign/", views.resign, name="resign"),
    path("games/<int:pk>/rematch/", views.rematch, name="rematch"),
    # Games between people.
    path("lobby/", views.lobby, name="lobby"),
    path("challenges/new/", views.challenge_new, name="challenge_new"),
    path("challenges/<int:pk>/accept/", views.challenge_accept, name="challenge_accept"),
    path("challenges/<int:pk>/decline/", views.challenge_decline, name="challenge_decline"),
    path("challenges/<int:pk>/cancel/", views.challenge_cancel, name="challenge_cancel"),
    path("challenges/<str:token>/", views.challenge_page, name="challenge"),
    path("games/<int:pk>/claim/", views.claim_timeout, name="claim_timeout"),
    path("games/<int:pk>/abort/", views.abort, name="abort"),
    path("games/<int:pk>/rematch/offer/", views.rematch_offer, name="rematch_offer"),
    path("games/<int:pk>/rematch/accept/", views.rematch_accept, name="rematch_accept"),
    path("games/<int:pk>/rematch/decline/", views.rematch_decline, name="rematch_decline"),
    path("games/<int:pk>/rematch/cancel/", views.rematch_cancel, name="rematch_cancel"),
    # Statistics.
    path("stats/", views.stats, name="stats"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
