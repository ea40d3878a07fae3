"""My games: a signed-in player's history, and the record on their profile."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from games.play import services
from games.play.models import Game, Status
from games.play.players import Player
from games.stats import counters
from tests.factories import DRAW, X_WINS, human_game

pytestmark = pytest.mark.django_db

HISTORY = reverse("games:history")


# -- games made through the services, as a player would make them -------------


def new_game(user, **options):
    options.setdefault("side", "X")
    options.setdefault("seed", 1)
    return services.game_create_against_ai(player=Player(user=user), **options)


def play_out(game, user, level="perfect"):
    """Play ``game`` to its end, choosing the user's moves at ``level``."""
    player = Player(user=user)
    while game.status == Status.IN_PROGRESS:
        cell = engine.best_move(game.board, level, seed=game.move_count)
        game = services.game_play_move(game_id=game.pk, player=player, cell=cell, ply=game.move_count).game
    return game


def won_game(user, side):
    """A game ``user`` won as ``side``: perfect play against the random easy AI.
    The attempts that did not win are deleted, behind the services' back, so
    the statistics are recounted to forget them."""
    for seed in range(50):
        game = play_out(new_game(user, side=side, level="easy", seed=seed), user)
        if game.outcome_for(side) == "won":
            if seed:
                counters.recount()
            return game
        game.delete()
    raise AssertionError("perfect play never beat the easy AI")


def lost_game(user, side):
    """A game ``user`` resigned as ``side`` after their first move (and the AI's)."""
    game = new_game(user, side=side)
    services.game_play_move(
        game_id=game.pk, player=Player(user=user), cell=game.board.legal_moves[0], ply=game.move_count
    )
    return services.game_resign(game_id=game.pk, player=Player(user=user))


def drawn_game(user, side):
    game = play_out(new_game(user, side=side, level="perfect"), user)
    assert game.outcome_for(side) == "drawn"
    return game


def aborted_game(user):
    game = new_game(user)
    services.game_abort(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def game_against(user, other, *, winner_resigns_for=None):
    """A game between two people (no service starts one yet: challenges are to come).
    ``user`` plays X; after a move each, ``other`` resigns if asked to."""
    game = Game.objects.create(x_player=user, o_player=other, seed=1)
    services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    if winner_resigns_for:
        services.game_play_move(game_id=game.pk, player=Player(user=other), cell=0, ply=1)
        services.game_resign(game_id=game.pk, player=Player(user=winner_resigns_for))
    return Game.objects.get(pk=game.pk)


# -- reading the page ------------------------------------------------------------


def rows(response) -> dict[int, str]:
    """The history's rows by game id, in page order."""
    html = response.content.decode()
    parts = re.split(r'<tr class="history-row" data-game="(\d+)">', html)[1:]
    return {int(pk): body.split("</tr>")[0] for pk, body in zip(parts[::2], parts[1::2], strict=True)}


def ids(response) -> list[int]:
    return list(rows(response))


def badge(row: str) -> str:
    return re.search(r'<td class="history-row__result"><span class="badge[^"]*">([^<]+)</span>', row).group(1)


# -- who sees what ------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(HISTORY)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={HISTORY}"


def test_the_history_lists_the_players_games_newest_first_and_no_one_elses(client_logged_in, user, bob):
    first, second, third = new_game(user), lost_game(user, "O"), drawn_game(user, "X")
    new_game(bob)
    game_against(bob, None)

    response = client_logged_in.get(HISTORY)

    assert response.status_code == 200
    assert ids(response) == [third.pk, second.pk, first.pk]


def test_a_game_against_another_person_is_in_both_histories_with_each_ones_result(client, user, bob):
    game = game_against(user, bob, winner_resigns_for=bob)

    client.force_login(user)
    alices = rows(client.get(HISTORY))[game.pk]
    client.force_login(bob)
    bobs = rows(client.get(HISTORY))[game.pk]

    assert badge(alices) == "Won" and ">bob</a>" in alices
    assert badge(bobs) == "Lost" and ">alice</a>" in bobs


def test_a_row_shows_the_board_opponent_variant_level_moves_date_and_links_to_the_game(client_logged_in, user):
    game = drawn_game(user, "O")

    row = rows(client_logged_in.get(HISTORY))[game.pk]

    assert f'href="{game.get_absolute_url()}"' in row
    assert f'aria-label="Board: {game.board}"' in row  # the mini board
    assert ">AI (perfect)</a>" in row
    assert "you played" in row and 'mark--o">O<' in row
    assert "3×3" in row and "Perfect" in row
    assert f">{game.move_count}<" in row and game.move_count == 9
    assert f'datetime="{game.created_at.isoformat()}"' in row
    assert badge(row) == "Drawn"


@pytest.mark.parametrize("side", ["X", "O"])
def test_the_badge_says_the_result_from_the_players_side(client_logged_in, user, side):
    won, lost, drawn = won_game(user, side), lost_game(user, side), drawn_game(user, side)
    aborted, playing = aborted_game(user), new_game(user)

    page = rows(client_logged_in.get(HISTORY))

    assert {pk: badge(row) for pk, row in page.items()} == {
        won.pk: "Won",
        lost.pk: "Lost",
        drawn.pk: "Drawn",
        aborted.pk: "Aborted",
        playing.pk: "In progress",
    }


# -- filters ----------------------------------------------------------------------------


@pytest.fixture
def all_kinds(user, bob):
    """One or two games of every kind, named for what the filters should find."""
    return {
        "won_x": won_game(user, "X"),
        "won_o": won_game(user, "O"),
        "lost_x": lost_game(user, "X"),
        "lost_o": lost_game(user, "O"),
        "drawn_x": drawn_game(user, "X"),
        "drawn_o": drawn_game(user, "O"),
        "aborted": aborted_game(user),
        "playing": new_game(user),
        "four": new_game(user, variant="4x4", level="easy"),
        "human_won": game_against(user, bob, winner_resigns_for=bob),
        "bobs": new_game(bob),
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("result=won", {"won_x", "won_o", "human_won"}),
        ("result=lost", {"lost_x", "lost_o"}),
        ("result=drawn", {"drawn_x", "drawn_o"}),
        ("result=in_progress", {"playing", "four"}),
        ("result=aborted", {"aborted"}),
        ("opponent=human", {"human_won"}),
        ("opponent=ai", {"won_x", "won_o", "lost_x", "lost_o", "drawn_x", "drawn_o", "aborted", "playing", "four"}),
        ("variant=4x4", {"four"}),
        ("level=easy", {"won_x", "won_o", "four"}),
        ("result=won&opponent=ai&level=easy", {"won_x", "won_o"}),
        ("result=in_progress&variant=3x3", {"playing"}),
    ],
)
def test_each_filter_narrows_the_list(client_logged_in, all_kinds, query, expected):
    response = client_logged_in.get(f"{HISTORY}?{query}")

    assert response.status_code == 200
    found = {name for name, game in all_kinds.items() if game.pk in rows(response)}
    assert found == expected
    assert len(rows(response)) == len(expected)


