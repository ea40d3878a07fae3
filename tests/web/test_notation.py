"""Every game downloads in the site's notation, and reads back the same."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import notation
from games.play import offers, services
from games.play.models import Game, Move
from games.play.players import Player
from tests.factories import DRAW, ai_game, human_game, time_passes

pytestmark = pytest.mark.django_db


def _games(user, bob):
    games = [ai_game(user, level=level) for level in ("easy", "medium", "hard", "perfect")]
    games += [ai_game(user, variant="4x4", first=5), ai_game(user, variant="5x5", first=12, resign=True)]
    games.append(human_game(user, bob))  # won on a line
    games.append(human_game(user, bob, cells=DRAW))  # a full board
    games.append(human_game(user, bob, cells=[4, 0], resign=bob))
    games.append(human_game(user, bob, cells=[5, 0, 10], variant="4x4"))  # unfinished
    agreed = human_game(user, bob, cells=[12, 0], variant="5x5")
    offers.game_offer_draw(game_id=agreed.pk, player=Player(user=user))
    games.append(offers.game_answer_draw(game_id=agreed.pk, player=Player(user=bob), accept=True))
    timed = human_game(user, bob, cells=[4, 0, 8], time_control="5+3")
    time_passes(timed, 3600)
    games.append(services.game_claim_timeout(game_id=timed.pk, player=Player(user=user)))
    aborted = human_game(user, bob, cells=[4])
    services.game_abort(game_id=aborted.pk)
    games.append(aborted)
    return [Game.objects.with_players_and_moves().get(pk=game.pk) for game in games]


def test_every_kind_of_game_reads_back_the_same(client, user, bob):
    games = _games(user, bob)
    terminations = {game.termination for game in games}
    assert {"line", "full_board", "resigned", "timeout", "agreed"} <= terminations
    assert {"aborted", "in_progress", "finished"} <= {game.status for game in games}
    for game in games:
        response = client.get(f"/games/{game.pk}/notation.txt")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/plain")
        assert response["Content-Disposition"] == f'attachment; filename="tttsite-game-{game.pk}.txt"'
        record = notation.parse(response.content.decode())
        assert record.size == game.size
        assert list(record.moves) == list(Move.objects.filter(game=game).order_by("ply").values_list("cell", flat=True))
        assert record.headers["X"] == game.player_name("X")
        assert record.headers["O"] == game.player_name("O")
        assert record.headers["Status"] == game.status
        assert record.headers.get("Termination", "") == game.termination
        assert record.headers.get("AILevel", "") == game.ai_level


def test_the_headers_of_a_won_game(client, user, bob):
    game = human_game(user, bob)
    text = client.get(f"/games/{game.pk}/notation.txt").content.decode()
    assert f'[X "{user.username}"]' in text and '[Result "1-0"]' in text and '[Termination "line"]' in text
    assert text.rstrip().endswith("a3 a2 b3 b2 c3")


def test_the_game_page_links_its_download(client, user, bob):
    game = human_game(user, bob, cells=[4])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/notation.txt"' in page


def test_no_game_no_download_and_nothing_stored(client):
    before = Game.objects.count(), Move.objects.count()
    assert client.get("/games/999999/notation.txt").status_code == 404
    assert client.post("/games/999999/notation.txt").status_code == 405
    assert (Game.objects.count(), Move.objects.count()) == before


# -- importing into the analysis board -----------------------------------------------------------


@pytest.mark.parametrize(
    "text, size, moves",
    [
        ("b2 a1 c3", 3, "4,6,2"),
        ("4 0 8", 3, "4,0,8"),
        ('[Board "4x4"]\n\na4 b3', 4, "0,5"),
        ("1. b2 a1 2. c3", 3, "4,6,2"),
    ],
)
def test_the_analysis_board_imports_a_game_or_its_moves(client, text, size, moves):
    response = client.get(reverse("games:analysis"), {"game": text})
    assert response.status_code == 302
    expected = f"moves={moves}" if size == 3 else f"board={'.' * size * size}&moves={moves}"
    assert response["Location"] == f"{reverse('games:analysis')}?{expected}"


def test_a_downloaded_game_imports_as_it_was_played(client, user, bob):
    game = human_game(user, bob, [4, 0, 8, 2, 1])
    text = client.get(reverse("games:game_notation", args=[game.pk])).content.decode()
    response = client.get(reverse("games:analysis"), {"game": text})
    assert response["Location"].endswith("?moves=4,0,8,2,1")


@pytest.mark.parametrize(
    "text, said",
    [
        ("b2 b2", 'move 2: "b2" cannot be played: that cell is occupied'),
        ("zz", '"zz" is not a coordinate'),
        ('[Board "9x9"]', "is not 3x3, 4x4 or 5x5"),
    ],
)
def test_text_that_is_not_a_game_is_shown_again_with_what_is_wrong(client, text, said):
    response = client.get(reverse("games:analysis"), {"game": text})
    assert response.status_code == 400
    html = response.content.decode()
    assert said.replace('"', "&quot;") in html
    assert 'aria-invalid="true"' in html and escape(text) in html


def test_the_notation_has_a_page_of_its_own(client):
    html = client.get(reverse("games:notation_help")).content.decode()
    assert "<h1" in html and "Game notation" in html and "a3" in html


# -- in the API ------------------------------------------------------------------------------


def test_the_api_gives_a_game_in_the_notation_to_a_signed_in_player(user, bob):
    from tests.api.conftest import assert_error, client_for

    game = human_game(user, bob, [4, 0, 8, 2, 1])
    response = client_for(bob).get(f"/api/games/{game.pk}/notation/")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    record = notation.parse(response.content.decode())
    assert record.moves == (4, 0, 8, 2, 1) and record.headers["X"] == "alice"
    assert response.content == Client().get(reverse("games:game_notation", args=[game.pk])).content
    assert_error(client_for(bob).get("/api/games/999999/notation/"), 404, "not_found")
    assert client_for(None).get(f"/api/games/{game.pk}/notation/").status_code == 401


def test_the_boards_show_the_coordinates_the_notation_uses(client, user):
    game = ai_game(user, level="easy", variant="4x4")
    for url in (game.get_absolute_url(), reverse("games:analysis") + "?board=" + "." * 16):
        html = client.get(url).content.decode()
        assert (
            '<ol class="board-coords__ranks" aria-hidden="true"><li>4</li><li>3</li><li>2</li><li>1</li></ol>' in html
        )
        assert (
            '<ol class="board-coords__files" aria-hidden="true"><li>a</li><li>b</li><li>c</li><li>d</li></ol>' in html
        )
