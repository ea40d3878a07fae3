"""What staff see and may do in the admin: games, their moves and boards, players."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.lobby import services as lobby_services
from games.play import offers, services
from games.play.models import Game, Move, Status
from games.play.players import Player
from tests.factories import human_game

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/games/game/"


def _change_url(game):
    return reverse("admin:games_game_change", args=[game.pk])


def _game_between(x_user, o_user, cells):
    """A game between two people, played move by move through the services."""
    game = Game.objects.create(x_player=x_user, o_player=o_user)
    for cell in cells:
        mover = x_user if game.move_count % 2 == 0 else o_user
        game = services.game_play_move(game_id=game.pk, player=Player(user=mover), cell=cell, ply=game.move_count).game
    return game


def _game_against_ai(player, cells=(), **kwargs):
    kwargs.setdefault("seed", 1)
    game = services.game_create_against_ai(player=player, **kwargs)
    for cell in cells:
        game = services.game_play_move(game_id=game.pk, player=player, cell=cell, ply=game.move_count).game
    return game


def _names(response):
    """(X, O) as the changelist shows them, row by row."""
    page = response.content.decode()
    cells = re.findall(r'<td class="field-([xo])_name">(.*?)</td>', page, re.S)
    texts = [re.sub(r"<[^>]+>", "", text).strip() for _, text in cells]
    return list(zip(texts[::2], texts[1::2], strict=True))


def _changelist_ids(response):
    return [int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', response.content.decode())]


# -- the changelist -----------------------------------------------------------------


def _changelist_queries(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(CHANGELIST)
    assert response.status_code == 200
    return len(queries), response


def test_the_changelist_costs_the_same_queries_for_one_game_as_for_twenty(admin_client, user, bob):
    _game_between(user, bob, [0, 3, 1, 4, 2])
    one, response = _changelist_queries(admin_client)
    assert len(_changelist_ids(response)) == 1

    for i in range(19):
        if i % 2:
            _game_between(bob, user, [4, 0])
        else:
            _game_against_ai(Player(user=user), side="O" if i % 4 else "X", start_mode="centre")
    twenty, response = _changelist_queries(admin_client)
    assert len(_changelist_ids(response)) == 20
    assert twenty == one


def test_the_changelist_names_people_the_ai_guests_and_deleted_players(admin_client, user, bob):
    _game_against_ai(Player(user=user), level="hard")
    _game_against_ai(Player(guest_key="k" * 32), side="O")
    _game_between(user, bob, [4])
    bob.delete()

    names = _names(admin_client.get(CHANGELIST))

    assert names == [("alice", "Deleted player"), ("AI (perfect)", "Guest"), ("alice", "AI (hard)")]


def test_the_newest_game_comes_first(admin_client, user, bob):
    older = _game_between(user, bob, [4])
    newer = _game_between(bob, user, [0])
    assert _changelist_ids(admin_client.get(CHANGELIST)) == [newer.pk, older.pk]


def test_search_by_username_finds_the_game_on_either_side(admin_client, user, bob, django_user_model):
    carol = django_user_model.objects.create_user(username="carol", password="x")
    as_x = _game_between(bob, user, [4])
    as_o = _game_between(carol, bob, [0])
    _game_between(user, carol, [1])

    assert sorted(_changelist_ids(admin_client.get(CHANGELIST, {"q": "bob"}))) == sorted([as_x.pk, as_o.pk])
    assert _changelist_ids(admin_client.get(CHANGELIST, {"q": "nobody-called-this"})) == []


def test_filters_narrow_the_list(admin_client, user, bob):
    alice = Player(user=user)
    finished = _game_between(user, bob, [0, 3, 1, 4, 2])  # X completes the top row
    unfinished_ai = _game_against_ai(alice, variant="4x4", level="easy")
    resigned_ai = services.game_resign(game_id=_game_against_ai(alice, [4]).pk, player=alice)

    def ids(**params):
        return sorted(_changelist_ids(admin_client.get(CHANGELIST, params)))

    assert ids(status="finished") == sorted([finished.pk, resigned_ai.pk])
    assert ids(status="in_progress") == [unfinished_ai.pk]
    assert ids(result="x_won") == [finished.pk]
    assert ids(result="o_won") == [resigned_ai.pk]
    assert ids(termination="resigned") == [resigned_ai.pk]
    assert ids(termination="line") == [finished.pk]
    assert ids(variant="4x4") == [unfinished_ai.pk]
    assert ids(ai_level="easy") == [unfinished_ai.pk]
    assert ids(opponent="ai") == sorted([unfinished_ai.pk, resigned_ai.pk])
    assert ids(opponent="human") == [finished.pk]
    with_counts = admin_client.get(CHANGELIST, {"_facets": "True", "player": user.pk}).content.decode()
    assert "The AI (2)" in with_counts and "Another person (1)" in with_counts


def test_the_player_filter_shows_one_users_games_on_either_side(admin_client, user, bob, django_user_model):
    carol = django_user_model.objects.create_user(username="carol", password="x")
    as_x = _game_between(bob, user, [4])
    as_o = _game_between(carol, bob, [0])
    _game_between(user, carol, [1])

    response = admin_client.get(CHANGELIST, {"player": bob.pk})

    assert sorted(_changelist_ids(response)) == sorted([as_x.pk, as_o.pk])
    sidebar = response.content.decode()
    assert re.search(rf'<li class="selected">\s*<a href="\?player={bob.pk}">bob</a>', sidebar)


def test_a_player_filter_that_is_not_a_user_id_is_refused_not_a_crash(admin_client):
    response = admin_client.get(CHANGELIST, {"player": "alice"})
    assert response.status_code == 302
    assert response["Location"].endswith("?e=1")


# -- one game -------------------------------------------------------------------------


def test_the_change_page_draws_the_final_board_with_the_winning_line(admin_client, user, bob):
    game = _game_between(user, bob, [0, 3, 1, 4, 2])  # X: 0 1 2, O: 3 4

    page = admin_client.get(_change_url(game)).content.decode()

    board = page[page.index('<table class="ttt-board') : page.index("</table>", page.index('<table class="ttt-board'))]
    cells = re.findall(r'<td class="([^"]*)"[^>]*>([XO]?)</td>', board)
    assert [mark or "." for _, mark in cells] == list("XXXOO....")
    highlighted = [i for i, (classes, _) in enumerate(cells) if "ttt-win" in classes.split()]
    assert highlighted == [0, 1, 2]
    assert "<code>XXXOO....</code>" in page
    assert "X won with the highlighted line" in page
    assert "<script" not in board
    assert "games/admin.css" in page


def test_the_board_of_a_resigned_game_says_how_it_ended(admin_client, user):
    alice = Player(user=user)
    game = services.game_resign(game_id=_game_against_ai(alice, cells=[4]).pk, player=alice)

    page = admin_client.get(_change_url(game)).content.decode()

    assert "O won by resignation." in page
    assert "ttt-win" not in page


def test_the_change_page_lists_the_moves_read_only(admin_client, user, bob):
    game = _game_between(user, bob, [4, 0, 8])

    page = admin_client.get(_change_url(game)).content.decode()

    inline = page[page.index('id="moves-group"') :]
    inline = inline[: inline.index("</fieldset>")]
    rows = re.findall(r'<tr class="form-row[^"]*"[^>]*>(.*?)</tr>', inline, re.S)
    assert len(rows) == 3

    def columns(row):
        cells = re.findall(r'<td class="field-(\w+)">(.*?)</td>', row, re.S)
        return {name: re.sub(r"<[^>]+>", "", text).strip() for name, text in cells}

    assert [columns(row) | {"created_at": ""} for row in rows] == [
        {"ply": "0", "mark": "X", "cell": "4", "row_and_column": "row 2, column 2", "created_at": ""},
        {"ply": "1", "mark": "O", "cell": "0", "row_and_column": "row 1, column 1", "created_at": ""},
        {"ply": "2", "mark": "X", "cell": "8", "row_and_column": "row 3, column 3", "created_at": ""},
    ]
    assert all(columns(row)["created_at"] for row in rows)  # the time each was played
    inputs = re.findall(r"<(?:input|select|textarea)\b[^>]*>", "".join(rows))
    assert inputs and all('type="hidden"' in tag for tag in inputs)  # only the formset's own ids
    assert 'name="moves-MAX_NUM_FORMS" value="0"' in page  # the admin's script adds no "Add another" row
    assert "DELETE" not in inline


def test_the_game_cannot_be_edited_by_hand(admin_client, user, bob):
    game = _game_between(user, bob, [4, 0])

    page = admin_client.get(_change_url(game)).content.decode()
    response = admin_client.post(
        _change_url(game), {"status": "finished", "result": "x_won", "move_count": "9", "variant": "5x5"}
    )

    assert 'name="_save"' not in page
    assert "Time control" in page and "No limit" in page  # shown, not editable
    for field in ("status", "result", "termination", "move_count", "finished_at", "variant", "deadline", "draw_offer"):
        assert f'name="{field}"' not in page
    assert response.status_code == 403
    game.refresh_from_db()
    assert (game.status, game.result, game.move_count, game.variant) == (Status.IN_PROGRESS, "", 2, "3x3")
    assert Move.objects.filter(game=game).count() == 2


def test_games_cannot_be_added_in_the_admin(admin_client, user):
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403
    posted = admin_client.post(
        reverse("admin:games_game_add"), {"x_player": user.pk, "status": "finished", "result": "x_won"}
    )
    assert posted.status_code == 403 and not Game.objects.exists()
    assert "Add game" not in admin_client.get(CHANGELIST).content.decode()


def test_the_abort_action_aborts_only_unfinished_games(admin_client, user, bob):
    unfinished = [_game_between(user, bob, [4]), _game_against_ai(Player(user=user))]
    finished = _game_between(user, bob, [0, 3, 1, 4, 2])

    response = admin_client.post(
        CHANGELIST,
        {"action": "abort_unfinished", "_selected_action": [g.pk for g in [*unfinished, finished]]},
        follow=True,
    )

    assert response.status_code == 200
    assert "Aborted 2 games; 1 was already over and was left alone." in response.content.decode()
    for game in unfinished:
        game.refresh_from_db()
        assert game.status == Status.ABORTED and game.finished_at is not None
    finished.refresh_from_db()
    assert (finished.status, finished.result) == (Status.FINISHED, "x_won")


def test_aborting_only_finished_games_changes_nothing_and_says_so(admin_client, user, bob):
    finished = _game_between(user, bob, [0, 3, 1, 4, 2])

    response = admin_client.post(
        CHANGELIST, {"action": "abort_unfinished", "_selected_action": [finished.pk]}, follow=True
    )

    assert "Aborted 0 games; 1 was already over and was left alone." in response.content.decode()
    finished.refresh_from_db()
    assert finished.status == Status.FINISHED


# -- who may come in ---------------------------------------------------------------------


@pytest.mark.parametrize("url", [CHANGELIST, "/admin/auth/user/"])
def test_a_player_who_is_not_staff_is_sent_to_the_admin_login(client_logged_in, url):
    response = client_logged_in.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/?next=")


def test_a_visitor_is_sent_to_the_admin_login(client, user, bob):
    game = _game_between(user, bob, [4])
    response = client.get(_change_url(game))
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


# -- users and their games --------------------------------------------------------------


def _user_row(page, username):
    match = re.search(rf"<tr>(?:(?!</tr>).)*>{username}</a></th>.*?</tr>", page, re.S)
    assert match, f"no row for {username}"
    return match.group(0)


def test_the_user_list_counts_each_users_games_and_links_to_them(admin_client, user, bob):
    _game_between(user, bob, [4])
    _game_between(bob, user, [0])
    _game_against_ai(Player(user=user))

    page = admin_client.get("/admin/auth/user/").content.decode()

    alice_row = _user_row(page, "alice")
    assert ">3 games</a>" in alice_row
    assert ">2 games</a>" in _user_row(page, "bob")
    assert ">0 games</a>" in _user_row(page, "admin")
    link = re.search(r'href="([^"]*\?player=\d+)"', alice_row).group(1).replace("&amp;", "&")
    assert link == f"{CHANGELIST}?player={user.pk}"
    assert len(_changelist_ids(admin_client.get(link))) == 3


def test_the_user_list_costs_the_same_queries_for_one_user_as_for_many(admin_client, django_user_model, user, bob):
    _game_between(user, bob, [4])
    with CaptureQueriesContext(connection) as few:
        admin_client.get("/admin/auth/user/")
    for i in range(15):
        player = django_user_model.objects.create_user(username=f"player{i}", password="x")
        _game_between(player, user, [i % 9])
    with CaptureQueriesContext(connection) as many:
        page = admin_client.get("/admin/auth/user/").content.decode()
    assert ">16 games</a>" in _user_row(page, "alice")
    assert len(many) == len(few)


def test_the_user_page_links_to_the_users_games(admin_client, user, bob):
    _game_between(user, bob, [4])

    page = admin_client.get(reverse("admin:auth_user_change", args=[user.pk])).content.decode()

    assert f'href="{CHANGELIST}?player={user.pk}">1 game</a>' in page


def test_users_can_still_be_sorted_by_games_played(admin_client, user, bob):
    _game_between(user, bob, [4])
    _game_against_ai(Player(user=user))
    page = admin_client.get("/admin/auth/user/", {"o": "-6"}).content.decode()
    order = [m for m in re.findall(r">(alice|bob|admin)</a></th>", page)]
    assert order == ["alice", "bob", "admin"]


def test_challenges_are_listed_for_staff_and_cannot_be_edited(admin_client, django_user_model):
    alice = django_user_model.objects.create_user("challenger1", password="x")
    django_user_model.objects.create_user("target1", password="x")
    lobby_services.challenge_create(challenger=alice, kind="direct", opponent_username="target1", move_time_limit=60)
    page = admin_client.get("/admin/games/challenge/?q=target1")
    assert page.status_code == 200
    html = page.content.decode()
    assert "challenger1" in html and "1 minute" in html
    assert admin_client.get("/admin/games/challenge/add/").status_code == 403
    posted = admin_client.post("/admin/games/challenge/add/", {"challenger": alice.pk, "kind": "open"})
    assert posted.status_code == 403
    assert "0 of 1 selected" in admin_client.get("/admin/games/challenge/").content.decode()  # still just the one


def test_staff_cannot_delete_games_only_abort_them(admin_client, user):
    game = services.game_create_against_ai(player=Player(user=user), seed=1)
    assert admin_client.get(f"/admin/games/game/{game.pk}/delete/").status_code == 403
    assert admin_client.post(f"/admin/games/game/{game.pk}/delete/", {"post": "yes"}).status_code == 403
    # The bulk delete action is not offered, and asking for it by name does nothing.
    bulk = admin_client.post(
        CHANGELIST, {"action": "delete_selected", "_selected_action": [game.pk], "post": "yes"}, follow=True
    )
    assert '<li class="warning">No action selected.</li>' in bulk.content.decode()
    assert Game.objects.filter(pk=game.pk).exists()
    actions = admin_client.get("/admin/games/game/").content.decode()
    assert "delete_selected" not in actions and "abort_unfinished" in actions


def test_a_game_shows_its_time_control_and_both_clocks(admin_client, user, bob):
    game = human_game(user, bob, cells=[4, 0], time_control="3+2")
    page = admin_client.get(_change_url(game)).content.decode()
    assert "3+2 (3 minutes + 2 s a move)" in page
    assert "X&#x27;s clock" in page and "3:00" in page


def test_reviews_are_listed_for_staff_and_cannot_be_edited(admin_client, user, bob, reviewed):
    game = reviewed(human_game(user, bob, [2, 1, 4, 0, 7, 6, 3, 5, 8]))  # a blunder, an inaccuracy, a mistake
    listed = admin_client.get("/admin/games/gamereview/").content.decode()
    assert f"Game {game.pk}: alice vs bob" in listed
    assert "6 best, 1 inaccuracy, 1 mistake, 1 blunder" in listed
    page = admin_client.get(reverse("admin:games_gamereview_change", args=[game.pk]))
    assert page.status_code == 200 and "Decided by move" in page.content.decode()
    assert admin_client.get("/admin/games/gamereview/add/").status_code == 403
    changed = admin_client.post(reverse("admin:games_gamereview_change", args=[game.pk]), {"review": "{}"})
    assert changed.status_code == 403


def test_a_games_page_shows_the_moves_taken_back_and_by_whom(admin_client, user):
    game = services.game_create_against_ai(player=Player(user=user), side="X", level="easy", seed=3)
    services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    offers.game_take_back_against_ai(game_id=game.pk, player=Player(user=user))
    html = admin_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "Takebacks" in html
    text = re.sub(r"\s+", " ", html)
    assert '<td class="field-cells"> <p>[4, ' in text and '<td class="field-side"> <p>X</p> </td>' in text


def test_notifications_are_in_the_admin_to_look_through(admin_client, user, bob):
    lobby_services.challenge_create(challenger=bob, kind="direct", opponent_username=user.username)
    html = admin_client.get(reverse("admin:games_notification_changelist")).content.decode()
    assert "bob challenges you" in html
