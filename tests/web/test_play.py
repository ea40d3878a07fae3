"""Playing against the AI through the web pages, with and without JavaScript."""

import html as html_lib
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from games.play import reviews, selectors, services
from games.play.models import Game, Move
from games.play.players import Player
from games.play.review_models import GameReview
from tests import factories
from tests.engine import reference

pytestmark = pytest.mark.django_db


def _marks(response) -> str:
    """The board as the page shows it: one character per cell button."""
    html = response.content.decode()
    labels = re.findall(r'aria-label="Row \d+, column \d+, (empty|X|O)', html)
    return "".join("." if label == "empty" else label for label in labels)


def _start(client, **choices):
    data = {"variant": "3x3", "side": "X", "level": "perfect", "start_mode": "minimax", **choices}
    response = client.post(reverse("games:new"), data)
    assert response.status_code == 302
    return Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))


def test_the_new_game_page_offers_every_choice(client):
    html = client.get(reverse("games:new")).content.decode()
    for value in ("3x3", "4x4", "5x5", "X", "O", "random", "easy", "medium", "hard", "perfect", "centre", "minimax"):
        assert f'value="{value}"' in html


def test_the_new_game_page_says_what_each_level_does_and_only_perfect_never_loses(client):
    html = client.get(reverse("games:new")).content.decode()
    help_text = re.search(r'<p class="helptext choice-group__help" id="id_level_helptext">([^<]+)</p>', html)
    assert help_text, html
    sentences = {sentence.split()[0]: sentence for sentence in help_text.group(1).split(". ")}
    assert set(sentences) == {"Easy", "Medium", "Hard", "Perfect"}
    assert "at random" in sentences["Easy"]
    assert "takes a win in one move and blocks a loss in one" in sentences["Medium"]
    assert "7 times in 10" in sentences["Hard"]
    assert [level for level, sentence in sentences.items() if "never loses" in sentence] == ["Perfect"]
    # How it chooses among equal moves is said where the level is described.
    assert "choosing at random among equally good moves" in sentences["Perfect"]


