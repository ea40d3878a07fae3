"""Statistics and ratings kept as games end, and checked against a recount."""

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.accounts import services as accounts_services
from games.errors import MoveRefused
from games.lobby import services as lobby_services
from games.play import services
from games.play.models import Game
from games.play.players import Player
from games.stats import counters, selectors
from games.stats.models import (
    BoardRating,
    DailyStats,
    FirstMoveStats,
    HeadToHead,
    PlayerRecord,
    PlayerStats,
    RatingChange,
    counter_shard,
)
from games.stats.selectors import board_rating
from tests import factories
from tests.factories import rating_of, time_passes
from tests.races import at_once, refusal_codes

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(name, password="x") for name in ("ann", "ben", "cat", "dan")]


def _human_game(x, o, **kwargs):
    challenge = lobby_services.challenge_create(challenger=x, side="X", **kwargs)
    return lobby_services.challenge_accept(user=o, challenge_id=challenge.pk)


def _play_out(game, moves):
    players = {"X": Player(user=game.x_player), "O": Player(user=game.o_player)}
    for ply, cell in enumerate(moves):
        side = "X" if ply % 2 == 0 else "O"
        services.game_play_move(game_id=game.pk, player=players[side], cell=cell, ply=ply)
    return Game.objects.get(pk=game.pk)


def test_a_win_moves_both_ratings_by_the_same_amount(people):
    ann, ben, *_ = people
    game = _play_out(_human_game(ann, ben), [0, 3, 1, 4, 2])  # ann (X) completes the top row
    assert game.result == "x_won"
    ann_stats, ben_stats = PlayerStats.objects.get(user=ann), PlayerStats.objects.get(user=ben)
    assert rating_of(ann) == 1220 and rating_of(ben) == 1180  # equal ratings, K=40 while provisional
    assert (ann_stats.rated_wins, ben_stats.rated_losses) == (1, 1)
    assert board_rating(ann, "3x3").is_provisional and board_rating(ann, "3x3").rated_wins == 1
    changes = RatingChange.objects.filter(game=game).order_by("user__username")
    assert [(c.user.username, c.before, c.after) for c in changes] == [("ann", 1200, 1220), ("ben", 1200, 1180)]


def test_a_game_is_never_rated_or_counted_twice(people):
    ann, ben, *_ = people
    game = _play_out(_human_game(ann, ben), [0, 3, 1, 4, 2])
    before = (rating_of(ann), DailyStats.objects.get().games)
    with pytest.raises(MoveRefused):  # ending it a second time
        services.game_resign(game_id=game.pk, player=Player(user=ben))
    assert (rating_of(ann), DailyStats.objects.get().games) == before
    assert RatingChange.objects.filter(game=game).count() == 2


def test_games_against_the_ai_and_aborted_games_leave_ratings_alone(people):
    ann, ben, *_ = people
    factories.ai_game(ann, level="easy", resign=True)
    aborted = _human_game(ann, ben)
    services.game_abort_by_player(game_id=aborted.pk, player=Player(user=ann))
    assert rating_of(ann) == 1200
    assert PlayerStats.objects.get(user=ann).games == 1  # the resigned AI game
    assert not PlayerStats.objects.filter(user=ben).exists()
    record = PlayerRecord.objects.get(user=ann)
    assert (record.variant, record.opponent, record.losses) == ("3x3", "easy", 1)


def test_streaks_count_wins_and_losses_in_a_row(people):
    ann, ben, *_ = people
    for _ in range(3):
        _play_out(_human_game(ann, ben), [0, 3, 1, 4, 2])
    ann_stats = PlayerStats.objects.get(user=ann)
    assert (ann_stats.current_streak, ann_stats.best_streak) == (3, 3)
    assert PlayerStats.objects.get(user=ben).current_streak == -3
    game = _play_out(_human_game(ann, ben), [0, 3])
    services.game_resign(game_id=game.pk, player=Player(user=ann))
    ann_stats.refresh_from_db()
    assert (ann_stats.current_streak, ann_stats.best_streak) == (-1, 3)


