"""Playing other people through the pages: the lobby, challenges, invite links,
and the game page's clock, abort, rematch and spectator views."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.lobby import services
from games.lobby.models import Challenge
from games.play import services as play_services
from games.play.models import Game
from games.play.players import Player
from tests.factories import time_passes
from tests.web.pages import messages_shown, signed_in, visible_text

pytestmark = pytest.mark.django_db


def _client(client, user):
    client.force_login(user)
    return client


def _marks(response) -> str:
    labels = re.findall(r'aria-label="Row \d+, column \d+, (empty|X|O)', response.content.decode())
    return "".join("." if label == "empty" else label for label in labels)


def _game(alice, bob, **kwargs) -> Game:
    """A game between people with alice as X."""
    challenge = services.challenge_create(challenger=alice, side="X", **kwargs)
    return services.challenge_accept(user=bob, challenge_id=challenge.pk)


def _finished(alice, bob) -> Game:
    """Bob resigns after a move each."""
    game = _game(alice, bob)
    for ply, (player, cell) in enumerate([(alice, 4), (bob, 0)]):
        play_services.game_play_move(game_id=game.pk, player=Player(user=player), cell=cell, ply=ply)
    return play_services.game_resign(game_id=game.pk, player=Player(user=bob))


# -- the lobby ----------------------------------------------------------------------------


def test_the_lobby_needs_sign_in_and_is_in_the_nav(client, user):
    response = client.get(reverse("games:lobby"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert 'href="/lobby/"' not in client.get(reverse("games:home")).content.decode()
    client.force_login(user)
    assert 'href="/lobby/"' in client.get(reverse("games:home")).content.decode()
    assert "Nobody is waiting for a game right now" in visible_text(client.get(reverse("games:lobby")))


def test_the_lobby_lists_challenges_by_who_may_answer_them(client, user, bob, carol):
    from_bob = services.challenge_create(challenger=bob, kind="open", variant="4x4", side="X", time_control="3+2")
    to_alice = services.challenge_create(challenger=carol, kind="direct", opponent_username="alice")
    to_bob = services.challenge_create(challenger=carol, kind="direct", opponent_username="bob")
    link = services.challenge_create(challenger=user, kind="link")
    mine = services.challenge_create(challenger=user, kind="open", side="O")
    game = _game(bob, carol)
    play_services.game_play_move(game_id=game.pk, player=Player(user=bob), cell=4, ply=0)

    response = _client(client, user).get(reverse("games:lobby"))
    text = visible_text(response)
    html = response.content.decode()
    # Challenges for alice: carol's, with Accept and Decline.
    assert "Challenges for you carol challenges you" in text
    assert reverse("games:challenge_decline", args=[to_alice.pk]) in html
    # Bob's open challenge: the terms from alice's side, and an Accept button.
    assert re.search(r"bob 4×4, four in a row · you play O · 3\+2 · just now Accept", text)
    assert 'title="3+2 (3 minutes + 2 s a move)"' in html  # the time control in full, on hover
    assert reverse("games:challenge_accept", args=[from_bob.pk]) in html
    # Alice's own challenges are hers to cancel, the invite link in full to copy.
    assert "In the lobby, waiting for anyone" in text and "Invite link" in text
    assert f'value="http://testserver/challenges/{link.token}/"' in html
    assert reverse("games:challenge_cancel", args=[mine.pk]) in html
    assert reverse("games:challenge_accept", args=[mine.pk]) not in html
    # Someone else's direct challenge is nobody else's business.
    assert to_bob.get_absolute_url() not in html and reverse("games:challenge_accept", args=[to_bob.pk]) not in html
    # The game between bob and carol, to watch.
    assert "X bob vs O carol 3×3, three in a row · no time limit · 1 move Watch" in text
    assert game.get_absolute_url() in html


def test_the_lobby_lists_alone_for_the_script(client, user, bob):
    services.challenge_create(challenger=bob)
    response = _client(client, user).get(reverse("games:lobby"), HTTP_X_PARTIAL="1")
    html = response.content.decode()
    assert html.lstrip().startswith('<div class="lobby__lists" id="lobby-lists">')
    assert "<html" not in html and "bob" in html


def test_the_lobby_takes_as_many_queries_for_many_challenges_and_games(client, user, django_user_model):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("games:lobby")).status_code == 200
        return len(captured)

    _client(client, user)
    others = [django_user_model.objects.create_user(f"player{i}", password="x") for i in range(6)]
    services.challenge_create(challenger=others[0])
    services.challenge_create(challenger=others[1], kind="direct", opponent_username="alice")
    services.challenge_create(challenger=user, kind="link")
    _game(others[2], others[3])
    few = queries()
    for i, other in enumerate(others):
        services.challenge_create(challenger=other, kind="open", variant="5x5")
        services.challenge_create(challenger=other, kind="direct", opponent_username="alice")
        services.challenge_create(challenger=user, kind="direct", opponent_username=other.username)
        game = _game(other, others[(i + 1) % len(others)])
        play_services.game_play_move(game_id=game.pk, player=Player(user=other), cell=0, ply=0)
    assert queries() == few


# -- making challenges --------------------------------------------------------------------


def _post_challenge(client, **fields):
    data = {"variant": "3x3", "side": "X", "kind": "open", "opponent_username": "", "time_control": "none", **fields}
    return client.post(reverse("games:challenge_new"), data)


def test_an_open_challenge_from_the_form_waits_in_the_lobby(client, user, bob):
    response = _post_challenge(_client(client, user), variant="5x5", side="O", time_control="5+3")
    assert response.status_code == 302 and response["Location"] == reverse("games:lobby")
    challenge = Challenge.objects.get()
    assert (challenge.kind, challenge.variant, challenge.challenger_side, challenge.time_control.key) == (
        "open",
        "5x5",
        "O",
        "5+3",
    )
    assert (challenge.clock_initial, challenge.clock_increment, challenge.move_time_limit) == (300, 3, None)
    assert "Your challenge is in the lobby" in messages_shown(client.get(reverse("games:lobby")))
    # Bob sees alice's challenge from his side: he would play X.
    bobs_lobby = visible_text(signed_in(bob).get(reverse("games:lobby")))
    assert "alice 5×5, four in a row · you play X · 5+3 · just now Accept" in bobs_lobby


def test_a_message_waits_through_requests_that_show_none_and_is_shown_once(client, user, bob):
    """The message store is opened only by what uses it: the API or /healthz/
    asked in between neither show the message nor lose it."""
    response = _post_challenge(_client(client, user), kind="direct", opponent_username="bob", time_control="1d")
    assert response.status_code == 302
    assert client.get("/healthz/").status_code == 200
    assert client.get("/api/games/").status_code == 200
    assert "Challenge sent to bob." in messages_shown(client.get(reverse("games:lobby")))
    assert "Challenge sent to bob." not in messages_shown(client.get(reverse("games:lobby")))


def test_a_challenge_to_a_named_player_reaches_only_them(client, user, bob, carol):
    response = _post_challenge(_client(client, user), kind="direct", opponent_username=" bob ", time_control="1d")
    assert response.status_code == 302
    assert "Challenge sent to bob." in messages_shown(client.get(reverse("games:lobby")))
    assert "alice challenges you 3×3, three in a row · you play O · 1 day per move" in visible_text(
        signed_in(bob).get(reverse("games:lobby"))
    )
    assert "alice" not in visible_text(signed_in(carol).get(reverse("games:lobby"))).replace("carol", "")


def test_an_invite_link_challenge_shows_its_link_to_copy(client, user):
    response = _post_challenge(_client(client, user), kind="link")
    challenge = Challenge.objects.get()
    assert response["Location"] == challenge.get_absolute_url()
    page = client.get(challenge.get_absolute_url())
    assert f'value="http://testserver/challenges/{challenge.token}/"' in page.content.decode()
    assert "Send this link to the person you want to play" in visible_text(page)
    assert "Cancel the challenge" in visible_text(page)
    # A read-only field to select by hand, and a button copy.js brings in to copy it.
    html = page.content.decode()
    assert re.search(r'<input id="invite-link" type="text" readonly value="[^"]+" data-copy>', html)
    assert 'data-copy-button aria-controls="invite-link">Copy link</button>' in html
    assert "games/copy.js" in html


@pytest.mark.parametrize(
    "fields, field_error",
    [
        ({"kind": "direct", "opponent_username": "nobody"}, "There is no player called &#x27;nobody&#x27;."),
        ({"kind": "direct", "opponent_username": "alice"}, "You cannot challenge yourself."),
        ({"kind": "direct", "opponent_username": ""}, "Enter the username of the player you want to challenge."),
        ({"variant": "9x9"}, "Select a valid choice. 9x9 is not one of the available choices."),
        ({"time_control": "7"}, "Select a valid choice. 7 is not one of the available choices."),
    ],
)
def test_a_bad_challenge_is_shown_on_the_form_and_nothing_is_stored(client, user, fields, field_error):
    response = _post_challenge(_client(client, user), **fields)
    assert response.status_code == 400
    html = response.content.decode()
    assert field_error in html
    # The field at fault, and only that one, is marked invalid for screen readers.
    (at_fault,) = (name for name in fields if name != "kind")
    invalid = re.findall(r'<(?:input|select)[^>]*\bname="(\w+)"[^>]*aria-invalid="true"', html)
    assert set(invalid) == {at_fault}, invalid
    assert Challenge.objects.count() == 0


def test_the_form_offers_the_time_controls_and_a_custom_clock(client, user):
    html = _client(client, user).get(reverse("games:challenge_new")).content.decode()
    offered = re.findall(r'name="time_control" value="([^"]+)"', html)
    assert offered == ["1+0", "3+2", "5+3", "10+5", "1d", "3d", "7d", "none", "custom"]
    assert re.search(r'name="time_control" value="none"[^>]*checked', html)  # no limit unless asked
    assert "<span>3+2</span>" in html and "<span>7 days a move</span>" in html
    assert "3+2 is 3 minutes each for the whole game, and 2 seconds more after each move." in html
    assert 'name="clock_minutes"' in html and 'name="clock_increment"' in html


def test_a_custom_clock_makes_a_challenge_at_that_time_control(client, user, bob):
    response = _post_challenge(_client(client, user), time_control="custom", clock_minutes="7", clock_increment="4")
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.clock_initial, challenge.clock_increment, challenge.time_control.key) == (420, 4, "7+4")
    assert "alice 3×3, three in a row · you play O · 7+4" in visible_text(signed_in(bob).get(reverse("games:lobby")))
    # An increment left empty is none.
    _post_challenge(client, time_control="custom", clock_minutes="2", clock_increment="")
    assert Challenge.objects.latest("pk").time_control.key == "2+0"


@pytest.mark.parametrize(
    "fields, field, error",
    [
        ({"clock_minutes": ""}, "clock_minutes", "Enter the minutes on each clock for a custom clock."),
        ({"clock_minutes": "0"}, "clock_minutes", "Ensure this value is greater than or equal to 1."),
        ({"clock_minutes": "181"}, "clock_minutes", "Ensure this value is less than or equal to 180."),
        ({"clock_minutes": "3", "clock_increment": "61"}, "clock_increment", "less than or equal to 60."),
    ],
)
def test_a_bad_custom_clock_is_shown_on_the_form_and_nothing_is_stored(client, user, fields, field, error):
    response = _post_challenge(_client(client, user), time_control="custom", **fields)
    assert response.status_code == 400
    html = response.content.decode()
    assert error in html
    invalid = re.findall(r'<(?:input|select)[^>]*\bname="(\w+)"[^>]*aria-invalid="true"', html)
    assert invalid == [field]
    assert not Challenge.objects.exists()


def test_a_challenge_without_a_time_control_has_no_limit(client, user):
    data = {"variant": "3x3", "side": "X", "kind": "open"}  # an old form, or a client that leaves it out
    assert _client(client, user).post(reverse("games:challenge_new"), data).status_code == 302
    assert Challenge.objects.get().time_control.kind == "none"


def test_the_username_error_sits_next_to_the_username_field(client, user):
    html = _post_challenge(_client(client, user), kind="direct", opponent_username="nobody").content.decode()
    field = html[html.index('class="challenge-form__opponent"') : html.index("Time control")]
    assert "no player called" in field and 'aria-invalid="true"' in field


def test_making_a_challenge_needs_sign_in(client):
    response = _post_challenge(client)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert Challenge.objects.count() == 0


# -- answering challenges -------------------------------------------------------------------


def test_accepting_from_the_lobby_starts_the_game_for_both(client, user, bob):
    challenge = services.challenge_create(challenger=bob, side="O")
    response = _client(client, user).post(reverse("games:challenge_accept", args=[challenge.pk]))
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert (game.x_player, game.o_player) == (user, bob)
    assert "Your turn" in visible_text(client.get(game.get_absolute_url()))
    assert "Waiting for alice" in visible_text(signed_in(bob).get(game.get_absolute_url()))


def test_your_own_challenge_cannot_be_accepted(client, user):
    challenge = services.challenge_create(challenger=user)
    response = _client(client, user).post(reverse("games:challenge_accept", args=[challenge.pk]), follow=True)
    assert "Could not accept: you cannot accept your own challenge." in messages_shown(response)
    assert Game.objects.count() == 0


def test_a_challenge_is_accepted_once(client, user, bob, carol):
    challenge = services.challenge_create(challenger=bob)
    signed_in(carol).post(reverse("games:challenge_accept", args=[challenge.pk]))
    response = _client(client, user).post(reverse("games:challenge_accept", args=[challenge.pk]), follow=True)
    assert "Could not accept: this challenge is accepted already." in messages_shown(response)
    assert Game.objects.count() == 1 and Game.objects.get().o_player != user and Game.objects.get().x_player != user


def test_a_challenge_for_someone_else_cannot_be_accepted_or_declined(client, user, bob, carol):
    challenge = services.challenge_create(challenger=bob, kind="direct", opponent_username="carol")
    _client(client, user)
    response = client.post(reverse("games:challenge_accept", args=[challenge.pk]), follow=True)
    assert "Could not accept: this challenge was sent to someone else." in messages_shown(response)
    response = client.post(reverse("games:challenge_decline", args=[challenge.pk]), follow=True)
    assert "Could not decline: only the player a challenge was sent to can decline it." in messages_shown(response)
    challenge.refresh_from_db()
    assert challenge.status == "open" and Game.objects.count() == 0


def test_an_invite_link_cannot_be_accepted_by_its_number(client, user, bob):
    challenge = services.challenge_create(challenger=bob, kind="link")
    response = _client(client, user).post(reverse("games:challenge_accept", args=[challenge.pk]), follow=True)
    assert "accepted through its invite link" in messages_shown(response)
    assert Game.objects.count() == 0


def test_declining_a_challenge_sent_to_you(client, user, bob):
    challenge = services.challenge_create(challenger=bob, kind="direct", opponent_username="alice")
    response = _client(client, user).post(reverse("games:challenge_decline", args=[challenge.pk]), follow=True)
    assert "Challenge declined." in messages_shown(response)
    assert "bob challenges you" not in visible_text(response)
    challenge.refresh_from_db()
    assert challenge.status == "declined"
    again = client.post(reverse("games:challenge_decline", args=[challenge.pk]), follow=True)
    assert "Could not decline: this challenge is declined already." in messages_shown(again)


def test_a_decline_picks_a_reason_and_the_challenger_reads_it_in_the_lobby(client, user, bob):
    challenge = services.challenge_create(challenger=user, kind="direct", opponent_username="bob")
    _client(client, bob)
    page = client.get(reverse("games:lobby"))
    assert '<option value="later">Not now, maybe later</option>' in page.content.decode()
    client.post(reverse("games:challenge_decline", args=[challenge.pk]), {"reason": "later"})

    response = _client(client, user).get(reverse("games:lobby"))
    assert "bob declined: Not now, maybe later" in visible_text(response)


def test_a_reason_not_on_the_list_declines_nothing(client, user, bob):
    challenge = services.challenge_create(challenger=bob, kind="direct", opponent_username="alice")
    response = _client(client, user).post(
        reverse("games:challenge_decline", args=[challenge.pk]), {"reason": "rude"}, follow=True
    )

    assert "Could not decline: reason" in messages_shown(response)
    challenge.refresh_from_db()
    assert challenge.status == "open"


def test_only_the_challenger_cancels(client, user, bob):
    challenge = services.challenge_create(challenger=bob)
    response = _client(client, user).post(reverse("games:challenge_cancel", args=[challenge.pk]), follow=True)
    assert "Could not cancel: only the challenger can cancel a challenge." in messages_shown(response)
    response = signed_in(bob).post(reverse("games:challenge_cancel", args=[challenge.pk]), follow=True)
    assert "Challenge cancelled." in messages_shown(response)
    assert "Nobody is waiting for a game right now" in visible_text(client.get(reverse("games:lobby")))
    challenge.refresh_from_db()
    assert challenge.status == "cancelled"


def test_answering_needs_sign_in_and_a_real_challenge(client, user):
    challenge = services.challenge_create(challenger=user)
    for name in ("challenge_accept", "challenge_decline", "challenge_cancel"):
        response = client.post(reverse(f"games:{name}", args=[challenge.pk]))
        assert response.status_code == 302 and reverse("login") in response["Location"]
        missing = signed_in(user).post(reverse(f"games:{name}", args=[99999]))
        assert missing.status_code == 404 and "This square is empty" in missing.content.decode()
        assert signed_in(user).get(reverse(f"games:{name}", args=[challenge.pk])).status_code == 405
    challenge.refresh_from_db()
    assert challenge.status == "open"


# -- the invite link page ---------------------------------------------------------------------


def test_an_anonymous_visitor_is_asked_to_log_in_or_sign_up_and_comes_back(client, user):
    challenge = services.challenge_create(challenger=user, kind="link", side="O", move_time_limit=30)
    url = challenge.get_absolute_url()
    response = client.get(url)
    text = visible_text(response)
    assert "alice challenges you" in text
    assert "3×3, three in a row" in text and "alice plays O" in text and "30 seconds" in text
    html = response.content.decode()
    assert f'href="/accounts/login/?next=/challenges/{challenge.token}/"' in html
    assert f'href="/accounts/signup/?next=/challenges/{challenge.token}/"' in html
    # Posting without an account leads to the login page, then back.
    post = client.post(url)
    assert post.status_code == 302 and post["Location"] == f"/accounts/login/?next=/challenges/{challenge.token}/"
    # Signing up comes back to the invite.
    response = client.post(
        f"/accounts/signup/?next={url}",
        {"username": "newcomer", "password1": "a-long-passphrase-42", "password2": "a-long-passphrase-42", "next": url},
    )
    assert response.status_code == 302 and response["Location"] == url
    assert "Accept and play" in visible_text(client.get(url))


def test_the_signup_page_ignores_a_next_that_leaves_the_site(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "password1": "a-long-passphrase-42",
            "password2": "a-long-passphrase-42",
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == reverse("games:home")


def test_another_player_accepts_an_invite_link_and_plays(client, user, bob):
    challenge = services.challenge_create(challenger=user, kind="link", side="X")
    _client(client, bob)
    assert "Accept and play" in visible_text(client.get(challenge.get_absolute_url()))
    response = client.post(challenge.get_absolute_url())
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert (game.x_player, game.o_player) == (user, bob)


def test_an_accepted_invite_links_to_the_game(client, user, bob, carol):
    challenge = services.challenge_create(challenger=user, kind="link")
    game = services.challenge_accept(user=bob, token=challenge.token)
    page = _client(client, carol).get(challenge.get_absolute_url())
    assert "This challenge was accepted by bob." in visible_text(page)
    assert f'href="{game.get_absolute_url()}"' in page.content.decode() and "Watch the game" in visible_text(page)
    assert "Go to the game" in visible_text(signed_in(bob).get(challenge.get_absolute_url()))
    response = client.post(challenge.get_absolute_url(), follow=True)
    assert "Could not accept: this challenge is accepted already." in messages_shown(response)


def test_a_cancelled_or_declined_invite_says_so(client, user, bob):
    cancelled = services.challenge_create(challenger=user, kind="link")
    services.challenge_cancel(user=user, challenge_id=cancelled.pk)
    assert "alice cancelled this challenge." in visible_text(client.get(cancelled.get_absolute_url()))
    declined = services.challenge_create(challenger=user, kind="direct", opponent_username="bob")
    services.challenge_decline(user=bob, challenge_id=declined.pk)
    page = client.get(declined.get_absolute_url())
    assert "This challenge was declined by bob." in visible_text(page) and "Accept" not in visible_text(page)


def test_an_unknown_invite_is_a_404(client):
    response = client.get(reverse("games:challenge", args=["no-such-token"]))
    assert response.status_code == 404
    assert "This square is empty" in response.content.decode()  # the site's own 404 page


# -- the game page between people -------------------------------------------------------------


def test_players_see_whose_turn_it_is_by_name_and_no_ai_help(client, user, bob):
    game = _game(user, bob)
    page = _client(client, user).get(game.get_absolute_url())
    html = page.content.decode()
    assert "Your turn" in visible_text(page)
    assert 'data-live="1"' in html and f'data-ws-url="/ws/games/{game.pk}/"' in html
    assert "Hint" not in visible_text(page) and "AI's thinking" not in visible_text(page)
    assert "Waiting for alice X" in visible_text(signed_in(bob).get(game.get_absolute_url()))


def test_a_spectator_sees_a_read_only_board_that_follows_the_game(client, user, bob, carol):
    game = _game(user, bob)
    play_services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    page = _client(client, carol).get(game.get_absolute_url())
    html = page.content.decode()
    assert _marks(page) == "....X...."
    assert "O to move" in visible_text(page) and "Your turn" not in visible_text(page)
    assert len(re.findall(r'<button type="submit" name="cell"[^>]*\bdisabled\b', html)) == 9
    assert "Resign" not in visible_text(page) and "Abort" not in visible_text(page)
    assert 'data-live="1"' in html
    refused = client.post(reverse("games:move", args=[game.pk]), {"cell": "0", "ply": "1"}, HTTP_X_PARTIAL="1")
    assert refused.status_code == 403 and _marks(refused) == "....X...."


def test_anonymous_visitors_see_games_but_must_sign_in_for_live_updates(client, user, bob):
    game = _game(user, bob)
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200 and 'data-live="1"' not in page.content.decode()
    assert "Log in to follow this game live" in visible_text(page)
    finished = _finished(user, bob)
    page = client.get(finished.get_absolute_url())
    assert "X won by resignation" in visible_text(page) and "Log in to follow" not in visible_text(page)


def test_the_deadline_is_shown_and_the_waiting_player_claims_the_win(client, user, bob):
    game = _game(user, bob, move_time_limit=30)
    for ply, (player, cell) in enumerate([(user, 4), (bob, 0), (user, 8)]):
        play_services.game_play_move(game_id=game.pk, player=Player(user=player), cell=cell, ply=ply)
    game.refresh_from_db()
    page = _client(client, user).get(game.get_absolute_url())
    deadline = game.deadline
    assert f"O must move by {deadline:%H:%M:%S} UTC" in visible_text(page)
    assert f'data-deadline="{deadline.isoformat()}"' in page.content.decode()
    assert "Claim the win" not in visible_text(page)
    refused = client.post(reverse("games:claim_timeout", args=[game.pk]), follow=True)
    assert "No win on time: your opponent still has time to move." in messages_shown(refused)

    time_passes(game, 31)
    page = client.get(game.get_absolute_url())
    assert "O ran out of time" in visible_text(page) and "Claim the win" in visible_text(page)
    assert "Claim the win" not in visible_text(signed_in(bob).get(game.get_absolute_url()))
    response = client.post(reverse("games:claim_timeout", args=[game.pk]), follow=True)
    assert "You won on time." in messages_shown(response)
    assert "You won! on time" in visible_text(response)
    game.refresh_from_db()
    assert (game.result, game.termination) == ("x_won", "timeout")


def test_a_first_move_never_made_ends_the_game_aborted_and_the_page_says_so(client, user, bob):
    game = _game(user, bob, move_time_limit=30)
    page = _client(client, bob).get(game.get_absolute_url())
    assert "X must make a first move by" in visible_text(page) and "or the game is aborted" in visible_text(page)
    time_passes(game, 31)
    response = client.post(reverse("games:claim_timeout", args=[game.pk]), follow=True)
    assert "The game is aborted: your opponent never made a first move." in messages_shown(response)
    assert "Game aborted" in visible_text(response)


def test_only_a_player_to_wait_for_claims(client, user, bob, carol):
    game = _game(user, bob, move_time_limit=30)
    time_passes(game, 5 * 60)
    response = signed_in(user).post(reverse("games:claim_timeout", args=[game.pk]), follow=True)
    assert "No win on time: it is your own turn" in messages_shown(response)
    response = _client(client, carol).post(reverse("games:claim_timeout", args=[game.pk]), follow=True)
    assert "No win on time: you are not playing in this game." in messages_shown(response)
    assert Game.objects.get(pk=game.pk).status == "in_progress"
    missing = client.post(reverse("games:claim_timeout", args=[99999]))
    assert missing.status_code == 404 and "This square is empty" in missing.content.decode()


def test_a_game_can_be_aborted_before_the_second_move_only(client, user, bob):
    game = _game(user, bob)
    _client(client, bob)
    assert "Abort" in visible_text(client.get(game.get_absolute_url()))
    play_services.game_play_move(game_id=game.pk, player=Player(user=user), cell=4, ply=0)
    response = client.post(reverse("games:abort", args=[game.pk]), follow=True)
    assert "The game was aborted." in messages_shown(response) and "Game aborted" in visible_text(response)

    later = _game(user, bob)
    play_services.game_play_move(game_id=later.pk, player=Player(user=user), cell=4, ply=0)
    play_services.game_play_move(game_id=later.pk, player=Player(user=bob), cell=0, ply=1)
    assert "Abort" not in visible_text(client.get(later.get_absolute_url()))
    response = client.post(reverse("games:abort", args=[later.pk]), follow=True)
    assert "Could not abort: a game can only be aborted before its second move" in messages_shown(response)
    assert Game.objects.get(pk=later.pk).status == "in_progress"


def test_a_rematch_is_offered_accepted_and_both_go_to_the_new_game(client, user, bob):
    game = _finished(user, bob)
    alice = _client(client, user)
    assert "Offer a rematch" in visible_text(alice.get(game.get_absolute_url()))
    response = alice.post(reverse("games:rematch_offer", args=[game.pk]), follow=True)
    assert "Rematch offered." in messages_shown(response)
    assert "Withdraw the rematch offer" in visible_text(response)
    bobs = signed_in(bob)
    page = bobs.get(game.get_absolute_url())
    assert "alice offers a rematch, sides swapped." in visible_text(page)
    assert "Accept rematch" in visible_text(page) and "Decline" in visible_text(page)
    response = bobs.post(reverse("games:rematch_accept", args=[game.pk]))
    rematch = Game.objects.get(rematch_of=game)
    assert response["Location"] == rematch.get_absolute_url()
    assert (rematch.x_player, rematch.o_player) == (bob, user)
    assert "Go to the rematch" in visible_text(alice.get(game.get_absolute_url()))
    again = bobs.post(reverse("games:rematch_accept", args=[game.pk]), follow=True)
    assert "There is no rematch offer waiting." in messages_shown(again)


def test_a_rematch_offer_can_be_declined_or_withdrawn(client, user, bob):
    game = _finished(user, bob)
    alice, bobs = _client(client, user), signed_in(bob)
    alice.post(reverse("games:rematch_offer", args=[game.pk]))
    response = bobs.post(reverse("games:rematch_decline", args=[game.pk]), follow=True)
    assert "Rematch declined." in messages_shown(response) and "Offer a rematch" in visible_text(response)
    page = alice.get(game.get_absolute_url())
    assert "Your opponent declined the rematch." in visible_text(page) and "Offer a rematch" in visible_text(page)
    alice.post(reverse("games:rematch_offer", args=[game.pk]))
    response = alice.post(reverse("games:rematch_cancel", args=[game.pk]), follow=True)
    assert "Rematch offer withdrawn." in messages_shown(response)
    assert Game.objects.filter(rematch_of=game).count() == 0
    assert list(Challenge.objects.filter(rematch_of=game).values_list("status", flat=True)) == [
        "cancelled",
        "declined",
    ]


def test_a_rematch_cannot_be_offered_mid_game_or_by_a_spectator(client, user, bob, carol):
    game = _game(user, bob)
    response = _client(client, user).post(reverse("games:rematch_offer", args=[game.pk]), follow=True)
    assert "No rematch: finish this game first." in messages_shown(response)
    finished = _finished(user, bob)
    response = signed_in(carol).post(reverse("games:rematch_offer", args=[finished.pk]), follow=True)
    assert "No rematch: only a player can offer a rematch." in messages_shown(response)
    assert "Offer a rematch" not in visible_text(signed_in(carol).get(finished.get_absolute_url()))
    assert Challenge.objects.filter(rematch_of__isnull=False).count() == 0