def test_the_form_shows_the_filters_in_use(client_logged_in, user):
    new_game(user)

    html = client_logged_in.get(f"{HISTORY}?result=won&variant=4x4").content.decode()

    assert '<option value="won" selected>Won</option>' in html
    assert re.findall(r'<option value="(won|drawn|lost)"', html) == ["won", "drawn", "lost"]
    assert '<option value="4x4" selected>' in html
    assert "Clear filters" in html


@pytest.mark.parametrize(
    "query",
    [
        "result=bogus",
        "opponent=robot",
        "variant=9x9",
        "level=%3Cscript%3Ealert(1)%3C/script%3E",
        "opponent=AI",
        "result=&variant=&level=&opponent=",
        "page=zzz",
        "page=-3",
        "page=99999",
        "page=1e9",
    ],
)
def test_bad_values_never_break_the_page(client_logged_in, user, query):
    game = new_game(user)

    response = client_logged_in.get(f"{HISTORY}?{query}")

    assert response.status_code == 200
    assert game.pk in rows(response)  # the bad filter is left out, the games still show
    assert "<script>alert" not in response.content.decode()


def test_a_bad_filter_value_is_reported_on_the_form_and_the_good_ones_still_apply(client_logged_in, user):
    three, four = new_game(user), new_game(user, variant="4x4")

    response = client_logged_in.get(f"{HISTORY}?result=bogus&variant=4x4")

    html = response.content.decode()
    assert "Select a valid choice. bogus is not one of the available choices." in html
    assert 'aria-invalid="true"' in html
    assert ids(response) == [four.pk]
    assert three.pk not in rows(response)


# -- pages --------------------------------------------------------------------------------


def test_45_games_make_three_pages_of_20_20_and_5(client_logged_in, user):
    games = [new_game(user, seed=n) for n in range(45)]
    newest_first = [game.pk for game in reversed(games)]

    pages = [ids(client_logged_in.get(f"{HISTORY}?page={n}")) for n in (1, 2, 3)]

    assert [len(page) for page in pages] == [20, 20, 5]
    assert pages[0] + pages[1] + pages[2] == newest_first
    html = client_logged_in.get(f"{HISTORY}?page=2").content.decode()
    assert 'aria-current="page">2<' in html
    assert 'href="?page=1" rel="prev"' in html and 'href="?page=3" rel="next"' in html
    assert "page 2 of 3" in html


def test_page_links_keep_the_filters(client_logged_in, user):
    for n in range(25):
        new_game(user, seed=n, level="easy")

    html = client_logged_in.get(f"{HISTORY}?opponent=ai&level=easy").content.decode()

    assert 'href="?opponent=ai&amp;level=easy&amp;page=2" rel="next"' in html
    second = client_logged_in.get(f"{HISTORY}?opponent=ai&level=easy&page=2")
    assert len(rows(second)) == 5


def test_a_single_page_has_no_page_links(client_logged_in, user):
    new_game(user)

    html = client_logged_in.get(HISTORY).content.decode()

    assert 'class="pagination"' not in html


