"""Every write to games and moves happens here, one transaction each.

Views, the API, the admin and the terminal parse their input, call one of these
functions and show the answer. A refused action raises a :class:`GameError`
whose ``code`` says why in a word a program can test and whose message says it
in a sentence a person can read; nothing stored changes.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine, live, selectors, stats
from games.models import (
    MOVE_TIME_LIMITS,
    Challenge,
    ChallengeKind,
    ChallengeSide,
    ChallengeStatus,
    Game,
    Level,
    Move,
    Result,
    Side,
    StartMode,
    Status,
    Termination,
    Variant,
)


class GameError(Exception):
    """An action on a game that was refused. ``status`` is the HTTP status it maps to."""

    code = "refused"
    status = 409

    def __init__(self, message: str, *, code: str | None = None, game: Game | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.game = game


class InvalidInput(GameError):
    """Input that is not well formed: a cell that is not a cell, an unknown level."""

    code = "invalid"
    status = 400


class NotAPlayer(GameError):
    """Someone acting on a game they do not play in."""

    code = "not_a_player"
    status = 403


class MoveRefused(GameError):
    """A well-formed move the game refuses: occupied, out of turn, stale, or over."""

    code = "illegal_move"
    status = 409


@dataclass(frozen=True)
class Player:
    """Who is acting: a signed-in user, or a guest known by the key in their session."""

    user: object = None
    guest_key: str = ""

    @property
    def is_known(self) -> bool:
        return bool(self.user is not None and self.user.is_authenticated) or bool(self.guest_key)


@dataclass(frozen=True)
class MoveResult:
    game: Game
    applied: bool  # False when the same move at the same ply was already stored (a double click)


def new_guest_key() -> str:
    return secrets.token_hex(16)


def _fresh(game_id: int) -> Game:
    return Game.objects.with_players_and_moves().get(pk=game_id)


def _choice(value: str, choices, what: str) -> str:
    if value not in choices.values:
        allowed = ", ".join(choices.values)
        raise InvalidInput(f"{what} {value!r} is not one of {allowed}", code=f"invalid_{what.replace(' ', '_')}")
    return value


def _record_moves(game: Game, played: list[int], board: engine.Board, cells: list[int]) -> engine.Board:
    """Store ``cells`` as the next moves of a locked ``game`` whose stored moves
    are ``played`` (at ``board``): one insert, one update. It is finished if it
    ended, and ``game.cells`` is what it now holds, so nothing needs reading
    again. An illegal cell raises before anything is written."""
    after, moves = board, []
    for cell in cells:
        after = after.play(cell)
        moves.append(Move(game=game, ply=game.move_count + len(moves), cell=cell))
    now = timezone.now()
    Move.objects.bulk_create(moves)
    game.move_count += len(moves)
    game.turn_started_at = now
    fields = ["move_count", "turn_started_at", "updated_at"]
    if after.is_game_over():
        game.status = Status.FINISHED
        game.result = after.result()
        game.termination = after.termination()
        game.finished_at = now
        fields += ["status", "result", "termination", "finished_at"]
    game.save(update_fields=fields)
    game.cells = [*played, *cells]
    if after.is_game_over():
        stats.stats_record_finished_game(game)
    # One message for the transaction (a move and the AI's reply travel together):
    # the last cell, the game's ply and status as they now stand, and every move made.
    live.publish_game(game, "move", cell=moves[-1].cell, moves=[{"ply": m.ply, "cell": m.cell} for m in moves])
    if after.is_game_over() and not game.ai_side:
        live.publish_lobby("game_ended", game=game.pk)
    return after


def _locked(game_id: int) -> Game:
    """The game row, locked until the transaction ends (PostgreSQL); SQLite's
    IMMEDIATE transactions already let one writer in at a time."""
    return Game.objects.select_for_update(of=("self",)).select_related("x_player", "o_player").get(pk=game_id)


def _locked_for_player(game_id: int, player: Player) -> tuple[Game, str]:
    """Lock a game in progress that ``player`` plays in; (game, their side)."""
    game = _locked(game_id)
    side = game.side_of(player.user, player.guest_key)
    if side is None:
        raise NotAPlayer("you are not playing in this game", game=game)
    if game.status != Status.IN_PROGRESS:
        raise MoveRefused(f"the game is {game.get_status_display().lower()}", code="game_over", game=game)
    return game, side


def _finish(game: Game, winner: str, termination: str) -> None:
    """End a locked game that no line or full board ended: a resignation or a timeout."""
    game.status = Status.FINISHED
    game.result = Result.X_WON if winner == "X" else Result.O_WON
    game.termination = termination
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "result", "termination", "finished_at", "updated_at"])
    stats.stats_record_finished_game(game)


def _refreshed(error: GameError) -> GameError:
    """The refusal with the game as it is now, read after the transaction ended."""
    if error.game is not None:
        error.game = _fresh(error.game.pk)
    return error


def _stored_cells(game: Game) -> list[int]:
    return list(game.moves.order_by("ply").values_list("cell", flat=True))


def game_create_against_ai(
    *,
    player: Player,
    variant: str = Variant.THREE,
    side: str = "X",
    level: str = Level.PERFECT,
    start_mode: str = StartMode.MINIMAX,
    seed: int | None = None,
    rematch_of: Game | None = None,
) -> Game:
    """Start a game against the AI; if the AI moves first, its move is made at once."""
    if not player.is_known:
        raise NotAPlayer("sign in or play as a guest to start a game", code="not_signed_in")
    _choice(variant, Variant, "variant")
    _choice(level, Level, "level")
    _choice(start_mode, StartMode, "start mode")
    if side == "random":
        side = random.choice("XO")
    _choice(side, Side, "side")
    user = player.user if player.user is not None and player.user.is_authenticated else None
    game = Game.objects.create(
        variant=variant,
        x_player=user if side == "X" else None,
        o_player=user if side == "O" else None,
        ai_side="O" if side == "X" else "X",
        ai_level=level,
        start_mode=start_mode,
        guest_key="" if user else player.guest_key,
        seed=random.randrange(2**31) if seed is None else seed,
        rematch_of=rematch_of,
        turn_started_at=timezone.now(),
    )
    if game.ai_side == "X":
        game_play_ai_move(game_id=game.pk)
    return _fresh(game.pk)


def _check_cell(cell: object, size: int) -> int:
    if isinstance(cell, str) and cell.strip().lstrip("-").isdigit():
        cell = int(cell)
    if isinstance(cell, bool) or not isinstance(cell, int):
        raise InvalidInput(f"cell {cell!r} is not a whole number", code="invalid_cell")
    if not 0 <= cell < size * size:
        raise InvalidInput(
            f"cell {cell} is off the {size}x{size} board (cells are 0 to {size * size - 1})", code="invalid_cell"
        )
    return cell


#: Boards on which the AI's reply takes microseconds (3x3 is solved at import):
#: it is stored in the same transaction as the move it answers, so a game never
#: waits for it. On 4x4 and 5x5 the AI may search for milliseconds to a second,
#: which no lock should be held for: it thinks afterwards (game_play_ai_move).
AI_REPLIES_IN_THE_SAME_TRANSACTION = {Variant.THREE}


def game_play_move(*, game_id: int, player: Player, cell: object, ply: object) -> MoveResult:
    """Play ``cell`` for ``player``, who believes ``ply`` moves have been made.

    Exactly one move is stored per ply: a move racing another for the same ply
    or sent with a stale ply is refused with the current game. The same move
    sent twice (a double click) is applied once and the repeat is not an error.
    On 3x3 the AI's reply is stored with the move; on larger boards, when the
    returned game ``awaits_ai``, call :func:`game_play_ai_move`.
    """
    try:
        ply = int(ply)
    except (TypeError, ValueError):
        raise InvalidInput(f"ply {ply!r} is not a whole number", code="invalid_ply") from None
    try:
        with transaction.atomic():
            game = _locked(game_id)
            side = game.side_of(player.user, player.guest_key)
            if side is None:
                raise NotAPlayer("you are not playing in this game", game=game)
            # Checked in the order of their HTTP statuses: not a player (403),
            # malformed (400), then refusals by the game (409).
            cell = _check_cell(cell, Variant(game.variant).size)
            if game.status != Status.IN_PROGRESS:
                raise MoveRefused(f"the game is {game.get_status_display().lower()}", code="game_over", game=game)
            if ply != game.move_count:
                if 0 <= ply < game.move_count:
                    stored = game.moves.filter(ply=ply).first()
                    if stored and stored.cell == cell and stored.mark == side:
                        return MoveResult(_fresh(game.pk), applied=False)
                raise MoveRefused(
                    f"the game has moved on: {game.move_count} moves have been made, not {ply}",
                    code="stale_ply",
                    game=game,
                )
            played = _stored_cells(game)
            board = engine.Board.from_moves(played, size=Variant(game.variant).size)
            if board.to_move != side:
                raise MoveRefused(f"it is {board.to_move}'s turn, not yours", code="not_your_turn", game=game)
            try:
                after = board.play(cell)
            except engine.IllegalMoveError as error:
                raise MoveRefused(str(error), code="occupied", game=game) from None
            cells = [cell]
            if game.ai_side and not after.is_game_over() and game.variant in AI_REPLIES_IN_THE_SAME_TRANSACTION:
                cells.append(_ai_choice(game, after))
            # The locked row, its players and its moves are all known: the
            # game goes back as it now stands without being read again.
            _record_moves(game, played, board, cells)
    except IntegrityError:
        # Another request stored a move for this ply first (databases without
        # row locks can let two transactions get this far).
        game = _fresh(game_id)
        raise MoveRefused("another move was played first", code="stale_ply", game=game) from None
    except GameError as error:
        raise _refreshed(error) from None
    return MoveResult(game, applied=True)


def game_play_ai_move(*, game_id: int) -> Game:
    """Let the AI move if it is its turn. The engine thinks outside the
    transaction, so a slow 5x5 search holds no lock; the move is stored only if
    the game has not moved on meanwhile."""
    game = Game.objects.get(pk=game_id)
    if not game.ai_side or game.status != Status.IN_PROGRESS:
        return _fresh(game_id)
    played = _stored_cells(game)
    board = engine.Board.from_moves(played, size=Variant(game.variant).size)
    if board.to_move != game.ai_side:
        return _fresh(game_id)
    ply = game.move_count
    cell = _ai_choice(game, board)
    try:
        with transaction.atomic():
            locked = _locked(game_id)
            if locked.move_count == ply and locked.status == Status.IN_PROGRESS:
                _record_moves(locked, played, board, [cell])
    except IntegrityError:
        pass  # a concurrent request already stored the AI's move for this ply
    return _fresh(game_id)


def _ai_choice(game: Game, board: engine.Board) -> int:
    """The AI's move in ``game`` at ``board``: its opening by the game's start
    mode, then its level's choice. Seeded by the game and the ply, so the same
    position in the same game always gets the same answer."""
    seed = game.seed + board.ply
    if board.ply == 0:
        return engine.opening_move(board, game.start_mode or StartMode.MINIMAX, game.ai_level, seed=seed)
    return engine.best_move(board, game.ai_level, seed=seed)


def game_resign(*, game_id: int, player: Player) -> Game:
    """The player gives up; the other side wins."""
    try:
        with transaction.atomic():
            game, side = _locked_for_player(game_id, player)
            _finish(game, "O" if side == "X" else "X", Termination.RESIGNED)
            live.publish_game(game, "resigned", side=side)
    except GameError as error:
        raise _refreshed(error) from None
    return _fresh(game_id)


def game_abort(*, game_id: int) -> bool:
    """Abort an unfinished game (staff clean-up); False if it had already ended."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Status.IN_PROGRESS:
            return False
        game.status = Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at", "updated_at"])
        live.publish_game(game, "aborted")
    return True


