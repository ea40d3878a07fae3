from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.api import (
    asyncapi,
    bots,
    chat,
    exams,
    notifications,
    offers,
    puzzles,
    rematch,
    reports,
    statistics,
    tokens,
    views,
)

app_name = "api"

urlpatterns = [
    path("auth/token/", views.TokenCreateApi.as_view(), name="token"),
    path("auth/tokens/", tokens.TokensApi.as_view(), name="tokens"),
    path("auth/tokens/<int:pk>/", tokens.TokenDetailApi.as_view(), name="token-detail"),
    path("account/bot/", bots.AccountBotApi.as_view(), name="account-bot"),
    path("games/", views.GamesApi.as_view(), name="games"),
    path("games/<int:pk>/", views.GameDetailApi.as_view(), name="game"),
    path("games/<int:pk>/moves/", views.GameMoveApi.as_view(), name="game-moves"),
    path("games/<int:pk>/notation/", views.GameNotationApi.as_view(), name="game-notation"),
    path("games/<int:pk>/resign/", views.GameResignApi.as_view(), name="game-resign"),
    path("games/<int:pk>/abort/", views.GameAbortApi.as_view(), name="game-abort"),
    path("games/<int:pk>/claim-timeout/", views.GameClaimTimeoutApi.as_view(), name="game-claim-timeout"),
    path("games/<int:pk>/review/", views.GameReviewApi.as_view(), name="game-review"),
    path("games/<int:pk>/rematch/", rematch.GameRematchApi.as_view(), name="game-rematch"),
    path("games/<int:pk>/rematch-offer/", rematch.GameRematchOfferApi.as_view(), name="game-rematch-offer"),
    path("games/<int:pk>/chat/", chat.GameChatApi.as_view(), name="game-chat"),
    path("games/<int:pk>/chat/mute/", chat.GameChatMuteApi.as_view(), name="game-chat-mute"),
    # Draw offers and takebacks (games/api/offers.py).
    path("games/<int:pk>/draw/", offers.DrawOfferApi.as_view(), name="game-draw"),
    path("games/<int:pk>/draw/accept/", offers.DrawAcceptApi.as_view(), name="game-draw-accept"),
    path("games/<int:pk>/draw/decline/", offers.DrawDeclineApi.as_view(), name="game-draw-decline"),
    path("games/<int:pk>/takeback/", offers.TakebackApi.as_view(), name="game-takeback"),
    path("games/<int:pk>/takeback/accept/", offers.TakebackAcceptApi.as_view(), name="game-takeback-accept"),
    path("games/<int:pk>/takeback/decline/", offers.TakebackDeclineApi.as_view(), name="game-takeback-decline"),
    path("challenges/", views.ChallengesApi.as_view(), name="challenges"),
    path("challenges/accept/", views.ChallengeAcceptByTokenApi.as_view(), name="challenge-accept-by-token"),
    path("challenges/<int:pk>/", views.ChallengeDetailApi.as_view(), name="challenge"),
    path("challenges/<int:pk>/accept/", views.ChallengeAcceptApi.as_view(), name="challenge-accept"),
    path("challenges/<int:pk>/decline/", views.ChallengeDeclineApi.as_view(), name="challenge-decline"),
    path("challenges/<int:pk>/cancel/", views.ChallengeCancelApi.as_view(), name="challenge-cancel"),
    path("pairing/", views.PairingApi.as_view(), name="pairing"),
    path("analyse/", views.AnalyseApi.as_view(), name="analyse"),
    path("users/<str:username>/stats/", statistics.PlayerStatsApi.as_view(), name="user-stats"),
    path("leaderboard/", statistics.LeaderboardApi.as_view(), name="leaderboard"),
    # Puzzles (games/api/puzzles.py).
    path("puzzles/", puzzles.PuzzlesApi.as_view(), name="puzzles"),
    path("puzzles/daily/", puzzles.PuzzleDailyApi.as_view(), name="puzzle-daily"),
    path("puzzles/<int:pk>/", puzzles.PuzzleDetailApi.as_view(), name="puzzle"),
    path("puzzles/<int:pk>/attempt/", puzzles.PuzzleAttemptApi.as_view(), name="puzzle-attempt"),
    # Exams (games/api/exams.py).
    path("notifications/", notifications.NotificationsApi.as_view(), name="notifications"),
    path("notifications/read/", notifications.NotificationsReadApi.as_view(), name="notifications-read"),
    path("reports/", reports.ReportsApi.as_view(), name="reports"),
    path("exams/", exams.ExamsApi.as_view(), name="exams"),
    path("exams/<int:pk>/", exams.ExamDetailApi.as_view(), name="exam"),
    path("exams/<int:pk>/answers/", exams.ExamAnswersApi.as_view(), name="exam-answers"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The WebSockets' protocol (games/api/asyncapi.yaml).
    path("asyncapi.yaml", asyncapi.asyncapi_document, name="asyncapi"),
    # Swagger UI with its start-up script served as a file (/api/docs/?script=),
    # not inline: the site's Content-Security-Policy allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    # Last: any other address under /api/ is a JSON 404, not the site's HTML page.
    re_path(r"^", views.NotFoundApi.as_view(), name="not-found"),
]
