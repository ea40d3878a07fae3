"""The puzzle pages as a learner meets them: today's puzzle on the home page,
each board's puzzles, and solving one move by move without JavaScript."""

import re
from datetime import date, timedelta
from html import unescape

import pytest
from django.urls import reverse

from games.learn import puzzle_selectors
from games.learn.models import Puzzle
from tests.factories import human_game
from tests.web.test_security import INLINE

pytestmark = pytest.mark.django_db

FORK = {
    "position": "OO..X...X",
    "variant": "3x3",
    "side": "X",
    "cell": 2,
    "win_in": 3,
    "solution": "2,5,6",
    "theme": "fork",
}
O_FORK = {
    "position": "OXX.X..O.",
    "variant": "3x3",
    "side": "O",
    "cell": 6,
    "win_in": 3,
    "solution": "6,3,8",
    "theme": "fork",
}
FIVE = {
    "position": ".X......O",
    "variant": "3x3",
    "side": "X",
    "cell": 2,
    "win_in": 5,
    "solution": "2,0,4,3,6",
    "theme": "win_in_three",
}
FORK_4X4 = {
    "position": ".O...XX..OOXO..X",
    "variant": "4x4",
    "side": "X",
    "cell": 7,
    "win_in": 3,
    "solution": "7,3,4",
    "theme": "fork",
}


@pytest.fixture
def fork():
    return Puzzle.objects.create(**FORK)


@pytest.fixture
def puzzles(fork):
    return [fork, *(Puzzle.objects.create(**data) for data in (O_FORK, FIVE, FORK_4X4))]


def text(html: str) -> str:
    """What a reader sees: the tags gone, the spaces squeezed."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def board_cells(html: str) -> list[dict]:
    """The puzzle board's cells: the mark, whether it can be played, its label."""
    cells = []
    for match in re.finditer(
        r'<button type="submit" name="cell" value="(\d+)"\s+class="([^"]*)"\s+aria-label="([^"]*)"\s*(disabled)?>', html
    ):
        cells.append({"cell": int(match[1]), "class": match[2], "label": match[3], "playable": not match[4]})
    return cells  # fmt: skip


def panel(html: str) -> str:
    return text(html[html.index('id="puzzle"') :])


# -- the home page and today's puzzle -------------------------------------------------------


def test_without_puzzles_the_home_page_shows_nothing_extra(client):
    html = client.get("/").content.decode()

    assert "daily-puzzle" not in html and "puzzle" not in text(html).lower()


def test_the_home_page_offers_todays_puzzle(client, puzzles):
    daily = puzzle_selectors.daily_puzzle()

    html = client.get("/").content.decode()

    assert "Today's puzzle" in text(html)
    assert f"{daily.side} to play and {daily.task}" in text(html)
    assert "win in" not in text(html)  # no digit beside numbered cells
    assert f'<a class="button button--primary" href="/puzzles/{daily.pk}/">Solve today\'s puzzle</a>' in html


def test_the_daily_puzzle_is_the_same_all_day_and_changes_with_the_date(puzzles):
    day = date(2026, 3, 1)
    assert puzzle_selectors.daily_puzzle(day) == puzzle_selectors.daily_puzzle(day)
    month = {puzzle_selectors.daily_puzzle(day + timedelta(days=n)).pk for n in range(31)}
    assert month == {p.pk for p in puzzles}  # over a month, every puzzle has its day


def test_there_is_no_daily_puzzle_without_puzzles():
    assert puzzle_selectors.daily_puzzle() is None


# -- the lists ------------------------------------------------------------------------------


def test_the_puzzles_page_counts_each_boards_puzzles(client, puzzles):
    page = text(client.get("/puzzles/").content.decode())

    assert "3×3, three in a row 3 puzzles" in page
    assert "4×4, four in a row 1 puzzle " in page
    assert "5×5, four in a row 0 puzzles" in page
    assert "Today's puzzle" in page


def test_without_puzzles_the_puzzles_page_says_where_they_come_from(client):
    page = text(client.get("/puzzles/").content.decode())

    assert "No puzzles yet" in page and "Play a game" in page


def test_a_boards_page_lists_its_puzzles_fastest_wins_first(client, puzzles):
    html = client.get("/puzzles/3x3/").content.decode()

    titles = re.findall(
        r'<span class="puzzle-card-link__title">(.*?)</span>\s*<span class="muted">Puzzle (\d+)', html, re.S
    )
    assert [(text(title).strip(), int(pk)) for title, pk in titles] == [
        ("X to play and win with your second move", puzzles[0].pk),
        ("O to play and win with your second move", puzzles[1].pk),
        ("X to play and win with your third move", puzzles[2].pk),
    ]  # fmt: skip
    assert 'aria-current="page"' in html and "4x4" not in text(html.split('class="puzzle-list"')[1])