def game_rematch(*, game_id: int, player: Player) -> Game:
    """A new game against the AI with the same settings and the sides swapped."""
    game = Game.objects.get(pk=game_id)
    side = game.side_of(player.user, player.guest_key)
    if side is None:
        raise NotAPlayer("only a player can ask for a rematch", game=_fresh(game_id))
    if not game.ai_side:
        raise MoveRefused("a rematch between people is offered to the opponent first", code="offer_rematch")
    return game_create_against_ai(
        player=player,
        variant=game.variant,
        side="O" if side == "X" else "X",
        level=game.ai_level,
        start_mode=game.start_mode or StartMode.MINIMAX,
        rematch_of=game,
    )


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
            stats.stats_recount_player(user.pk)  # the finished ones now count in their record
    return adopted


# --------------------------------------------------------------------------
# Games between people: challenges, the clock, aborting, rematch offers.


class ChallengeRefused(GameError):
    """A challenge that cannot be accepted, declined or cancelled (any more)."""

    code = "challenge_closed"
    status = 409


def _signed_in(user) -> None:
    if user is None or not user.is_authenticated:
        raise NotAPlayer("sign in to play other people", code="not_signed_in")


def challenge_create(
    *,
    challenger,
    kind: str = ChallengeKind.OPEN,
    variant: str = Variant.THREE,
    side: str = ChallengeSide.RANDOM,
    move_time_limit: int | None = None,
    opponent_username: str = "",
    rematch_of: Game | None = None,
) -> Challenge:
    """Offer a game: open in the lobby, sent to a named player, or as an invite link."""
    from django.contrib.auth import get_user_model

    _signed_in(challenger)
    _choice(kind, ChallengeKind, "kind")
    _choice(variant, Variant, "variant")
    _choice(side, ChallengeSide, "side")
    if move_time_limit not in dict(MOVE_TIME_LIMITS):
        allowed = ", ".join("none" if v is None else str(v) for v, _ in MOVE_TIME_LIMITS)
        raise InvalidInput(
            f"a time limit of {move_time_limit!r} s is not offered ({allowed})", code="invalid_time_limit"
        )
    opponent = None
    if kind == ChallengeKind.DIRECT:
        opponent = get_user_model().objects.filter(username=opponent_username, is_active=True).first()
        if opponent is None:
            raise InvalidInput(f"there is no player called {opponent_username!r}", code="unknown_player")
        if opponent == challenger:
            raise InvalidInput("you cannot challenge yourself", code="self_challenge")
    with transaction.atomic():
        challenge = Challenge.objects.create(
            kind=kind,
            challenger=challenger,
            opponent=opponent,
            variant=variant,
            challenger_side=side,
            move_time_limit=move_time_limit,
            token=secrets.token_urlsafe(16),
            rematch_of=rematch_of,
        )
        if kind == ChallengeKind.OPEN:
            live.publish_lobby("challenge_created", challenge=challenge.pk)
        if opponent is not None:
            live.publish_user(opponent.pk, "challenge_received", challenge=challenge.pk)
    return challenge


