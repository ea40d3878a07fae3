"""Every model of the games app, for Django to find: each domain keeps its own.

The domains are plain packages of one app (one app label, ``games``, and one
migrations folder), so their tables and migrations are those the app always had.
Code imports a model from its domain, not from here.
"""

from games.accounts.models import ApiToken
from games.exams.models import Exam, ExamPosition
from games.learn.models import Puzzle
from games.lobby.models import Challenge, PairingPool, PairingRequest
from games.moderation.models import Report, Sanction
from games.notifications.models import Notification, NotificationSettings
from games.play.chat_models import ChatBan, ChatMessage, ChatMute
from games.play.models import Bot, Game, Move
from games.play.review_models import GameReview
from games.stats.models import DailyStats, FirstMoveStats, HeadToHead, PlayerRecord, PlayerStats, RatingChange

__all__ = [
    "ApiToken",
    "Bot",
    "Challenge",
    "ChatBan",
    "ChatMessage",
    "ChatMute",
    "DailyStats",
    "Exam",
    "ExamPosition",
    "FirstMoveStats",
    "Game",
    "GameReview",
    "HeadToHead",
    "Move",
    "Notification",
    "NotificationSettings",
    "PairingPool",
    "PairingRequest",
    "PlayerRecord",
    "PlayerStats",
    "Puzzle",
    "RatingChange",
    "Report",
    "Sanction",
]
