"""The leaderboard, a tab per board, and a player's ratings (one per board),
streaks and records on their page."""

import re

import pytest
from django.urls import reverse

from games.stats.models import BoardRating
from tests.factories import DRAW, X_WINS, ai_game, human_game, rating_of

pytestmark = pytest.mark.django_db

LEADERBOARD = reverse("games:leaderboard")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _rows(html: str) -> list[str]:
    body = re.search(r'<table class="table leaderboard__table".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    return [_text(row).strip() for row in re.findall(r"<tr.*?</tr>", body, re.S)]


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name, password="x") for name in ("ann", "ben", "cat", "dan")}


def test_players_are_ranked_by_rating_with_their_record(client, people):
    ann, ben, cat = people["ann"], people["ben"], people["cat"]
    human_game(ann, ben, X_WINS)  # ann beats ben
    human_game(ann, cat, X_WINS)  # ann beats cat
    human_game(ben, cat, DRAW)
    ai_game(people["dan"], level="easy", resign=True)  # no rated game: not on the board
    html = client.get(LEADERBOARD).content.decode()
    rows = _rows(html)
    ratings = {name: rating_of(people[name]) for name in ("ann", "ben", "cat")}
    assert rows[0] == f"1 ann {ratings['ann']} provisional 2 2/0/0"
    assert [row.split()[1] for row in rows] == sorted(["ann", "ben", "cat"], key=lambda n: (-ratings[n], n))
    assert ratings["ann"] > 1200 > ratings["ben"] and ratings["ann"] > ratings["cat"]  # she beat both
    assert "dan" not in _text(html)
    assert '<a href="/players/ann/">ann</a>' in html


def test_the_provisional_badge_goes_after_ten_rated_games(client, people):
    ann, ben = people["ann"], people["ben"]
    for i in range(10):
        human_game(ann, ben, X_WINS if i % 2 else DRAW)
    BoardRating.objects.filter(user=ben).update(rated_games=9)  # one short of established
    rows = _rows(client.get(LEADERBOARD).content.decode())
    assert "provisional" not in next(row for row in rows if " ann " in row)
    assert "provisional" in next(row for row in rows if " ben " in row)


def test_an_empty_leaderboard_says_how_to_get_on_it(client):
    assert "No rated games on 3x3 yet" in client.get(LEADERBOARD).content.decode()


def test_each_board_has_its_own_leaderboard_from_its_own_games(client, people):
    ann, ben, cat = people["ann"], people["ben"], people["cat"]
    human_game(ann, ben, X_WINS)  # 3x3: ann beats ben
    human_game(cat, ann, [0, 4, 1, 5, 2, 6, 3], variant="4x4")  # 4x4: cat beats ann
    three = _rows(client.get(LEADERBOARD).content.decode())
    four = _rows(client.get(LEADERBOARD, {"board": "4x4"}).content.decode())
    assert [row.split()[1] for row in three] == ["ann", "ben"]
    assert [row.split()[1] for row in four] == ["cat", "ann"]
    assert (rating_of(ann), rating_of(ann, "4x4")) == (1220, 1180)  # a win here, a loss there
    html = client.get(LEADERBOARD, {"board": "5x5"}).content.decode()
    assert "No rated games on 5x5 yet" in html
    assert '<a class="segmented__option" href="/leaderboard/?board=5x5" aria-current="page">' in html
    # A board it does not know shows 3x3's.
    assert _rows(client.get(LEADERBOARD, {"board": "9x9"}).content.decode()) == three


def test_fifty_players_a_page_and_the_rank_goes_on(client, django_user_model):
    BoardRating.objects.bulk_create(
        BoardRating(
            user=django_user_model.objects.create_user(f"p{i:03}"), variant="3x3", rating=2000 - i, rated_games=10
        )
        for i in range(60)
    )
    first = _rows(client.get(LEADERBOARD).content.decode())
    assert len(first) == 50 and first[0].startswith("1 p000 2000")
    second = _rows(client.get(LEADERBOARD, {"page": 2}).content.decode())
    assert len(second) == 10 and second[0].startswith("51 p050 1950")


