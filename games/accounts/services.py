"""An account's writes: the games a guest played handed to their new account,
the API tokens, becoming a bot, and leaving the site.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import authenticate, get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.accounts import lockout, selectors
from games.accounts.models import ApiToken, token_digest
from games.accounts.selectors import is_last_superuser
from games.errors import AccountClosed, AccountRefused, ChallengeRefused, GameError, InvalidInput, SignInLocked
from games.lobby.models import Challenge, ChallengeKind
from games.lobby.services import challenge_cancel, challenge_decline
from games.moderation import selectors as moderation_selectors
from games.moderation import services as moderation_services
from games.moderation.models import SanctionKind
from games.play.chat_models import ChatMessage
from games.play.models import Bot, Game
from games.play.players import Player
from games.play.services import game_abort, game_resign
from games.stats import counters


def games_adopt_guest(*, user, guest_key: str) -> int:
    """Hand the games a guest played to their new account; how many moved over."""
    if not guest_key:
        return 0
    adopted = 0
    with transaction.atomic():
        for game in Game.objects.select_for_update().filter(guest_key=guest_key):
            if game.human_side == "X":
                game.x_player = user
            else:
                game.o_player = user
            game.guest_key = ""
            game.save(update_fields=["x_player", "o_player", "guest_key", "updated_at"])
            adopted += 1
        if adopted:
            counters.recount_player(user.pk)  # the finished ones now count in their record
    return adopted


def sign_in_refusal(*, username: str, password: str) -> AccountClosed | None:
    """Why the account these credentials open cannot sign in, told plainly:
    closed, or suspended until when and why. None when they open no such
    account, or when its suspension is over: that ends here, at once."""
    account = selectors.closed_account(username)
    if account is None or not account.check_password(password):
        return None
    if moderation_services.suspensions_end(user=account):
        return None
    standing = moderation_selectors.standing_sanction(account)
    if standing is None:
        return AccountClosed(
            "this account is closed, so it cannot sign in. If you think that is a mistake, write to the site's staff"
        )
    reason = standing.reason.rstrip(".")
    if standing.kind == SanctionKind.SUSPEND:
        return AccountClosed(
            f"this account is suspended until {moderation_selectors.when(standing.ends_at)}: {reason}. "
            "You can sign in again then",
            code="account_suspended",
        )
    return AccountClosed(
        f"the site's moderators closed this account: {reason}. If you think that is a mistake, "
        "write to the site's staff"
    )


def auth_token_issue(*, username: str, password: str, request=None) -> str:
    """The API token of the account these credentials open: made on first use, the same one after."""
    refusal = sign_in_refusal(username=username, password=password)
    if refusal is not None:
        raise refusal
    user = authenticate(request, username=username, password=password)
    if user is None and getattr(request, "axes_locked_out", False):
        seconds = lockout.seconds_left(request, {"username": username})
        raise SignInLocked(lockout.message(seconds), retry_after=seconds)
    if user is None:
        raise InvalidInput("unable to sign in with that username and password", code="invalid_credentials")
    return api_token_create(user=user)


#: Tokens one account may hold: the oldest used go first past this.
MAX_API_TOKENS = 20

#: How stale a token's "last used" may be: it is written at most this often.
LAST_USED_EVERY = timedelta(minutes=1)


def api_token_create(*, user, name: str = "API token") -> str:
    """A new token for ``user``; its key, which is shown this once (only its
    digest is stored). Past MAX_API_TOKENS the least recently used go."""
    key = secrets.token_hex(20)
    with transaction.atomic():
        ApiToken.objects.create(user=user, name=name[:64], digest=token_digest(key), prefix=key[:8])
        # Never used counts as the oldest use, by when it was made.
        kept = ApiToken.objects.filter(user=user).order_by(
            F("last_used_at").desc(nulls_last=True), "-created_at", "-pk"
        )[:MAX_API_TOKENS]
        ApiToken.objects.filter(user=user).exclude(pk__in=list(kept.values_list("pk", flat=True))).delete()
    return key


def api_token_used(*, token: ApiToken) -> None:
    """Note that ``token`` opened a request: at most once a minute, so the
    busiest client costs one small write a minute."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < LAST_USED_EVERY:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now


