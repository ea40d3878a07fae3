"""The stats page: the whole site's figures, from the counters games.stats keeps."""

import re

import pytest
from django.urls import reverse

from games.stats.models import DailyStats
from tests.factories import DRAW, X_WINS, ai_game, human_game

pytestmark = pytest.mark.django_db

STATS = reverse("games:stats")


def _text(html: str) -> str:
    """The page's words, tags dropped and spaces collapsed, as a reader meets them."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_anyone_sees_how_many_games_were_played(client, user, bob):
    human_game(user, bob, X_WINS)
    human_game(bob, user, DRAW)
    ai_game(user, level="perfect")
    response = client.get(STATS)
    assert response.status_code == 200
    text = _text(response.content.decode())
    assert "Games played 3" in text
    assert "The perfect AI has lost 0 of 1 game" in text


def test_the_perfect_ai_never_loses_however_it_is_played(client, user):
    for first in (0, 4, 8):
        ai_game(user, level="perfect", first=first)
    ai_game(user, level="perfect", resign=True)
    ai_game(guest_key="g" * 32, level="perfect")  # a guest's game counts in the total
    text = _text(client.get(STATS).content.decode())
    assert "The perfect AI has lost 0 of 5 games" in text


def test_results_by_opponent_and_how_games_ended(client, user, bob):
    human_game(user, bob, X_WINS)  # X won, by a line
    human_game(user, bob, DRAW)  # a draw on a full board
    human_game(user, bob, [4, 0], resign=user)  # O won: X resigned
    ai_game(user, level="easy", resign=True)  # O (the AI) won
    html = client.get(STATS).content.decode()
    text = _text(html)
    # People: X won 1, draws 1, O won 1, games 3; the easy AI: O won 1 of 1.
    assert "Opponent X won Draw O won Games People 1 1 1 3" in text  # in the order of W/D/L for X
    assert "AI, easy 0 0 1 1" in text
    assert "Line 1" in text and "Full board 1" in text and "Resignation 2" in text and "Timeout 0" in text
    # Games by board and opponent: 3x3, three with people, one against the easy AI.
    assert "3x3 3 1 0 0 0 4" in text


def test_average_length_is_moves_per_game(client, user, bob):
    human_game(user, bob, X_WINS)  # 5 moves
    human_game(user, bob, DRAW)  # 9 moves
    assert "Average length 7.0 moves" in _text(client.get(STATS).content.decode())


def test_games_per_day_is_a_chart_with_a_table_alternative(client, user, bob):
    human_game(user, bob, X_WINS)
    human_game(user, bob, DRAW)
    day = DailyStats.objects.get(result="draw").day
    html = client.get(STATS).content.decode()
    chart = re.search(r'<svg class="chart chart--bars".*?</svg>', html, re.S).group(0)
    assert 'role="img"' in chart and "<title" in chart and "<desc" in chart
    assert chart.count('class="chart__bar"') == 1  # one day with games
    assert f"{day.isoformat()}: 2" in chart
    assert f'<time datetime="{day.isoformat()}">' in html
    assert "Games per day as a table" in html


def test_the_first_move_heat_map_shows_each_cells_share_and_results(client, user, bob):
    human_game(user, bob, X_WINS)  # opened on 0, X won
    human_game(user, bob, DRAW)  # opened on 4, a draw
    human_game(user, bob, [4, 0], resign=bob)  # opened on 4, X won
    html = client.get(STATS).content.decode()
    text = _text(html)
    assert "First moves on 3x3" in text
    # The accessible table: the centre opened 2 of 3 games, half won by X, half drawn.
    assert "Row 2, column 2 2 67% 50% 50% 0%" in text
    assert "Row 1, column 1 1 33% 100% 0% 0%" in text
    assert html.count('class="heatmap__cell"') == 9
    assert 'fill-opacity="1.0"' in html  # the most played cell is the darkest


def test_the_heat_map_switches_board(client, user, bob):
    human_game(user, bob, [5, 0], resign=bob, variant="4x4")
    html = client.get(STATS, {"variant": "4x4"}).content.decode()
    assert "First moves on 4x4" in html
    assert html.count('class="heatmap__cell"') == 16
    assert "Row 2, column 2 1 100%" in _text(html)
    assert 'aria-current="page">4x4<' in html


@pytest.mark.parametrize("query", ["?variant=9x9", "?variant=", "?variant=%00", "?variant=3x3&variant=x", "?page=-1"])
def test_bad_query_parameters_show_the_3x3_board(client, query):
    response = client.get(STATS + query)
    assert response.status_code == 200
    assert "First moves on 3x3" in response.content.decode()


def test_an_empty_site_says_so(client):
    text = _text(client.get(STATS).content.decode())
    assert "The perfect AI has lost 0 of 0 games" in text
    assert "No games finished yet." in text


def _many_games(user, bob, n):
    for i in range(n):
        human_game(user, bob, X_WINS if i % 2 else DRAW, variant="3x3")


@pytest.mark.parametrize("variant", ["3x3", "5x5"])
def test_the_page_costs_the_same_queries_with_few_or_many_games(client, user, bob, django_assert_num_queries, variant):
    human_game(user, bob, X_WINS)
    with django_assert_num_queries(3):  # the sums (the perfect AI's losses among them), the days, the first moves
        client.get(STATS, {"variant": variant})
    _many_games(user, bob, 12)
    ai_game(user, level="hard", resign=True)
    ai_game(user, level="medium", variant="4x4", resign=True)
    DailyStats.objects.filter(pk=DailyStats.objects.first().pk).update(day="2020-01-01")
    with django_assert_num_queries(3):
        response = client.get(STATS, {"variant": variant})
    text = _text(response.content.decode())
    assert "Games played 15" in text and f"First moves on {variant}" in text  # the page those queries drew


def test_the_ais_losses_count_the_side_it_played_guests_included(client):
    """Its losses cannot be provoked through play (it never loses), so the
    counter rows are written directly: X won while the AI was O, O won while it
    was X, and a draw and a human game that are not its losses."""
    from datetime import date

    for ai_side, result, opponent, games in (
        ("O", "x_won", "perfect", 2),
        ("X", "o_won", "perfect", 1),
        ("X", "x_won", "perfect", 5),
        ("O", "draw", "perfect", 4),
        ("", "x_won", "human", 7),
    ):
        DailyStats.objects.create(
            day=date(2026, 11, 1),
            variant="3x3",
            opponent=opponent,
            ai_side=ai_side,
            result=result,
            termination="line",
            games=games,
            moves=games * 7,
        )
    text = client.get(reverse("games:stats")).content.decode()
    assert "The perfect AI has lost <strong>3</strong> of <strong>12</strong> games" in text
