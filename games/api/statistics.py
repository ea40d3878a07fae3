"""Statistics, for anyone: a player's figures and the leaderboard, the same as
their pages show. The views and the shapes they answer with, together."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.accounts import selectors as accounts_selectors
from games.api.pagination import LeaderboardPagination
from games.api.schema import answers, operation
from games.api.serializers import QueryFilterSerializer
from games.play.models import Variant, is_bot
from games.stats import selectors as stats_selectors
from games.stats.models import OPPONENT_KINDS, PROVISIONAL_GAMES


class PlayerRecordSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=Variant.choices)
    opponent = serializers.ChoiceField(
        choices=OPPONENT_KINDS, help_text='"human" for games between people, or the AI\'s level.'
    )
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()


class RatingChangeSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id", help_text="The game between people that changed it.")
    variant = serializers.ChoiceField(source="game.variant", choices=Variant.choices, help_text="Its board.")
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    finished_at = serializers.DateTimeField(source="created_at")


class BoardRatingSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=Variant.choices)
    rating = serializers.IntegerField(help_text="Elo, from rated games on this board; 1200 before the first.")
    provisional = serializers.BooleanField(
        source="is_provisional",
        help_text=f"Fewer than {PROVISIONAL_GAMES} rated games on this board: the rating still moves fast.",
    )
    rated_games = serializers.IntegerField()
    wins = serializers.IntegerField(source="rated_wins")
    draws = serializers.IntegerField(source="rated_draws")
    losses = serializers.IntegerField(source="rated_losses")


class PlayerStatsSerializer(serializers.Serializer):
    """A player's figures: ``stats`` (a PlayerStats), ``ratings``, ``records`` and ``rating_changes``."""

    username = serializers.CharField(source="stats.user.username")
    bot = serializers.BooleanField(help_text="A bot account, shown BOT on the site.")
    ratings = BoardRatingSerializer(
        many=True, help_text="A rating on each board, 3x3 first: each board's games rate that board alone."
    )
    rated_games = serializers.IntegerField(source="stats.rated_games")
    rated_wins = serializers.IntegerField(source="stats.rated_wins")
    rated_draws = serializers.IntegerField(source="stats.rated_draws")
    rated_losses = serializers.IntegerField(source="stats.rated_losses")
    games = serializers.IntegerField(
        source="stats.games", help_text="Finished games of every kind, against people and the AI."
    )
    current_streak = serializers.IntegerField(
        source="stats.current_streak", help_text="Wins in a row (positive) or losses in a row (negative)."
    )
    best_streak = serializers.IntegerField(source="stats.best_streak", help_text="The most wins in a row.")
    records = PlayerRecordSerializer(many=True, help_text="Won, drawn and lost by board and opponent.")
    rating_changes = RatingChangeSerializer(many=True, help_text="The last 100 changes, newest first.")


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 for the highest rating; ties are ranked by the older account.")
    username = serializers.CharField(source="user.username")
    bot = serializers.SerializerMethodField(help_text="A bot account: true on the bots' leaderboard only.")
    rating = serializers.IntegerField()
    provisional = serializers.BooleanField(source="is_provisional")
    rated_games = serializers.IntegerField()
    wins = serializers.IntegerField(source="rated_wins")
    draws = serializers.IntegerField(source="rated_draws")
    losses = serializers.IntegerField(source="rated_losses")

    def get_bot(self, entry) -> bool:
        return is_bot(entry.user)


class LeaderboardFilterSerializer(QueryFilterSerializer):
    variant = serializers.ChoiceField(
        choices=Variant.choices, required=False, default=Variant.THREE, help_text="The board; 3x3 by default."
    )
    bots = serializers.BooleanField(
        required=False, default=False, help_text="The bots' leaderboard (true) or the people's (false, the default)."
    )


class PlayerStatsApi(APIView):
    permission_classes = [AllowAny]

    @operation(
        operation_id="users_stats",
        tags=["statistics"],
        parameters=[OpenApiParameter("username", str, OpenApiParameter.PATH, description="The player's username.")],
        responses=answers({200: PlayerStatsSerializer}, 401, 404),
        description="A player's rating on each board (provisional until 10 rated games there), rated record, streaks, "
        "won/drawn/lost by board and opponent, and the last 100 rating changes, newest first. "
        "Public, like the player's page; an unknown or deactivated player is a 404.",
    )
    def get(self, request, username: str):
        user = accounts_selectors.active_player(username)
        stats = {
            "stats": stats_selectors.player_stats(user),
            "bot": is_bot(user),
            "ratings": stats_selectors.board_ratings(user),
            "records": stats_selectors.player_records(user),
            "rating_changes": list(reversed(stats_selectors.rating_history(user))),
        }
        return Response(PlayerStatsSerializer(stats).data)


class LeaderboardApi(APIView):
    permission_classes = [AllowAny]
    pagination_class = LeaderboardPagination

    @operation(
        operation_id="leaderboard",
        tags=["statistics"],
        parameters=[LeaderboardFilterSerializer],
        responses=answers({200: LeaderboardEntrySerializer(many=True)}, 400, 401, 404),
        description="Players with at least one rated game on a board (`variant`, 3x3 by default), highest "
        "rating there first, 50 a page, as on the leaderboard page; `provisional` marks fewer than 10 rated "
        "games on it. A page past the end is a 404. "
        "People and bots have a leaderboard each: `bots=true` gives the bots', never mixed with the people's.",
    )
    def get(self, request):
        wanted = LeaderboardFilterSerializer.validated(request.query_params)
        players = stats_selectors.leaderboard(variant=wanted["variant"], bots=wanted["bots"])
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(players, request, view=self)
        first = paginator.page.start_index()
        for offset, entry in enumerate(page):
            entry.rank = first + offset
        return paginator.get_paginated_response(LeaderboardEntrySerializer(page, many=True).data)