def _locked_challenge(*, challenge_id=None, token=None) -> Challenge:
    query = Challenge.objects.select_for_update()
    if token is not None:
        return query.get(token=token)
    return query.get(pk=challenge_id)


def challenge_accept(*, user, challenge_id: int | None = None, token: str | None = None) -> Game:
    """Accept a challenge: the game starts at once. Only once, and never by its creator."""
    _signed_in(user)
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id=challenge_id, token=token)
        if challenge.kind == ChallengeKind.LINK and token is None:
            # An invite link's token is its only key: a guessed id must not open it.
            raise NotAPlayer("this challenge is accepted through its invite link", code="needs_invite_link")
        if challenge.status != ChallengeStatus.OPEN:
            raise ChallengeRefused(f"this challenge is {challenge.get_status_display().lower()} already")
        if challenge.challenger_id == user.pk:
            raise ChallengeRefused("you cannot accept your own challenge", code="own_challenge")
        if challenge.kind == ChallengeKind.DIRECT and challenge.opponent_id != user.pk:
            raise NotAPlayer("this challenge was sent to someone else")
        side = challenge.challenger_side
        if side == ChallengeSide.RANDOM:
            side = random.choice("XO")
        x_player, o_player = (challenge.challenger, user) if side == "X" else (user, challenge.challenger)
        now = timezone.now()
        game = Game.objects.create(
            variant=challenge.variant,
            x_player=x_player,
            o_player=o_player,
            move_time_limit=challenge.move_time_limit,
            turn_started_at=now,
            rematch_of=challenge.rematch_of,
            seed=random.randrange(2**31),
        )
        challenge.status = ChallengeStatus.ACCEPTED
        challenge.game = game
        challenge.opponent = challenge.opponent or user
        challenge.resolved_at = now
        challenge.save(update_fields=["status", "game", "opponent", "resolved_at"])
        live.publish_user(
            challenge.challenger_id,
            "challenge_accepted",
            challenge=challenge.pk,
            game=game.pk,
            url=game.get_absolute_url(),
        )
        if challenge.rematch_of_id:
            live.publish_game(challenge.rematch_of, "rematch_started", url=game.get_absolute_url())
        live.publish_lobby("game_started", game=game.pk)
    return _fresh(game.pk)