def test_a_timeout_counts_as_a_win_on_time(people):
    ann, ben, *_ = people
    game = _human_game(ann, ben, move_time_limit=30)
    for ply, (player, cell) in enumerate([(ann, 4), (ben, 0), (ann, 8)]):
        services.game_play_move(game_id=game.pk, player=Player(user=player), cell=cell, ply=ply)
    time_passes(game, 5 * 60)
    services.game_claim_timeout(game_id=game.pk, player=Player(user=ann))
    row = DailyStats.objects.get()
    assert (row.termination, row.result, row.opponent, row.games, row.moves) == ("timeout", "x_won", "human", 1, 3)
    assert FirstMoveStats.objects.get().cell == 4


def _snapshot():
    return {
        "daily": sorted(
            DailyStats.objects.values_list("day", "variant", "opponent", "result", "termination", "games", "moves")
        ),
        "first": sorted(FirstMoveStats.objects.values_list("variant", "cell", "result", "games")),
        "records": sorted(
            PlayerRecord.objects.values_list("user_id", "variant", "opponent", "wins", "losses", "draws")
        ),
        "players": sorted(
            PlayerStats.objects.values_list(
                "user_id",
                "rated_games",
                "rated_wins",
                "rated_losses",
                "rated_draws",
                "games",
                "current_streak",
                "best_streak",
            )
        ),
        "ratings": sorted(RatingChange.objects.values_list("game_id", "user_id", "before", "after")),
        "boards": sorted(
            BoardRating.objects.values_list(
                "user_id", "variant", "rating", "rated_games", "rated_wins", "rated_draws", "rated_losses"
            )
        ),
        "head_to_head": sorted(
            HeadToHead.objects.values_list("user_id", "opponent_id", "games", "wins", "losses", "draws")
        ),
    }


def test_counters_kept_as_games_end_equal_a_recount_of_every_game(people):
    rng = random.Random(6)
    for round_ in range(60):
        x, o = rng.sample(people, 2)
        kind = rng.choice(["human", "human", "ai", "guest"])
        if kind == "human":
            game = _human_game(x, o, variant=rng.choice(["3x3", "3x3", "4x4"]))
            players = {"X": Player(user=x), "O": Player(user=o)}
        else:
            player = Player(user=x) if kind == "ai" else Player(guest_key=f"guest-{round_}")
            game = services.game_create_against_ai(
                player=player,
                level=rng.choice(["easy", "medium", "hard", "perfect"]),
                side=rng.choice("XO"),
                seed=round_,
            )
            players = {game.human_side: player}
        ending = rng.choice(["play", "play", "play", "resign", "abort", "leave"])
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != "in_progress":
                break
            to_move = "X" if game.move_count % 2 == 0 else "O"
            if ending == "resign" and game.move_count >= 3 and to_move in players:
                services.game_resign(game_id=game.pk, player=players[to_move])
                continue
            if ending == "abort" and to_move in players:
                services.game_abort_by_player(game_id=game.pk, player=players[to_move])
                continue
            if ending == "leave" and game.move_count >= 4:
                break  # left unfinished: counted nowhere
            assert to_move in players, "the AI's reply is part of the move: it never owes one here"
            cell = rng.choice(game.board.legal_moves)
            services.game_play_move(game_id=game.pk, player=players[to_move], cell=cell, ply=game.move_count)
    finished = Game.objects.filter(status="finished")
    assert finished.filter(termination="resigned").exists() and Game.objects.filter(status="aborted").exists()
    assert RatingChange.objects.exists()
    kept = _snapshot()
    assert sum(row[5] for row in kept["daily"]) == finished.count()
    counters.recount()
    assert _snapshot() == kept


def test_the_recount_refuses_nothing_and_can_run_twice(people):
    ann, ben, *_ = people
    _play_out(_human_game(ann, ben), [0, 3, 1, 4, 2])
    counters.recount()
    first = _snapshot()
    counters.recount()
    assert _snapshot() == first


def test_moves_refused_do_not_touch_the_counters(people):
    ann, ben, *_ = people
    game = _play_out(_human_game(ann, ben), [0, 3, 1, 4, 2])
    before = _snapshot()
    with pytest.raises(MoveRefused):
        services.game_play_move(game_id=game.pk, player=Player(user=ben), cell=8, ply=5)
    assert _snapshot() == before