def api_token_revoke(*, user, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens; False if they hold no such token (revoked already)."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def api_tokens_revoke_all(*, user) -> int:
    """Revoke every token of ``user`` (a password changed or reset, or asked on
    the tokens page); how many there were."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted


def account_become_bot(*, user, accepts_people: bool = True) -> tuple[Bot, bool]:
    """Make ``user`` a bot account, for good: only before its first game, so
    that no game a person played against it, rated, ever had a bot in it.
    Asking again changes nothing. (the bot, whether this asking made it)."""
    with transaction.atomic():
        account = get_user_model().objects.select_for_update().get(pk=user.pk)
        bot = Bot.objects.filter(user=account).first()
        if bot is not None:
            return bot, False
        if Game.objects.of_player(account).exists():
            raise AccountRefused(
                "an account becomes a bot only before it has played any game: make a new account for your bot",
                code="has_played",
            )
        return Bot.objects.create(user=account, accepts_people=bool(accepts_people)), True


def bot_settings_update(*, user, accepts_people: bool | None = None) -> Bot:
    """A bot says whether people may challenge it (``accepts_people``; None: unchanged)."""
    with transaction.atomic():
        bot = Bot.objects.select_for_update().filter(user=user).first()
        if bot is None:
            raise AccountRefused("this account is not a bot: make it one first", code="not_a_bot")
        if accepts_people is not None:
            bot.accepts_people = bool(accepts_people)
            bot.save(update_fields=["accepts_people"])
    return bot


@dataclass(frozen=True)
class AccountDeletion:
    resigned: int  # games between people, won by the opponent
    aborted: int  # games against the AI
    challenges_closed: int  # challenges made (cancelled) or received (declined)


def account_delete(*, user) -> AccountDeletion:
    """Delete a player's account, leaving the way a player would: games in
    progress against people are resigned (the opponent wins, rated as usual),
    games against the AI aborted, challenges cancelled or declined. Their games
    stay in their opponents' histories with that side shown as deleted; their
    chat messages and their own counters (rating, records, head to head) go
    with the account."""
    User = get_user_model()
    with transaction.atomic():
        if user.is_superuser:
            # Every superuser's row locked, in one order: the last two deleting
            # themselves at once cannot both succeed, nor deadlock.
            list(User.objects.select_for_update().filter(is_superuser=True).order_by("pk"))
        account = User.objects.select_for_update().filter(pk=user.pk).first()
        if account is None:
            return AccountDeletion(0, 0, 0)  # deleted already: a second click
        if is_last_superuser(account):
            raise AccountRefused(
                "this is the site's only superuser account: make another account a superuser first, "
                "or nobody could manage the site",
                code="last_superuser",
            )
        # Challenges first: one accepted meanwhile has started a game, finished below.
        closed = 0
        waiting = Challenge.objects.waiting()
        made = list(waiting.filter(challenger=account).values_list("pk", flat=True))
        received = list(waiting.filter(opponent=account).exclude(kind=ChallengeKind.OPEN).values_list("pk", flat=True))
        for close, challenge_ids in ((challenge_cancel, made), (challenge_decline, received)):
            for challenge_id in challenge_ids:
                try:
                    close(user=account, challenge_id=challenge_id)
                    closed += 1
                except ChallengeRefused:
                    pass  # accepted or withdrawn meanwhile
        player = Player(user=account)
        resigned = aborted = 0
        for game_id, ai_side in Game.objects.of_player(account).in_progress().values_list("pk", "ai_side"):
            if ai_side:
                aborted += 1 if game_abort(game_id=game_id) else 0
                continue
            try:
                game_resign(game_id=game_id, player=player)
                resigned += 1
            except GameError:
                pass  # it ended meanwhile (the last move, a timeout): nothing left to finish
        # What they wrote goes with them; their games stay, their side shown as deleted.
        ChatMessage.objects.filter(author=account).delete()
        account.delete()
    return AccountDeletion(resigned=resigned, aborted=aborted, challenges_closed=closed)
