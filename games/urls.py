"""Every page's address. The names (``games:game``, ...) are what templates and
redirects use; each domain's views answer its own."""

from django.urls import path

from games.accounts import views as accounts
from games.exams import views as exams
from games.learn.urls import urlpatterns as learning
from games.lobby import views as lobby
from games.moderation import views as moderation
from games.notifications import views as notifications
from games.play import chat_views as chat
from games.play import views as play
from games.stats import views as stats

app_name = "games"

urlpatterns = [
    path("", play.home, name="home"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("players/<str:username>/", accounts.profile, name="profile"),
    # Your account: your games to download, and deleting the account.
    path("account/", accounts.account, name="account"),
    path("account/games.json", accounts.account_games_json, name="account_games_json"),
    path("account/games.csv", accounts.account_games_csv, name="account_games_csv"),
    path("account/bot/", accounts.account_bot, name="account_bot"),
    path("account/delete/", accounts.account_delete, name="account_delete"),
    path("account/tokens/", accounts.account_tokens, name="account_tokens"),
    path("account/tokens/<int:pk>/revoke/", accounts.account_token_revoke, name="account_token_revoke"),
    path("account/tokens/revoke-all/", accounts.account_tokens_revoke_all, name="account_tokens_revoke_all"),
    path("play/", play.new_game, name="new"),
    path("games/", stats.history, name="history"),
    path("games/<int:pk>/", play.game_page, name="game"),
    path("games/<int:pk>/notation.txt", play.game_notation, name="game_notation"),
    path("games/<int:pk>/move/", play.play_move, name="move"),
    path("games/<int:pk>/ai-move/", play.ai_move, name="ai_move"),
    path("games/<int:pk>/resign/", play.resign, name="resign"),
    path("games/<int:pk>/rematch/", play.rematch, name="rematch"),
    # Draw offers and takebacks (games/play/offers.py).
    path("games/<int:pk>/draw/", play.draw_offer, name="draw_offer"),
    path("games/<int:pk>/draw/accept/", play.draw_accept, name="draw_accept"),
    path("games/<int:pk>/draw/decline/", play.draw_decline, name="draw_decline"),
    path("games/<int:pk>/takeback/", play.takeback, name="takeback"),
    path("games/<int:pk>/takeback/accept/", play.takeback_accept, name="takeback_accept"),
    path("games/<int:pk>/takeback/decline/", play.takeback_decline, name="takeback_decline"),
    # Games between people.
    path("notifications/", notifications.notifications, name="notifications"),
    path("notifications/read/", notifications.notifications_read, name="notifications_read"),
    path("notifications/unsubscribe/<str:token>/", notifications.unsubscribe, name="unsubscribe"),
    path("account/notifications/", notifications.notification_settings, name="account_notifications"),
    path("report/", moderation.report, name="report"),
    path("lobby/", lobby.lobby, name="lobby"),
    path("challenges/new/", lobby.challenge_new, name="challenge_new"),
    path("play/quick/", lobby.quick_game, name="quick"),
    path("play/quick/<int:pk>/", lobby.quick_wait, name="quick_wait"),
    path("play/quick/<int:pk>/cancel/", lobby.quick_cancel, name="quick_cancel"),
    path("challenges/<int:pk>/accept/", lobby.challenge_accept, name="challenge_accept"),
    path("challenges/<int:pk>/decline/", lobby.challenge_decline, name="challenge_decline"),
    path("challenges/<int:pk>/cancel/", lobby.challenge_cancel, name="challenge_cancel"),
    path("challenges/<str:token>/", lobby.challenge_page, name="challenge"),
    path("games/<int:pk>/claim/", play.claim_timeout, name="claim_timeout"),
    path("games/<int:pk>/abort/", play.abort, name="abort"),
    path("games/<int:pk>/rematch/offer/", lobby.rematch_offer, name="rematch_offer"),
    path("games/<int:pk>/rematch/accept/", lobby.rematch_accept, name="rematch_accept"),
    path("games/<int:pk>/rematch/decline/", lobby.rematch_decline, name="rematch_decline"),
    path("games/<int:pk>/rematch/cancel/", lobby.rematch_cancel, name="rematch_cancel"),
    # The chat of a game between people (games/play/chat_views.py).
    path("games/<int:pk>/chat/", chat.chat, name="chat"),
    path("games/<int:pk>/chat/mute/", chat.chat_mute, name="chat_mute"),
    path("games/<int:pk>/chat/unmute/", chat.chat_unmute, name="chat_unmute"),
    # Statistics.
    path("stats/", stats.stats, name="stats"),
    path("leaderboard/", stats.leaderboard, name="leaderboard"),
    # Exams: a report shared by its link (games/exams/).
    path("exams/<str:key>/", exams.exam_report, name="exam_report"),
    # Learning minimax (games/learn/).
    *learning,
]
