"""Every game downloads in the site's notation, and reads back the same."""

import pytest

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