@pytest.mark.parametrize("page", ["0", "-1", "99", "x", "%00", ""])
def test_a_bad_page_shows_a_page_not_an_error(client, people, page):
    human_game(people["ann"], people["ben"], X_WINS)
    response = client.get(LEADERBOARD, {"page": page})
    assert response.status_code == 200
    rows = _rows(response.content.decode())
    assert [row.split()[:2] for row in rows] == [["1", "ann"], ["2", "ben"]]


def test_the_leaderboard_costs_the_same_queries_with_few_or_many_players(
    client, django_user_model, django_assert_num_queries
):
    def add(n, start):
        BoardRating.objects.bulk_create(
            BoardRating(
                user=django_user_model.objects.create_user(f"q{start + i}"),
                variant="3x3",
                rating=1500 - i,
                rated_games=i % 20 + 1,
            )
            for i in range(n)
        )

    add(1, 0)
    with django_assert_num_queries(2):  # the count, the page with its players
        client.get(LEADERBOARD)
    add(120, 1)
    with django_assert_num_queries(2):
        response = client.get(LEADERBOARD, {"page": 2})
    rows = _rows(response.content.decode())
    assert len(rows) == 50 and rows[0].startswith("51 ")


def test_the_nav_links_the_leaderboard_and_the_stats(client):
    html = client.get(reverse("games:home")).content.decode()
    assert f'href="{LEADERBOARD}"' in html and f'href="{reverse("games:stats")}"' in html


# -- a player's page -------------------------------------------------------------------


def test_a_players_page_shows_rating_streaks_and_records(client, people):
    ann, ben = people["ann"], people["ben"]
    human_game(ann, ben, X_WINS)
    human_game(ann, ben, X_WINS)
    human_game(ben, ann, DRAW)
    ai_game(ann, level="easy", resign=True)  # a loss
    html = client.get(reverse("games:profile", args=["ann"])).content.decode()
    text = _text(html)
    assert f"Ratings 3x3 {rating_of(ann)} provisional 4x4 – 5x5 –" in text
    assert "Rated games 3 Won 2 Drawn 1 Lost 0" in text
    assert "Current streak 1 lost" in text and "Best streak 2 won" in text
    assert "3x3 People 3 2 1 0" in text
    assert "3x3 AI, easy 1 0 0 1" in text
    chart = re.search(r'<svg class="chart chart--line".*?</svg>', html, re.S).group(0)
    assert 'role="img"' in chart and "rating on 3x3 over their last 3 rated games there" in chart
    assert chart.count('class="chart__dot"') == 4  # the start and one point per rated game
    assert "Rating changes on 3x3 as a table" in html


def test_a_player_without_rated_games_is_at_the_start_rating(client, people):
    ai_game(people["ann"], level="easy", resign=True)
    text = _text(client.get(reverse("games:profile", args=["ann"])).content.decode())
    assert "Ratings 3x3 – 4x4 – 5x5 –" in text
    assert "No rated games yet" in text
    assert "3x3 AI, easy 1 0 0 1" in text


@pytest.mark.parametrize("games", [1, 50])
def test_a_players_page_costs_the_same_queries_whatever_their_games(client, people, games, django_assert_num_queries):
    ann, ben = people["ann"], people["ben"]
    for i in range(games):
        human_game(ann, ben, X_WINS if i % 3 else DRAW)
    ai_game(ann, level="easy", resign=True)
    # The player, the record (its results, then the unfinished games of each
    # side), recent games (each side's newest, then their moves), head to head,
    # the stats, the ratings on each board, the records by opponent, the
    # rating changes on the board played most.
    with django_assert_num_queries(12):
        response = client.get(reverse("games:profile", args=["ann"]))
    assert response.status_code == 200
    assert f"Rated games {games} " in _text(response.content.decode())