def test_a_board_without_puzzles_says_so(client):
    assert "No 5×5, four in a row puzzles yet" in text(client.get("/puzzles/5x5/").content.decode())


def test_an_unknown_board_or_puzzle_is_the_sites_404(client):
    for url in ("/puzzles/6x6/", "/puzzles/999999/"):
        response = client.get(url)
        assert response.status_code == 404
        assert "This square is empty" in response.content.decode()


# -- solving ---------------------------------------------------------------------------------


def test_a_puzzle_starts_with_its_question_and_a_board_to_play(client, fork):
    html = client.get(fork.get_absolute_url()).content.decode()

    assert "X to play and win with your second move" in text(html)
    assert "Exactly one move wins, with your second move, whatever O replies in between" in text(html)
    cells = board_cells(html)
    assert [c["cell"] for c in cells if c["playable"]] == [2, 3, 5, 6, 7]
    assert cells[2]["label"] == "Cell 2, row 1, column 3, empty"
    assert cells[0]["label"] == "Cell 0, row 1, column 1, O"


def test_the_brief_counts_the_learners_moves_in_words_not_digits_that_read_as_cells(client, fork):
    slow = Puzzle.objects.create(**FIVE)

    brief = re.search(r'<p class="puzzle-brief">(.*?)</p>', client.get(fork.get_absolute_url()).content.decode(), re.S)
    assert " ".join(brief.group(1).split()) == (
        "Exactly one move wins, with your second move, whatever O replies in between: it makes two threats "
        "at once, and O can block only one. O defends as well as it can."
    )
    assert "win with your third move" in text(client.get(slow.get_absolute_url()).content.decode())


def test_solving_a_puzzle_move_by_move(client, fork):
    url = fork.get_absolute_url()

    first = client.get(url, {"cell": 2}).content.decode()

    assert "Right so far: your move X" in panel(first)
    assert "X cell 2: That wins: O's best reply is cell 5. Your move." in panel(first)
    cells = board_cells(first)
    assert (cells[2]["class"], cells[5]["class"]) == ("cell cell--x", "cell cell--o cell--last")
    assert '<input type="hidden" name="played" value="2">' in first
    assert "The solution" not in panel(first)  # not before the end

    last = client.get(url, {"played": "2", "cell": 6}).content.decode()

    assert "Solved! solved" in panel(last)
    assert "X cell 6: That wins: three in a row. Solved!" in panel(last)
    assert [c["cell"] for c in board_cells(last) if "cell--win" in c["class"]] == [2, 4, 6]
    assert not any(c["playable"] for c in board_cells(last))
    assert (
        "The solution Best play from both sides, from the puzzle's position: "
        "X cell 2 (row 1, column 3) : the only winning move "
        "O cell 5 (row 2, column 3) : O's best defence "
        "X cell 6 (row 3, column 1) : X wins"
    ) in panel(last)


def test_the_address_holds_the_attempt_so_far(client, fork):
    html = client.get(fork.get_absolute_url(), {"played": "2,6"}).content.decode()

    assert "Solved!" in panel(html)
    assert 'data-url="/puzzles/%d/?played=2,6"' % fork.pk in html


def test_a_wrong_move_is_explained_and_the_winning_cell_shown(client, fork):
    html = client.get(fork.get_absolute_url(), {"cell": 7}).content.decode()

    assert "Not solved missed" in panel(html)
    assert "blunder X cell 7: That loses: O wins next move. The only winning move was cell 2." in panel(html)
    cells = board_cells(html)
    assert cells[2]["label"] == "Cell 2, row 1, column 3, empty: the winning move"
    assert cells[7]["label"] == "Cell 7, row 3, column 2, empty: your move, which loses"
    assert "puzzle-miss" in cells[7]["class"]
    assert "puzzle-answer" in cells[2]["class"] and "wins" in html.split('value="2"')[1].split("</button>")[0]
    assert "The solution" in panel(html) and "Next puzzle" not in panel(html)  # the board's only puzzle


def test_a_move_that_lets_the_opponent_draw_is_a_mistake(client):
    puzzle = Puzzle.objects.create(**FIVE)

    html = client.get(puzzle.get_absolute_url(), {"cell": 4}).content.decode()

    assert "mistake X cell 4: That lets O draw: the only winning move was cell 2." in panel(html)
    assert board_cells(html)[4]["label"] == "Cell 4, row 2, column 2, empty: your move, which lets O draw"