def _close_challenge(challenge: Challenge, status: str) -> Challenge:
    challenge.status = status
    challenge.resolved_at = timezone.now()
    challenge.save(update_fields=["status", "resolved_at"])
    if challenge.kind == ChallengeKind.OPEN:
        live.publish_lobby("challenge_closed", challenge=challenge.pk)
    if challenge.rematch_of_id:
        live.publish_game(challenge.rematch_of, "rematch_" + status)
    return challenge


def challenge_decline(*, user, challenge_id: int) -> Challenge:
    """The player a challenge was sent to says no."""
    _signed_in(user)
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id=challenge_id)
        if challenge.opponent_id != user.pk or challenge.kind == ChallengeKind.OPEN:
            raise NotAPlayer("only the player a challenge was sent to can decline it")
        if challenge.status != ChallengeStatus.OPEN:
            raise ChallengeRefused(f"this challenge is {challenge.get_status_display().lower()} already")
        _close_challenge(challenge, ChallengeStatus.DECLINED)
        live.publish_user(challenge.challenger_id, "challenge_declined", challenge=challenge.pk)
    return challenge


def challenge_cancel(*, user, challenge_id: int) -> Challenge:
    """The challenger withdraws a challenge nobody has accepted yet."""
    _signed_in(user)
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id=challenge_id)
        if challenge.challenger_id != user.pk:
            raise NotAPlayer("only the challenger can cancel a challenge")
        if challenge.status != ChallengeStatus.OPEN:
            raise ChallengeRefused(f"this challenge is {challenge.get_status_display().lower()} already")
        _close_challenge(challenge, ChallengeStatus.CANCELLED)
        if challenge.opponent_id:
            live.publish_user(challenge.opponent_id, "challenge_cancelled", challenge=challenge.pk)
    return challenge