# -- empty states -----------------------------------------------------------------------


def test_a_player_without_games_is_invited_to_play_one(client_logged_in):
    html = client_logged_in.get(HISTORY).content.decode()

    assert "No games yet — play one" in html
    assert f'href="{reverse("games:new")}"' in html
    assert "history-filters" not in html  # nothing to filter


def test_filters_that_match_nothing_say_so(client_logged_in, user):
    new_game(user)

    html = client_logged_in.get(f"{HISTORY}?result=won").content.decode()

    assert "No games match these filters" in html
    assert "No games yet" not in html
    assert f'href="{HISTORY}"' in html  # the way back to every game


# -- the navigation ----------------------------------------------------------------------


def test_my_games_in_the_menu_leads_to_the_history_and_is_marked_there(client_logged_in, user):
    home = client_logged_in.get(reverse("games:home")).content.decode()
    history = client_logged_in.get(HISTORY).content.decode()

    assert f'<a href="{HISTORY}">My games</a>' in home
    assert f'<a href="{HISTORY}" aria-current="page">My games</a>' in history


def test_the_header_shows_the_record(client_logged_in, user):
    won_game(user, "X")
    lost_game(user, "X")
    lost_game(user, "O")
    new_game(user)

    html = client_logged_in.get(HISTORY).content.decode()

    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert "4 games: 1 won, 0 drawn, 2 lost, 1 in progress." in text


# -- queries do not grow with the games ----------------------------------------------------


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def varied_games(user, bob, count):
    """Games with moves, against the AI and against a person, finished or not."""
    for n in range(count):
        if n % 3 == 0:
            game = new_game(user, seed=n)
            services.game_play_move(game_id=game.pk, player=Player(user=user), cell=0, ply=0)
        elif n % 3 == 1:
            lost_game(user, "O")  # the AI's opening move is stored
        else:
            game_against(user, bob)


@pytest.mark.parametrize("url", [HISTORY, f"{HISTORY}?opponent=ai&page=2", reverse("games:profile", args=["alice"])])
def test_the_pages_make_as_many_queries_for_50_games_as_for_1(client_logged_in, user, bob, url):
    varied_games(user, bob, 1)
    few = count_queries(client_logged_in, url)
    varied_games(user, bob, 49)
    many = count_queries(client_logged_in, url)

    assert many == few


# -- the profile --------------------------------------------------------------------------


def test_the_profile_shows_the_record_and_the_ten_latest_games(client, user, bob):
    won_game(user, "O")
    drawn_game(user, "X")
    lost_game(user, "X")
    games = [new_game(user, seed=n) for n in range(10)]

    html = client.get(reverse("games:profile", args=["alice"])).content.decode()

    record = re.sub(r"\s+", "", re.search(r'<dl class="record".*?</dl>', html, re.S).group(0))
    assert "<dt>Games</dt><dd>13</dd>" in record
    assert "<dt>Won</dt><dd>1</dd><" in record
    assert "<dt>Lost</dt><dd>1</dd><" in record
    assert "<dt>Drawn</dt><dd>1</dd><" in record
    assert re.findall(r"<dt>(Won|Drawn|Lost)</dt>", record) == ["Won", "Drawn", "Lost"]  # W/D/L, as everywhere
    linked = re.findall(r'class="game-row__link" href="/games/(\d+)/"', html)
    assert [int(pk) for pk in linked] == [game.pk for game in reversed(games)]


def test_the_owner_gets_a_link_to_the_full_history_and_others_do_not(client, user, bob):
    new_game(user)
    profile = reverse("games:profile", args=["alice"])

    client.force_login(user)
    assert "All your games" in client.get(profile).content.decode()
    client.force_login(bob)
    assert "All your games" not in client.get(profile).content.decode()
    client.logout()
    assert "All your games" not in client.get(profile).content.decode()


def test_a_visitor_sees_a_finished_game_from_the_profiles_player_side(client, user):
    lost_game(user, "X")

    html = client.get(reverse("games:profile", args=["alice"])).content.decode()

    assert '<span class="badge badge--loss">Lost</span>' in html  # alice lost it, whoever looks
    assert '<span class="badge">O won</span>' not in html
    assert "In progress" not in html


def test_a_profile_without_games_says_so(client, user):
    html = client.get(reverse("games:profile", args=["alice"])).content.decode()

    assert "No games yet." in html
    assert re.search(r"<dt>Games</dt>\s*<dd>0</dd>", html)


def test_each_game_says_how_it_ended(client_logged_in, user, bob):
    human_game(user, bob, X_WINS)
    human_game(user, bob, DRAW)
    human_game(user, bob, [4, 0], resign=user)
    human_game(user, bob, [5, 0, 6, 1, 7, 2, 8, 3], variant="4x4")  # X's row 2 on 4x4
    html = client_logged_in.get(reverse("games:history")).content.decode()
    endings = re.findall(r'<span class="history-row__ending muted">([^<]+)</span>', html)
    assert endings == ["four in a row", "resigned", "board full", "three in a row"]  # newest first