def test_next_puzzle_goes_on_through_the_board(client, puzzles):
    html = client.get(puzzles[0].get_absolute_url(), {"played": "2,6"}).content.decode()

    assert f'href="/puzzles/{puzzles[1].pk}/">Next puzzle</a>' in html


def test_showing_the_solution_ends_the_attempt(client, fork):
    html = client.get(fork.get_absolute_url(), {"solution": "1"}).content.decode()

    assert "The solution is below" in panel(html)
    assert "X cell 2 (row 1, column 3) : the only winning move" in panel(html)
    assert not any(c["playable"] for c in board_cells(html))
    assert board_cells(html)[2]["label"].endswith(": the winning move")
    assert f'data-url="/puzzles/{fork.pk}/?solution=1"' in html  # what the address bar shows with JavaScript
    html = client.get(fork.get_absolute_url(), {"played": "2", "solution": "1"}).content.decode()
    assert f'data-url="/puzzles/{fork.pk}/?played=2&amp;solution=1"' in html


@pytest.mark.parametrize(
    "query, why",
    [
        ({"played": "abc"}, "'abc' is not a cell"),
        ({"cell": "\u0662"}, "'\u0662' is not a cell"),  # an Arabic-Indic two: ASCII digits only
        ({"played": "0"}, 'cell 0 is taken in "OO..X...X"'),
        ({"cell": "42"}, "42 is not a cell of the 3x3 board (0 to 8)"),
        ({"played": "7", "cell": "2"}, "the puzzle was over after move 1; cell 2 cannot follow"),
        ({"played": ",".join(["2"] * 20)}, "there are more moves than the board has room for"),
    ],
)
def test_moves_in_the_address_that_cannot_be_an_answer_get_a_message_and_the_start(client, fork, query, why):
    response = client.get(fork.get_absolute_url(), query)

    assert response.status_code == 400
    html = response.content.decode()
    assert f"Those moves are not an answer to this puzzle: {why}. Here it is from the start." in text(html)
    assert [c["cell"] for c in board_cells(html) if c["playable"]] == [2, 3, 5, 6, 7]


def test_an_o_puzzle(client):
    puzzle = Puzzle.objects.create(**O_FORK)

    html = client.get(puzzle.get_absolute_url(), {"cell": 6}).content.decode()

    assert "O cell 6: That wins: X's best reply is cell 3. Your move." in panel(html)


def test_a_4x4_puzzle(client):
    puzzle = Puzzle.objects.create(**FORK_4X4)

    html = client.get(puzzle.get_absolute_url(), {"played": "7", "cell": "4"}).content.decode()

    assert len(board_cells(html)) == 16
    assert "X cell 4: That wins: four in a row. Solved!" in panel(html)


def test_the_panel_alone_for_javascript(client, fork):
    html = client.get(fork.get_absolute_url(), {"cell": 2}, HTTP_X_PARTIAL="1").content.decode()

    assert html.lstrip().startswith('<div class="puzzle" id="puzzle"') and "<html" not in html
    assert "That wins: O&#x27;s best reply is cell 5. Your move." in html


def test_the_game_it_came_from_is_linked_at_the_position(client, user, bob):
    game = human_game(user, bob, cells=[4, 0, 8, 1, 2, 3, 5])
    puzzle = Puzzle.objects.create(**FORK, game=game)

    html = client.get(puzzle.get_absolute_url()).content.decode()

    assert f'Found in <a href="/games/{game.pk}/?ply=4">game {game.pk}</a>, before move 5.' in html
    assert str(game.board_at(4)) == puzzle.position
    assert "Found in" not in text(client.get(Puzzle.objects.create(**O_FORK).get_absolute_url()).content.decode())


def test_the_puzzle_pages_take_no_post(client, fork):
    for url in ("/puzzles/", "/puzzles/3x3/", fork.get_absolute_url()):
        assert client.post(url, {"cell": 2}).status_code == 405


def test_no_puzzle_page_needs_inline_script_or_style(client, puzzles):
    urls = ["/", "/puzzles/", "/puzzles/3x3/", puzzles[0].get_absolute_url(), puzzles[0].get_absolute_url() + "?cell=2",
            puzzles[0].get_absolute_url() + "?cell=7", puzzles[3].get_absolute_url()]  # fmt: skip
    for url in urls:
        html = client.get(url).content.decode()
        for pattern, what in INLINE:
            assert pattern.search(html) is None, f"{url} has {what}"
        assert "/static/games/puzzles.css" in html


def test_url_names():
    assert reverse("games:puzzles") == "/puzzles/"
    assert reverse("games:puzzle_board", args=["4x4"]) == "/puzzles/4x4/"
    assert reverse("games:puzzle", args=[3]) == "/puzzles/3/"