def test_a_bad_choice_is_shown_on_the_form_and_creates_nothing(client):
    response = client.post(reverse("games:new"), {"variant": "9x9", "side": "X", "level": "god", "start_mode": "x"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert Game.objects.count() == 0


def test_a_guest_plays_at_once_and_the_ai_answers(client):
    game = _start(client)
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert "Your turn" in page.content.decode()
    response = client.post(reverse("games:move", args=[game.pk]), {"cell": "4", "ply": "0"})
    assert response.status_code == 302
    board = _marks(client.get(game.get_absolute_url()))
    assert board[4] == "X" and board.count("O") == 1  # the AI has answered
    assert Move.objects.filter(game=game).count() == 2


def test_when_the_ai_starts_in_the_centre_it_has_moved_before_the_page_shows(client_logged_in):
    game = _start(client_logged_in, side="O", start_mode="centre")
    assert _marks(client_logged_in.get(game.get_absolute_url())) == "....X...."


def test_a_move_with_javascript_returns_the_game_panel_without_a_reload(client):
    game = _start(client)
    response = client.post(reverse("games:move", args=[game.pk]), {"cell": "0", "ply": "0"}, HTTP_X_PARTIAL="1")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div class="game" id="game"')
    assert "<html" not in html
    assert _marks(response).count("O") == 1


def test_an_occupied_cell_is_refused_with_a_message_and_nothing_changes(client):
    game = _start(client)
    client.post(reverse("games:move", args=[game.pk]), {"cell": "4", "ply": "0"})
    response = client.post(reverse("games:move", args=[game.pk]), {"cell": "4", "ply": "2"}, follow=True)
    assert "Move refused: cell 4 is occupied" in response.content.decode()
    assert Move.objects.filter(game=game).count() == 2
    partial = client.post(reverse("games:move", args=[game.pk]), {"cell": "4", "ply": "2"}, HTTP_X_PARTIAL="1")
    assert partial.status_code == 409
    assert "Move refused: cell 4 is occupied" in partial.content.decode()


@pytest.mark.parametrize("cell", ["\u0664", "\uff14", "0_4"])
def test_a_cell_in_other_than_ascii_digits_is_refused_and_nothing_changes(client, cell):
    game = _start(client)
    response = client.post(reverse("games:move", args=[game.pk]), {"cell": cell, "ply": "0"}, follow=True)
    assert "is not a whole number" in response.content.decode()
    assert Move.objects.filter(game=game).count() == 0


def test_a_double_clicked_move_is_applied_once(client):
    game = _start(client)
    for _ in range(2):
        client.post(reverse("games:move", args=[game.pk]), {"cell": "8", "ply": "0"})
    assert list(Move.objects.filter(game=game).values_list("ply", "cell"))[0] == (0, 8)
    assert Move.objects.filter(game=game).count() == 2  # X's move and the AI's answer, once


def test_someone_elses_game_cannot_be_played(client, client_logged_in):
    game = _start(client_logged_in)  # alice's game
    other = client.__class__()
    response = other.post(reverse("games:move", args=[game.pk]), {"cell": "0", "ply": "0"}, follow=True)
    assert "Move refused: you are not playing in this game" in response.content.decode()
    assert Move.objects.filter(game=game).count() == 0
    partial = other.post(reverse("games:move", args=[game.pk]), {"cell": "0", "ply": "0"}, HTTP_X_PARTIAL="1")
    assert partial.status_code == 403
    assert "Move refused: you are not playing in this game" in partial.content.decode()
    assert Move.objects.filter(game=game).count() == 0
    # Watching is allowed; the board just takes no input.
    page = other.get(game.get_absolute_url())
    assert page.status_code == 200 and "Your turn" not in page.content.decode()


@pytest.mark.parametrize("data", [{"cell": "nine", "ply": "0"}, {"cell": "9", "ply": "0"}, {"cell": "1"}, {}])
def test_malformed_moves_get_a_message_not_a_crash(client, data):
    game = _start(client)
    response = client.post(reverse("games:move", args=[game.pk]), data, HTTP_X_PARTIAL="1")
    assert response.status_code == 400
    assert "Move refused" in response.content.decode()
    assert Move.objects.filter(game=game).count() == 0


def test_an_unknown_game_is_a_styled_404(client):
    for response in (
        client.get(reverse("games:game", args=[999])),
        client.post(reverse("games:move", args=[999]), {"cell": "0", "ply": "0"}),
        client.post(reverse("games:resign", args=[999])),
        client.post(reverse("games:rematch", args=[999])),
    ):
        assert response.status_code == 404
        html = response.content.decode()
        assert "This square is empty" in html  # templates/404.html, not a bare "Not Found"
        assert 'class="site-header"' in html


def test_the_hint_names_a_cell_and_the_time_it_took(client):
    game = _start(client)
    html = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    assert re.search(
        r"Recommended: <strong>row \d, column \d</strong>\s+\(draw with perfect play\), found in [\d.]+ (µs|ms)", html
    )
    assert html.count("cell--hint") == 1


def test_the_hint_names_the_one_cell_that_saves_the_game(client):
    # X: 0 and 8, O: 4 and 1, X to move: O threatens 1-4-7, and only 7 does not lose.
    game = _ai_game_at(client, [0, 4, 8, 1], variant="3x3")
    position = str(game.board)
    values = reference.move_values(position)
    # By the independent referee: 7 draws, every other cell loses.
    assert values[7] == 0 and all(score < 0 for cell, score in values.items() if cell != 7)
    html = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    assert re.search(r"Recommended: <strong>row 3, column 2</strong>\s+\(draw with perfect play\)", html)
    assert re.findall(r'value="(\d+)"\s+class="cell[^"]*cell--hint', html) == ["7"]
    # The marked cell says it is the hint, to the eye and to a screen reader.
    assert 'aria-label="Row 3, column 2, empty, the hint: the engine recommends this move"' in html
    assert '<span class="cell__hint" aria-hidden="true">Hint</span>' in html


def _traps_by_reference(position: str, cell: int) -> int:
    """How many of the opponent's replies after ``cell`` lose, by the independent referee."""
    after = reference.play(position, cell)
    return sum(1 for score in reference.move_values(after).values() if score < 0)


def test_on_the_empty_board_the_hint_names_a_corner_and_how_many_ways_o_has_to_lose(client):
    game = _start(client)
    html = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    recommended = re.findall(r'value="(\d+)"\s+class="cell[^"]*cell--hint', html)
    assert len(recommended) == 1 and int(recommended[0]) in (0, 2, 6, 8)
    # Every first move draws; by the referee a corner leaves O 7 losing replies, an edge 4.
    assert _traps_by_reference("." * 9, 0) == 7 and _traps_by_reference("." * 9, 1) == 4
    reason = re.search(r'<span class="hint__reason">([^<]+)</span>', html).group(1)
    assert html_lib.unescape(reason) == "Every move draws; this corner leaves O 7 ways to lose, an edge only 4."
    assert re.search(r"Recommended: <strong>row [13], column [13]</strong>\s+\(draw with perfect play\)", html)


def test_on_the_empty_board_the_ai_s_view_counts_each_cell_s_traps(client):
    game = _start(client)
    html = client.get(game.get_absolute_url(), {"thinking": "1"}).content.decode()
    shown = dict(
        re.findall(r'value="(\d+)"[^>]*><span class="cell__eval">draw</span><span class="cell__traps">([^<]+)<', html)
    )
    assert shown == {str(cell): f"{_traps_by_reference('.' * 9, cell)} traps" for cell in range(9)}
    assert shown["0"] == "7 traps" and shown["4"] == "4 traps" and shown["1"] == "4 traps"
    assert 'aria-label="Row 1, column 1, empty: draw, leaves O 7 ways to lose"' in html
    assert "each cell also counts its traps: how many of O&#x27;s replies would then lose" in html


def test_on_the_empty_5x5_board_the_hint_recommends_a_cell_leaving_the_most_ways_to_lose(client):
    game = _start(client, variant="5x5")
    board = engine.Board.empty(5)
    # By an analysis of every reply: how many of O's replies lose after each first move.
    losing = {
        cell: sum(1 for e in engine.analyse(board.play(cell)).values() if e.outcome == "loss") for cell in range(25)
    }
    html = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    recommended = int(re.findall(r'value="(\d+)"\s+class="cell[^"]*cell--hint', html)[0])
    assert losing[recommended] == max(losing.values()) > 0
    fewest = min(losing, key=lambda cell: (losing[cell], cell))
    row, column = divmod(fewest, 5)
    reason = html_lib.unescape(re.search(r'<span class="hint__reason">([^<]+)</span>', html).group(1))
    fewer = f"only {losing[fewest]}" if losing[fewest] else "none"
    assert reason == (
        f"Every move draws; this move leaves O {losing[recommended]} ways to lose, "
        f"row {row + 1}, column {column + 1} {fewer}."
    )


def test_a_hint_between_equal_moves_names_the_one_with_fewer_traps_beside_it(client):
    # X took a corner, O the centre: every move draws, but they set O different numbers of traps.
    game = _ai_game_at(client, [8, 4], variant="3x3")
    position = str(game.board)
    assert all(score == 0 for score in reference.move_values(position).values())
    traps = {cell: _traps_by_reference(position, cell) for cell in reference.move_values(position)}
    # The corners beside X's and the edges beside them leave O 5; the far corner and the other edges 2.
    assert traps == {0: 2, 1: 2, 2: 5, 3: 2, 5: 5, 6: 5, 7: 5}
    html = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    recommended = int(re.findall(r'value="(\d+)"\s+class="cell[^"]*cell--hint', html)[0])
    assert recommended in (2, 5, 6, 7)  # the game's seed picks among them
    reason = html_lib.unescape(re.search(r'<span class="hint__reason">([^<]+)</span>', html).group(1))
    # The fewest, lowest first: the far corner (cell 0), named beside the cell recommended.
    named = {
        2: "this corner leaves O 5 ways to lose, another corner only 2",
        6: "this corner leaves O 5 ways to lose, another corner only 2",
        5: "this edge leaves O 5 ways to lose, a corner only 2",
        7: "this edge leaves O 5 ways to lose, a corner only 2",
    }
    assert reason == f"Every move draws; {named[recommended]}."


def test_where_outcomes_differ_the_ai_s_view_shows_no_traps(client):
    game = _ai_game_at(client, [1, 0], variant="3x3")
    html = client.get(game.get_absolute_url(), {"thinking": "1"}).content.decode()
    assert "cell__traps" not in html and "counts its traps" not in html


def test_the_ai_s_thinking_paints_every_free_cell_and_counts_the_nodes(client):
    # X opened on an edge and O took a corner: now some of X's moves lose. (Set
    # as rows: the AI's own reply is its choice among equals, the centre among them.)
    game = _ai_game_at(client, [1, 0], variant="3x3")
    page = client.get(game.get_absolute_url(), {"thinking": "1"})
    html = page.content.decode()
    outcomes = re.findall(r'cell__eval">([^<]+)<', html)
    assert len(outcomes) == 7  # every free cell
    # Each cell reads what an independent minimax says of it (tests/engine/reference.py).
    position = _marks(page)
    painted = dict(re.findall(r'value="(\d+)"[^>]*>\s*<span class="cell__eval">([^<]+)<', html))
    expected = {}
    for cell, score in reference.move_values(position).items():
        outcome, plies = reference.describe(score, position)
        expected[str(cell)] = "draw" if outcome == "draw" else f"{outcome} {plies}"
    assert painted == expected, position
    assert "loss" in " ".join(painted.values())  # after the edge and the corner, some moves lose
    assert "Positions this search visited (alpha-beta with memory)" in html
    assert "A textbook alpha-beta (no memory, fixed order)" in html
    assert "Plain minimax (the whole game tree)" in html
    assert "estimate" not in html


def _ai_game_at(client, cells: list[int], *, variant: str = "5x5") -> Game:
    """A guest's game against the AI, stored at the position after ``cells``.

    Written as rows rather than played: the AI's replies are its own choice,
    and these tests need one known position late in the game.
    """
    game = _start(client, variant=variant, level="easy")
    Move.objects.bulk_create(Move(game=game, ply=ply, cell=cell) for ply, cell in enumerate(cells))
    Game.objects.filter(pk=game.pk).update(move_count=len(cells))
    return Game.objects.get(pk=game.pk)


def _thinking(html: str) -> str:
    """The text of the AI's-thinking box, tags dropped."""
    start = html.index('<div class="thinking"')
    box = html[start : html.index("</div>\n", html.index("</dl>", start))]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", box))


#: 12 marks on 5x5, X (the guest) to move: some cells win, some draw, some lose.
LATE_5X5 = [13, 21, 5, 19, 6, 15, 1, 18, 11, 16, 17, 23]


def test_the_ai_s_thinking_on_5x5_gives_outcomes_in_words_never_a_score(client):
    game = _ai_game_at(client, LATE_5X5)
    html = client.get(game.get_absolute_url(), {"thinking": "1"}).content.decode()

    shown = re.findall(r'cell__eval">([^<]+)<', html)
    assert len(shown) == 25 - len(LATE_5X5)
    assert all(re.fullmatch(r"win \d+|draw|loss \d+", text) for text in shown), shown
    described = re.findall(r'aria-label="Row \d, column \d, empty: ([^"]+)"', html)
    assert len(described) == len(shown)
    assert {re.sub(r"\d+", "N", text) for text in described} == {"win in N", "draw", "loss in N"}
    thinking = _thinking(html)
    assert not re.search(r"[+\u2212-]\d", " ".join([*shown, *described, thinking]))  # no "+12", "-3"
    assert "estimate" not in thinking and "not solved" not in thinking

    # The three counts, each named for what it is, "more than" where counting stopped.
    stats = engine.analyse(engine.Board.from_moves(LATE_5X5, size=5)).stats
    for name, count, exact in [
        ("Positions this search visited (alpha-beta with memory)", stats.nodes, True),
        ("A textbook alpha-beta (no memory, fixed order)", stats.textbook_nodes, stats.textbook_nodes_exact),
        ("Plain minimax (the whole game tree)", stats.minimax_nodes, stats.minimax_nodes_exact),
    ]:
        figure = f"{count:,}" if exact else f"more than {count:,}"
        assert f"{name} {figure} " in thinking, (name, thinking)


def _not_solved_in_time(client, monkeypatch):
    """A late 5x5 game whose every cell the engine (patched) could not solve in time."""
    game = _ai_game_at(client, LATE_5X5)
    board = engine.Board.from_moves(LATE_5X5, size=5)
    unsolved = engine.Analysis(
        {cell: engine.UNSOLVED for cell in board.legal_moves},
        engine.SearchStats(120, 5.0, 13, 50_000, False, 61_000, False),
        exact=False,
    )
    monkeypatch.setattr(engine, "analyse", lambda board, budget=None, **options: unsolved)
    return game


def test_cells_not_solved_in_time_read_not_solved(client, monkeypatch):
    game = _not_solved_in_time(client, monkeypatch)
    html = client.get(game.get_absolute_url(), {"thinking": "1"}).content.decode()
    assert set(re.findall(r'cell__eval">([^<]+)<', html)) == {"not solved"}
    assert "empty: not solved in time" in html
    thinking = _thinking(html)
    assert "were not solved in time" in thinking
    assert "more than 50,000" in thinking and "more than 61,000" in thinking
    assert not re.search(r"[+\u2212-]\d", thinking)


def test_a_hint_on_a_position_not_solved_in_time_recommends_nothing_rather_than_guess(client, monkeypatch):
    game = _not_solved_in_time(client, monkeypatch)

    def no_search(*args, **kwargs):
        raise AssertionError("the page must not start an unbounded search")

    monkeypatch.setattr(engine, "best_move", no_search)
    html = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    assert "No recommendation: the engine could not solve this position in time" in html
    assert "Recommended:" not in html and "cell--hint" not in html


def test_a_finished_game_replays_position_by_position_and_is_reviewed(client_logged_in, user, reviewed):
    game = services.game_create_against_ai(player=Player(user=user), side="X", seed=3)
    for cell in (1, 7, 3, 5, 0, 2, 6, 8):
        game = Game.objects.get(pk=game.pk)
        if game.status != "in_progress" or cell in game.cells:
            continue
        services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=game.move_count)
    game = Game.objects.get(pk=game.pk)
    while game.status == "in_progress":
        free = next(c for c in range(9) if c not in game.cells)
        services.game_play_move(game_id=game.pk, player=Player(user=user), cell=free, ply=game.move_count)
        game = Game.objects.get(pk=game.pk)
    # The perfect AI wins exactly when one of the player's moves threw the draw
    # away (by the independent referee), and draws otherwise.
    moves, position, blundered = game.cells, "." * 9, False
    for cell in game.cells:
        if reference.to_move(position) == "X":
            blundered |= reference.move_values(position)[cell] < 0
        position = reference.play(position, cell)
    assert game.result == ("o_won" if blundered else "draw")
    reviewed(game)
    response = client_logged_in.get(game.get_absolute_url())
    page = response.content.decode()
    assert _marks(response) == position
    for ply in range(game.move_count):
        assert f'href="?ply={ply}"' in page
    # The latest position has the game's own address, so a reload after
    # stepping back to it shows the game as it is, not an old position.
    replay = client_logged_in.get(game.get_absolute_url(), {"ply": game.move_count - 1}).content.decode()
    assert f'href="{game.get_absolute_url()}" data-replay="next"' in replay
    assert f'href="{game.get_absolute_url()}" data-replay="last"' in replay
    assert f'href="?ply={game.move_count}"' not in replay
    assert _marks(client_logged_in.get(game.get_absolute_url(), {"ply": "2"})).count(".") == 7
    assert _marks(client_logged_in.get(game.get_absolute_url(), {"ply": "0"})) == "........."
    nonsense = client_logged_in.get(game.get_absolute_url(), {"ply": "nonsense"})
    assert nonsense.status_code == 200 and _marks(nonsense) == position  # the game as it stands
    # Every move labelled as the referee would label it, in order.
    shown = [label for label in re.findall(r'class="label label--(\w+)"', page) if label != "decisive"]
    assert shown == _reference_labels(moves)
    assert ("decided the game" in page) == blundered


def _reference_labels(moves: list[int]) -> list[str]:
    """Each 3x3 move's label by the chess sites' rules, from the independent referee."""
    labels, position = [], "." * 9
    for cell in moves:
        labels.append(reference.label(position, cell))
        position = reference.play(position, cell)
    return labels


#: A 4x4 game X wins down the first column, with one move of each kind in it.
EVERY_LABEL_4X4 = [8, 7, 3, 15, 0, 1, 10, 2, 5, 14, 12, 6, 4]


def test_a_finished_4x4_game_shows_each_label_in_its_word(client, user, bob, reviewed):
    game = reviewed(factories.human_game(user, bob, EVERY_LABEL_4X4, variant="4x4"))
    page = client.get(game.get_absolute_url()).content.decode()
    shown = [found for found in re.findall(r'class="label label--(\w+)"[^>]*>([^<]+)<', page) if found[0] != "decisive"]
    assert len(shown) == len(EVERY_LABEL_4X4)
    assert {label for label, _ in shown} == {"best", "inaccuracy", "mistake", "blunder"}
    assert all(label == word for label, word in shown)
    assert "inaccurate" not in page and "estimate" not in page
    assert "The result was decided by move" in page
    assert "not solved in time" not in page


def test_a_review_with_a_position_not_solved_in_time_says_so(client, user, bob):
    game = factories.human_game(user, bob, factories.X_WINS)
    draw = engine.Evaluation("draw", 9, 0)
    review = engine.Review(
        (
            engine.MoveReview(0, "X", 0, "best", draw, draw, (0, 4)),
            engine.MoveReview(1, "O", 3, "unsolved", engine.UNSOLVED, engine.UNSOLVED, ()),
        ),
        decisive_ply=None,
        exact=False,
    )
    GameReview.objects.create(game=game, review=reviews.ReviewedGame(review, {}, {}).to_json())
    page = client.get(game.get_absolute_url()).content.decode()
    assert re.search(r'class="label label--unsolved" title="Not solved in time">not solved<', page)
    assert "Some positions were not solved in time." in page
    assert "No move changed the outcome" not in page


def test_resigning_before_both_sides_have_moved_aborts_the_game(client_logged_in):
    game = _start(client_logged_in)
    response = client_logged_in.post(reverse("games:resign", args=[game.pk]), follow=True)
    text = response.content.decode()
    assert "The game was aborted: it ends unrated before both sides have moved." in text
    assert "by resignation" not in text
    game.refresh_from_db()
    assert (game.status, game.result) == ("aborted", "")


def test_resign_and_rematch_with_sides_swapped(client_logged_in):
    game = _start(client_logged_in)
    client_logged_in.post(reverse("games:move", args=[game.pk]), {"cell": 4, "ply": 0})
    response = client_logged_in.post(reverse("games:resign", args=[game.pk]), follow=True)
    assert "The AI won" in response.content.decode()
    assert "by resignation" in response.content.decode()
    response = client_logged_in.post(reverse("games:rematch", args=[game.pk]))
    rematch = Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    assert rematch.human_side == "O" and rematch.rematch_of_id == game.pk
    assert rematch.move_count == 1  # the AI, now X, opened


def test_a_guest_who_signs_up_keeps_the_game(client, django_user_model):
    game = _start(client)
    client.post(reverse("games:move", args=[game.pk]), {"cell": "4", "ply": "0"})
    response = client.post(
        reverse("games:signup"),
        {"username": "newcomer", "password1": "a-long-passphrase-42", "password2": "a-long-passphrase-42"},
        follow=True,
    )
    assert "The game you played as a guest is in your history now." in response.content.decode()
    game.refresh_from_db()
    assert game.x_player.username == "newcomer"
    assert "Your turn" in client.get(game.get_absolute_url()).content.decode()


def _planted(session_key: str) -> Client:
    """A browser that someone else's session cookie was planted in."""
    browser = Client()
    browser.cookies[settings.SESSION_COOKIE_NAME] = session_key
    return browser


def _sign_up(client, username: str):
    password = "a-long-passphrase-42"
    return client.post(reverse("games:signup"), {"username": username, "password1": password, "password2": password})


def test_a_planted_session_cookie_adopts_none_of_the_guest_s_games(client, django_user_model):
    """mallory starts a game as a guest and plants her session cookie in a
    victim's browser; the victim plays as a guest there. mallory signing up
    with the cookie she kept gets none of the victim's games; the victim does."""
    mallory = client
    _start(mallory)
    planted_key = mallory.cookies[settings.SESSION_COOKIE_NAME].value
    victim = _planted(planted_key)
    game = _start(victim)
    victim.post(reverse("games:move", args=[game.pk]), {"cell": "4", "ply": "0"})

    _sign_up(_planted(planted_key), "mallory")
    game.refresh_from_db()
    assert game.x_player is None and game.guest_key != ""

    _sign_up(victim, "victim")
    game.refresh_from_db()
    assert game.x_player.username == "victim" and game.guest_key == ""


def test_a_guest_key_sent_as_a_cookie_or_a_field_adopts_nothing(client, django_user_model):
    victim = Client()
    game = _start(victim)
    client.cookies["guest_key"] = game.guest_key
    _sign_up(client, "mallory")
    client.logout()
    client.post(
        reverse("login"), {"username": "mallory", "password": "a-long-passphrase-42", "guest_key": game.guest_key}
    )
    response = client.post(
        reverse("games:signup") + f"?guest_key={game.guest_key}",
        {"username": "mallory2", "password1": "a-long-passphrase-42", "password2": "a-long-passphrase-42",
         "guest_key": game.guest_key},
    )  # fmt: skip
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.x_player is None and game.guest_key != ""


def test_the_session_that_played_keeps_its_games_across_new_games(client):
    """Each new game gives the session a new id; the guest's earlier games stay theirs."""
    first = _start(client)
    second = _start(client)
    assert first.guest_key == second.guest_key
    assert "Your turn" in client.get(first.get_absolute_url()).content.decode()


def test_home_shows_your_games_in_progress(client_logged_in):
    game = _start(client_logged_in)
    html = client_logged_in.get(reverse("games:home")).content.decode()
    assert "Your games in progress" in html
    assert game.get_absolute_url() in html


def test_4x4_and_5x5_games_are_playable(client):
    for variant, size in (("4x4", 4), ("5x5", 5)):
        game = _start(client, variant=variant, level="easy")
        client.post(reverse("games:move", args=[game.pk]), {"cell": "0", "ply": "0"})
        board = _marks(client.get(game.get_absolute_url()))
        assert len(board) == size * size and board[0] == "X" and board.count("O") == 1


def test_a_guest_who_logs_in_to_an_existing_account_keeps_the_game(client, user, password):
    game = _start(client)
    response = client.post(reverse("login"), {"username": user.username, "password": password}, follow=True)
    assert "The game you played as a guest is in your history now." in response.content.decode()
    game.refresh_from_db()
    assert game.x_player == user and game.guest_key == ""


def _status(response) -> str:
    """The game's status line as it reads, without its markup."""
    html = response.content.decode()
    status = re.search(r'<p class="game-status" id="game-status"[^>]*>(.*?)</p>', html, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", status).replace("&hellip;", "…").split())


def test_opening_a_game_whose_ai_move_is_owed_changes_nothing_and_offers_to_make_it(client_logged_in, user):
    game = services.game_create_against_ai(player=Player(user=user), variant="4x4", seed=1)
    game = factories.stopped_before_the_ai_replied(game, 0)
    page = client_logged_in.get(game.get_absolute_url())
    assert page.status_code == 200
    assert Game.objects.get(pk=game.pk).move_count == 1  # reading never writes
    html = page.content.decode()
    assert _status(page) == "The AI is thinking…"
    assert "The AI has not made its move yet" in html
    assert f'action="{reverse("games:ai_move", args=[game.pk])}"' in html
    # The page follows the game, so the move appears when the AI makes it.
    assert 'data-live="1"' in html and f'data-ws-url="/ws/games/{game.pk}/"' in html

    response = client_logged_in.post(reverse("games:ai_move", args=[game.pk]))
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    game = Game.objects.get(pk=game.pk)
    assert game.move_count == 2 and game.board.to_move == "X"
    page = client_logged_in.get(game.get_absolute_url())
    assert "The AI has not made its move yet" not in page.content.decode()
    assert _status(page) == "Your turn X" and 'data-live="1"' not in page.content.decode()


def test_only_a_player_can_ask_the_ai_for_its_owed_move(client, user):
    game = services.game_create_against_ai(player=Player(user=user), variant="4x4", seed=1)
    game = factories.stopped_before_the_ai_replied(game, 0)
    assert "The AI has not made its move yet" not in client.get(game.get_absolute_url()).content.decode()
    response = client.post(reverse("games:ai_move", args=[game.pk]), follow=True)
    assert "The AI did not move: you are not playing in this game." in response.content.decode()
    assert Game.objects.get(pk=game.pk).move_count == 1


@pytest.mark.parametrize("variant", ["4x4", "5x5"])
def test_a_move_on_a_larger_board_comes_back_with_the_ais_reply(client_logged_in, variant):
    game = _start(client_logged_in, variant=variant)
    response = client_logged_in.post(reverse("games:move", args=[game.pk]), {"cell": 0, "ply": 0})
    assert response.status_code == 302
    game = Game.objects.get(pk=game.pk)
    assert game.move_count == 2 and game.cells[0] == 0
    assert "Your turn" in client_logged_in.get(game.get_absolute_url()).content.decode()


def test_a_spectator_of_a_game_against_the_ai_follows_it_live_signed_in_or_not(client, user, bob):
    game = services.game_create_against_ai(player=Player(user=user), variant="5x5", seed=1)
    game = services.game_play_move(game_id=game.pk, player=Player(user=user), cell=0, ply=0).game
    for viewer in (None, bob):
        client.logout()
        if viewer:
            client.force_login(viewer)
        page = client.get(game.get_absolute_url())
        html = page.content.decode()
        assert 'data-live="1"' in html and f'data-ws-url="/ws/games/{game.pk}/"' in html
        assert _status(page) == "X to move Live"
        assert "Log in to follow" not in html and "Hint" not in html

    # While the AI thinks, the spectator reads so; the player's button is not theirs.
    game = factories.stopped_before_the_ai_replied(game, 1)
    page = client.get(game.get_absolute_url())
    assert _status(page) == "The AI is thinking…"
    assert "Let the AI move" not in page.content.decode()


def test_the_player_of_a_game_against_the_ai_needs_no_socket_and_a_finished_game_none(client_logged_in, user):
    game = _start(client_logged_in, variant="4x4")
    page = client_logged_in.get(game.get_absolute_url())
    assert _status(page) == "Your turn X" and 'data-live="1"' not in page.content.decode()
    services.game_resign(game_id=game.pk, player=Player(user=user))
    client_logged_in.logout()
    assert 'data-live="1"' not in client_logged_in.get(game.get_absolute_url()).content.decode()


def test_a_move_through_the_form_costs_as_many_queries_late_in_the_game_as_early(client):
    """The game is read with its players and its moves at once: no query per move played."""
    game = _start(client, variant="4x4")

    def queries_of_a_move(ply: int) -> int:
        free = next(cell for cell in range(16) if cell not in selectors.game_detail(game.pk).cells)
        with CaptureQueriesContext(connection) as captured:
            response = client.post(reverse("games:move", args=[game.pk]), {"cell": str(free), "ply": str(ply)})
        assert response.status_code == 302 and Move.objects.filter(game=game).count() == ply + 2
        return len(captured.captured_queries)

    queries_of_a_move(0)
    assert queries_of_a_move(2) == queries_of_a_move(4)


def test_a_guest_who_finished_a_game_is_asked_to_sign_up_to_keep_it_and_comes_back_to_it(client):
    game = _start(client)
    client.post(reverse("games:move", args=[game.pk]), {"cell": "4", "ply": "0"})
    client.post(reverse("games:resign", args=[game.pk]))
    page = client.get(game.get_absolute_url()).content.decode()
    signup = f"{reverse('games:signup')}?next={game.get_absolute_url()}"
    assert f'href="{signup}">Sign up to keep this game</a>' in page
    response = client.post(
        signup,
        {"username": "keeper", "password1": "a-long-passphrase-42", "password2": "a-long-passphrase-42"},
    )
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    game.refresh_from_db()
    assert game.x_player.username == "keeper"
    assert "Sign up to keep this game" not in client.get(game.get_absolute_url()).content.decode()
