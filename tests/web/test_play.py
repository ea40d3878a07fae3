"""Playing against the AI through the web pages, with and without JavaScript."""

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Game, Move
from games.services import Player

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


def test_the_hint_names_a_cell_and_the_time_it_took(client):
    game = _start(client)
    html = client.get(game.get_absolute_url(), {"hint": "1"}).content.decode()
    assert re.search(r"Recommended: <strong>row \d, column \d</strong>\s+\(draw\), found in [\d.]+ (µs|ms)", html)
    assert html.count("cell--hint") == 1


def test_the_ai_s_thinking_paints_every_free_cell_and_counts_the_nodes(client):
    game = _start(client)
    client.post(reverse("games:move", args=[game.pk]), {"cell": "1", "ply": "0"})  # an edge: now X can lose
    html = client.get(game.get_absolute_url(), {"thinking": "1"}).content.decode()
    outcomes = re.findall(r'cell__eval">([^<]+)<', html)
    assert len(outcomes) == 7  # every free cell
    assert all(re.fullmatch(r"win \d|draw|loss \d", o) for o in outcomes)
    assert "Positions visited" in html and "Without pruning" in html


def test_a_finished_game_replays_position_by_position_and_is_reviewed(client_logged_in, user):
    game = services.game_create_against_ai(player=Player(user=user), side="X", seed=3)
    for cell in (1, 7, 3, 5, 0, 2, 6, 8):
        game.refresh_from_db()
        if game.status != "in_progress" or cell in game.cells:
            continue
        services.game_play_move(game_id=game.pk, player=Player(user=user), cell=cell, ply=game.move_count)
        services.game_play_ai_move(game_id=game.pk)
    game.refresh_from_db()
    while game.status == "in_progress":
        free = next(c for c in range(9) if c not in Game.objects.get(pk=game.pk).cells)
        services.game_play_move(game_id=game.pk, player=Player(user=user), cell=free, ply=game.move_count)
        services.game_play_ai_move(game_id=game.pk)
        game.refresh_from_db()
    page = client_logged_in.get(game.get_absolute_url()).content.decode()
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
    assert client_logged_in.get(game.get_absolute_url(), {"ply": "nonsense"}).status_code == 200
    assert re.search(r"label--(best|inaccurate|mistake|blunder)", page)
    if game.result == "o_won":
        assert "decided the game" in page


def test_resign_and_rematch_with_sides_swapped(client_logged_in):
    game = _start(client_logged_in)
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