def game_claim_timeout(*, game_id: int, player: Player) -> Game:
    """The waiting player claims the win once the player to move has run out of time."""
    try:
        with transaction.atomic():
            game, side = _locked_for_player(game_id, player)
            to_move = "X" if game.move_count % 2 == 0 else "O"
            if to_move == side:
                raise MoveRefused("it is your own turn: there is nothing to claim", code="not_claimable", game=game)
            if not game.is_out_of_time():
                raise MoveRefused("your opponent still has time to move", code="not_claimable", game=game)
            _finish(game, side, Termination.TIMEOUT)
            live.publish_game(game, "timeout", side=side)
    except GameError as error:
        raise _refreshed(error) from None
    return _fresh(game_id)


def game_abort_by_player(*, game_id: int, player: Player) -> Game:
    """A player calls a game off before its second move: no result, nobody's record changes."""
    try:
        with transaction.atomic():
            game, _ = _locked_for_player(game_id, player)
            if game.move_count >= 2:
                raise MoveRefused(
                    "a game can only be aborted before its second move; resign instead",
                    code="too_late_to_abort",
                    game=game,
                )
            game.status = Status.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at", "updated_at"])
            live.publish_game(game, "aborted")
            if not game.ai_side:
                live.publish_lobby("game_ended", game=game.pk)
    except GameError as error:
        raise _refreshed(error) from None
    return _fresh(game_id)