def test_a_guests_finished_games_count_in_the_account_that_adopts_them(people):
    ann = people[0]
    guest = Player(guest_key="a-guest")
    for _ in range(2):
        factories.ai_game(guest_key=guest.guest_key, level="easy", resign=True)
    services.game_create_against_ai(player=guest, level="easy", seed=2)  # in progress
    factories.ai_game(ann, resign=True)
    assert accounts_services.games_adopt_guest(user=ann, guest_key="a-guest") == 3
    record = PlayerRecord.objects.get(user=ann, opponent="easy")
    assert record.losses == 2
    assert PlayerStats.objects.get(user=ann).games == 3
    kept = _snapshot()
    counters.recount()
    assert _snapshot() == kept


@pytest.mark.django_db(transaction=True)
def test_a_players_first_games_ending_at_once_are_all_counted(user):
    """Their statistics row does not exist yet: each ending makes it or waits
    for the one that does, and no ending is lost or fails."""
    player = Player(user=user)
    games = [services.game_create_against_ai(player=player, side="X", level="easy", seed=n) for n in range(4)]
    for game in games:
        services.game_play_move(game_id=game.pk, player=player, cell=4, ply=0)
    barrier = threading.Barrier(len(games))
    failures = []

    def resign(game_id):
        try:
            barrier.wait()
            services.game_resign(game_id=game_id, player=player)
        except Exception as error:  # noqa: BLE001 - a failure is what the test looks for
            failures.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=resign, args=(game.pk,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    assert PlayerStats.objects.get(user=user).games == 4
    assert PlayerRecord.objects.get(user=user).losses == 4
    kept = _snapshot()
    counters.recount()
    assert _snapshot() == kept


@pytest.mark.parametrize("score", [1.0, 0.5, 0.0], ids=["won", "drawn", "lost"])
def test_a_game_against_the_ai_moves_the_streaks_as_the_recount_does(user, score):
    """Such a game's player row is changed in one statement, its streaks worked
    out in SQL: from every kind of row, the same as the recount's Python."""
    finished_at = timezone.now()
    for current, best in [(-3, 0), (-1, 2), (0, 0), (1, 1), (2, 5), (4, 4)]:
        PlayerStats.objects.update_or_create(
            user=user,
            defaults={"current_streak": current, "best_streak": best, "games": 7, "last_finished_at": None},
        )
        with transaction.atomic():
            counters._count_unrated(user.pk, score, finished_at)
        stored = PlayerStats.objects.get(user=user)
        twin = PlayerStats(user=user, current_streak=current, best_streak=best, games=7)
        counters._count_game(twin, score, finished_at)
        figures = ("games", "current_streak", "best_streak", "last_finished_at")
        assert [getattr(stored, name) for name in figures] == [getattr(twin, name) for name in figures], (current, best)


def test_games_of_one_kind_are_counted_in_rows_of_their_own_and_read_as_one(user):
    """The site-wide counters keep a kind in COUNTER_SHARDS rows, so games ending
    at once do not wait for one row's lock; the stats read them as one count."""
    games = [factories.ai_game(user, first=0) for _ in range(3)]  # three games alike
    assert len({counter_shard(game.pk) for game in games}) == 3
    (kind,) = {(game.result, game.termination) for game in games}
    rows = DailyStats.objects.filter(result=kind[0], termination=kind[1])
    assert sorted(rows.values_list("shard", "games")) == sorted((counter_shard(game.pk), 1) for game in games)
    assert selectors.site_stats()["total"] == 3
    first = next(cell for cell in selectors.first_move_heatmap("3x3") if cell["cell"] == 0)
    assert first["games"] == 3 and first["share"] == 100
    kept = _snapshot()
    counters.recount()
    assert _snapshot() == kept  # the recount shares them out alike


def test_games_stored_as_ended_before_both_sides_moved_are_aborted_and_the_ratings_recomputed(people):
    """Migration 0018: what resigning at once used to store (a rated win for
    the opponent) is aborted, and every counter rebuilt without it."""
    from importlib import import_module

    from django.apps import apps

    ann, ben, *_ = people
    played = _play_out(_human_game(ann, ben), [0, 3, 1, 4, 2])  # ann wins
    kept = _snapshot()
    for moves in ([], [4]):
        game = _play_out(_human_game(ben, ann), moves)
        Game.objects.filter(pk=game.pk).update(
            status="finished", result="o_won", termination="resigned", finished_at=timezone.now()
        )
    counters.recount()  # as the site counted them then: two more wins for ann
    assert PlayerStats.objects.get(user=ann).rated_wins == 3

    import_module("games.migrations.0018_unplayed_games_aborted").forwards(apps, None)

    assert list(Game.objects.exclude(pk=played.pk).values_list("status", "result", "termination")) == [
        ("aborted", "", ""),
        ("aborted", "", ""),
    ]
    assert _snapshot() == kept
    assert rating_of(ann) == 1220


def test_a_game_counted_after_another_of_its_players_is_recounted_after_it_too(people):
    """ann's game against ben is counted first, though its end is stamped an
    hour later (a flag seen by a worker whose clock runs ahead); her game
    against cat, counted second, ends after it for the recount as well, so
    the recount rates them in the order the site did."""
    ann, ben, cat, _ = people
    first = _play_out(_human_game(ann, ben, time_control="3+0"), [0, 3])
    second = _play_out(_human_game(ann, cat, time_control="3+0"), [0, 3])
    assert services.game_end_on_time(game_id=first.pk, now=timezone.now() + timedelta(hours=1))  # ann flags
    services.game_resign(game_id=second.pk, player=Player(user=cat))
    kept = _snapshot()
    counters.recount()
    assert _snapshot() == kept
    assert rating_of(ann) == board_rating(ann, "3x3").rating == 1200 - 20 + 21


@pytest.mark.parametrize("ann_plays", ["X", "O"])
def test_casual_games_counted_out_of_their_stamped_order_keep_the_recounts_streak(people, ann_plays):
    """The same for games no rating depends on: ann wins a casual game whose
    end is stamped an hour later, then loses another (counted for her
    opponent first when she plays O). Her streak is a loss, and the recount,
    counting in the order the games ended, agrees."""
    ann, ben, cat, _ = people
    won = _play_out(_human_game(ann, ben, time_control="3+0", rated=False), [0, 3, 1])
    players = (ann, cat) if ann_plays == "X" else (cat, ann)
    lost = _play_out(_human_game(*players, time_control="3+0", rated=False), [0, 3])
    assert services.game_end_on_time(game_id=won.pk, now=timezone.now() + timedelta(hours=1))  # ben flags
    services.game_resign(game_id=lost.pk, player=Player(user=ann))
    assert PlayerStats.objects.get(user=ann).current_streak == -1
    kept = _snapshot()
    counters.recount()
    assert _snapshot() == kept


@pytest.mark.django_db(transaction=True)
def test_a_players_first_rated_games_on_a_board_ending_at_once_are_both_rated(django_user_model):
    """ann's two first 3x3 games, against ben and against cat, end at the same
    moment: her board rating row does not exist yet, each game makes it or
    waits for the one that does, and both games move it."""
    ann, ben, cat = (django_user_model.objects.create_user(name, password="x") for name in ("ann", "ben", "cat"))
    games = [_play_out(_human_game(ann, other), [0, 3, 1, 4]) for other in (ben, cat)]
    results = at_once(
        *(lambda g=game: services.game_resign(game_id=g.pk, player=Player(user=g.o_player)) for game in games)
    )
    assert refusal_codes(results) == ["ok", "ok"]
    board = BoardRating.objects.get(user=ann, variant="3x3")
    assert (board.rated_games, board.rated_wins) == (2, 2)
    changes = RatingChange.objects.filter(user=ann).order_by("id")
    assert [c.before for c in changes][0] == 1200 and changes[1].before == changes[0].after == 1220
    kept = _snapshot()
    counters.recount()
    assert _snapshot() == kept
