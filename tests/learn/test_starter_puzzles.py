"""The starter set on a fresh site: made by ``manage.py make_puzzles --starter``
once, then met on the home page, listed by theme, and solved through the
pages as a learner without JavaScript solves it (the board is a GET form)."""

import re
from collections import Counter
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.learn import puzzle_services
from games.learn.models import Puzzle
from tests.api.conftest import assert_error, client_for
from tests.factories import human_game
from tests.learn.test_puzzle_pages import board_cells, panel, text

pytestmark = pytest.mark.django_db

THEMES = {"win_now", "block", "fork", "save_draw", "win_in_three"}
# 4x4: X's cell 7 threatens row 2 and column 4 at once (tests/learn/test_make_puzzles.py).
FORK_GAME_4X4 = [5, 1, 6, 9, 11, 10, 15, 12, 7, 0, 3]


def make_puzzles(*args) -> str:
    out = StringIO()
    call_command("make_puzzles", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def starter_set():
    puzzle_services.puzzles_make_starter()
    return Puzzle.objects.all()


def first(variant: str, theme: str) -> Puzzle:
    return Puzzle.objects.filter(variant=variant, theme=theme).order_by("id").first()


def stored() -> list[tuple]:
    return list(Puzzle.objects.order_by("id").values_list())


# -- the command ----------------------------------------------------------------------------


def test_the_starter_command_gives_every_board_thirty_puzzles_of_every_theme_once():
    output = make_puzzles("--starter")

    assert output.startswith("Made the starter set: ")
    for variant in ("3x3", "4x4", "5x5"):
        puzzles = Puzzle.objects.filter(variant=variant)
        assert puzzles.count() >= 30, variant
        assert set(Counter(puzzles.values_list("theme", flat=True))) == THEMES, variant
        assert set(puzzles.values_list("origin", flat=True)) == {"starter"}
    before = stored()

    assert make_puzzles("--starter") == "The starter set is made already: nothing to do.\n"
    assert stored() == before


def test_a_starter_puzzle_staff_deleted_stays_deleted(starter_set):
    gone = first("3x3", "block")
    gone.delete()

    make_puzzles("--starter")

    assert not Puzzle.objects.filter(position=gone.position).exists()


def test_the_starter_option_takes_no_other():
    with pytest.raises(CommandError, match="^--starter makes the whole starter set: it takes no other option$"):
        make_puzzles("--starter", "--variant", "3x3")
    assert not Puzzle.objects.exists()


def test_played_games_still_add_their_puzzles_beside_the_starter_set(starter_set, user, bob):
    game = human_game(user, bob, cells=FORK_GAME_4X4, variant="4x4")

    output = make_puzzles()

    puzzle = Puzzle.objects.get(game=game)
    assert (puzzle.position, puzzle.theme, puzzle.origin) == (".O...XX..OOXO..X", "fork", "game")
    assert output.startswith("Made 1 new puzzle (4x4: 1)")


# -- meeting the puzzles --------------------------------------------------------------------


def test_a_fresh_site_shows_todays_puzzle_on_the_home_page(client, starter_set):
    page = text(client.get("/").content.decode())

    assert "Today's puzzle" in page
    assert re.search(
        r"[XO] to play and (win now|stop [XO]'s win|save the draw|win with your (second|third) move)", page
    )
    assert not re.search(r"win in \d", page)


def test_the_puzzles_page_lists_the_themes_with_their_boards(client, starter_set):
    html = client.get("/puzzles/").content.decode()

    for label in ("Win now", "Block", "Make a fork", "Save a draw", "Win in three"):
        assert f"{label} " in text(html)
    for theme in THEMES:
        for variant in ("3x3", "4x4", "5x5"):
            assert f'href="/puzzles/{variant}/?theme={theme}"' in html
    assert "No puzzles yet" not in text(html)


def test_a_boards_page_shows_one_theme_when_asked(client, starter_set):
    html = client.get("/puzzles/5x5/", {"theme": "save_draw"}).content.decode()

    titles = re.findall(r'<span class="puzzle-card-link__title">(.*?)</span>\s*<span', html, re.S)
    count = Puzzle.objects.filter(variant="5x5", theme="save_draw").count()
    assert len(titles) == count and count > 0
    assert {text(title).strip()[1:] for title in titles} == {" to play and save the draw"}
    assert '<a class="puzzle-boards__link" href="/puzzles/5x5/?theme=save_draw" aria-current="page">' in html
    assert "Save a draw: 5×5, four in a row puzzles" in text(html)


def test_an_unknown_theme_is_said_and_the_whole_board_shown(client, starter_set):
    before = stored()

    response = client.get("/puzzles/3x3/", {"theme": "sacrifice"})

    assert response.status_code == 400
    page = text(response.content.decode())
    assert "There is no puzzle theme 'sacrifice': the themes are \"win_now\" (win now), " in page
    assert len(re.findall(r'class="puzzle-card-link"', response.content.decode())) == min(
        24, Puzzle.objects.filter(variant="3x3").count()
    )
    assert stored() == before


# -- solving them through the pages ----------------------------------------------------------


def test_a_block_is_solved_by_the_one_move_that_does_not_lose(client, starter_set):
    puzzle = first("3x3", "block")
    assert text(client.get(puzzle.get_absolute_url()).content.decode()).count(f"stop {puzzle.opponent}'s win") >= 1

    html = client.get(puzzle.get_absolute_url(), {"cell": puzzle.cell}).content.decode()

    reply = puzzle.solution_cells[1]
    assert "Solved!" in panel(html)
    assert (
        f"{puzzle.side} cell {puzzle.cell}: That keeps the draw: the only move that does not lose. "
        f"{puzzle.opponent}'s best reply is cell {reply}. Solved!"
    ) in panel(html)
    cells = board_cells(html)
    assert cells[reply]["class"].startswith(f"cell cell--{puzzle.opponent.lower()}")
    assert not any(cell["playable"] for cell in cells)
    solution = text(html.split('id="solution-title"')[1])
    assert "the only move that does not lose" in solution
    assert f"{puzzle.opponent}'s strongest reply" in solution and "defence" not in solution
    assert "From the starter set, made from exact solutions." in text(html)
    assert "best play from both sides ends in a draw" in panel(html)


def test_any_other_move_in_a_block_loses_and_names_the_answer(client, starter_set):
    puzzle = first("3x3", "block")
    wrong = next(cell for cell, mark in enumerate(puzzle.position) if mark == "." and cell != puzzle.cell)

    html = client.get(puzzle.get_absolute_url(), {"cell": wrong}).content.decode()

    assert "Not solved" in panel(html)
    assert (
        f"That loses: {puzzle.opponent} wins next move. The only move that does not lose was cell {puzzle.cell}."
    ) in panel(html)
    assert board_cells(html)[puzzle.cell]["label"].endswith(": the move that does not lose")


@pytest.mark.parametrize("variant", ["3x3", "5x5"])
def test_a_save_a_draw_is_solved_by_its_one_move(client, starter_set, variant):
    puzzle = first(variant, "save_draw")

    html = client.get(puzzle.get_absolute_url(), {"cell": puzzle.cell}).content.decode()

    assert "That keeps the draw: the only move that does not lose." in panel(html)
    assert "Solved!" in panel(html)


def test_a_save_a_draw_with_javascript_swaps_in_the_panel(client, starter_set):
    puzzle = first("4x4", "save_draw")

    html = client.get(puzzle.get_absolute_url(), {"cell": puzzle.cell}, HTTP_X_PARTIAL="1").content.decode()

    assert html.lstrip().startswith('<div class="puzzle" id="puzzle"') and "<html" not in html
    assert "Solved!" in text(html)


def test_a_fork_is_solved_in_two_moves_of_the_learners(client, starter_set):
    puzzle = first("4x4", "fork")
    url = puzzle.get_absolute_url()

    after_fork = client.get(url, {"cell": puzzle.cell}).content.decode()
    assert f"That wins: {puzzle.opponent}'s best reply is cell {puzzle.solution_cells[1]}. Your move." in panel(
        after_fork
    )
    won = client.get(url, {"played": puzzle.cell, "cell": puzzle.solution_cells[2]}).content.decode()

    assert "That wins: four in a row. Solved!" in panel(won)


def test_win_now_is_solved_at_once(client, starter_set):
    puzzle = first("5x5", "win_now")

    html = client.get(puzzle.get_absolute_url(), {"cell": puzzle.cell}).content.decode()

    assert f"{puzzle.side} to play and win now" in text(html)
    assert "That wins: four in a row. Solved!" in panel(html)


@pytest.mark.parametrize("query", [{"cell": "abc"}, {"cell": "99"}, {"played": "1,2,3,4,5,6,7,8,9,10,11,12,13,14"}])
def test_bad_moves_are_refused_saying_why_and_change_nothing(client, starter_set, query):
    puzzle = first("3x3", "save_draw")
    before = stored()

    response = client.get(puzzle.get_absolute_url(), query)

    assert response.status_code == 400
    assert "Those moves are not an answer to this puzzle: " in text(response.content.decode())
    assert "Traceback" not in response.content.decode()
    assert stored() == before


def test_the_admin_filters_puzzles_by_theme(client, starter_set, django_user_model, password):
    client.force_login(django_user_model.objects.create_superuser("root", password=password))

    listing = client.get("/admin/games/puzzle/", {"theme__exact": "fork"}).content.decode()

    forks = Puzzle.objects.filter(theme="fork")
    assert f"{forks.count()} puzzles" in text(listing)
    assert all(p.position in listing for p in forks[:5])
    assert first("3x3", "block").position not in listing


# -- the API ---------------------------------------------------------------------------------


def test_the_api_filters_by_theme_and_says_what_a_draw_puzzle_asks(starter_set):
    client = client_for(None)

    body = client.get("/api/puzzles/", {"variant": "3x3", "theme": "save_draw"}).json()

    count = Puzzle.objects.filter(variant="3x3", theme="save_draw").count()
    assert body["count"] == count > 0
    assert {(p["theme"], p["goal"], p["task"], p["win_in"]) for p in body["results"]} == {
        ("save_draw", "draw", "save the draw", None)
    }
    assert_error(client.get("/api/puzzles/", {"theme": "sacrifice"}), 400, "invalid")


def test_the_api_judges_a_block_solved_by_its_one_move(starter_set):
    puzzle = first("4x4", "block")
    before = stored()

    body = client_for(None).post(f"/api/puzzles/{puzzle.pk}/attempt/", {"played": [puzzle.cell]}, format="json").json()

    assert (body["status"], body["steps"][0]["verdict"]) == ("solved", "holds")
    assert body["moves"] == [puzzle.cell, body["steps"][0]["reply"]]
    assert body["solution"] == list(puzzle.solution_cells)
    assert stored() == before