def game_offer_rematch(*, game_id: int, player: Player) -> Challenge:
    """After a game between people, offer the opponent another with the sides swapped."""
    game = Game.objects.get(pk=game_id)
    side = game.side_of(player.user, player.guest_key)
    if side is None:
        raise NotAPlayer("only a player can offer a rematch", game=_fresh(game_id))
    if game.ai_side:
        raise MoveRefused("against the AI a rematch starts at once", code="ai_rematch")
    if game.status == Status.IN_PROGRESS:
        raise MoveRefused("finish this game first", code="game_in_progress", game=_fresh(game_id))
    opponent = game.player("O" if side == "X" else "X")
    if opponent is None:
        raise MoveRefused("your opponent's account no longer exists", code="no_opponent")
    pending = game.rematch_offers.filter(status=ChallengeStatus.OPEN).first()
    if pending is not None:
        if pending.challenger_id == player.user.pk:
            return pending  # offered already: a second click changes nothing
        raise MoveRefused("your opponent has offered a rematch already: accept it", code="rematch_offered")
    challenge = challenge_create(
        challenger=player.user,
        kind=ChallengeKind.DIRECT,
        variant=game.variant,
        side="O" if side == "X" else "X",
        move_time_limit=game.move_time_limit,
        opponent_username=opponent.get_username(),
        rematch_of=game,
    )
    live.publish_game(game, "rematch_offered", by=side)
    return challenge


# --------------------------------------------------------------------------
# The API's tokens.


class SignInLocked(GameError):
    """Too many failed sign-ins from this client for this username (django-axes):
    refused, even with the right password, until ``retry_after`` seconds pass."""

    code = "locked_out"
    status = 429

    def __init__(self, message: str, *, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def auth_token_issue(*, username: str, password: str, request=None) -> str:
    """The API token of the account these credentials open: made on first use, the same one after."""
    from django.contrib.auth import authenticate
    from rest_framework.authtoken.models import Token

    from games import lockout

    user = authenticate(request, username=username, password=password)
    if user is None and getattr(request, "axes_locked_out", False):
        seconds = lockout.seconds_left(request, {"username": username})
        raise SignInLocked(lockout.message(seconds), retry_after=seconds)
    if user is None:
        raise InvalidInput("unable to sign in with that username and password", code="invalid_credentials")
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


# --------------------------------------------------------------------------
# Leaving the site.


class AccountRefused(GameError):
    """An account that may not be deleted: the last superuser."""

    code = "account_refused"
    status = 409


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
    own counters (rating, records, head to head) go with the account."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    with transaction.atomic():
        if user.is_superuser:
            # Every superuser's row locked, in one order: the last two deleting
            # themselves at once cannot both succeed, nor deadlock.
            list(User.objects.select_for_update().filter(is_superuser=True).order_by("pk"))
        account = User.objects.select_for_update().filter(pk=user.pk).first()
        if account is None:
            return AccountDeletion(0, 0, 0)  # deleted already: a second click
        if selectors.is_last_superuser(account):
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
        account.delete()
    return AccountDeletion(resigned=resigned, aborted=aborted, challenges_closed=closed)
