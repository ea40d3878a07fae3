"""Every form on the site is protected from cross-site requests: a POST without
the page's CSRF token is refused with the styled 403 page and stores nothing;
with the token from the page's hidden input it goes through.

The addresses are read from games/urls.py (and Django's account views), so a
form added later is walked too."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.urls.converters import IntConverter, StringConverter

from games.lobby import services
from games.lobby.models import Challenge
from games.play.models import Game, Move
from games.urls import app_name, urlpatterns

pytestmark = pytest.mark.django_db

CSRF_PAGE = "That form has expired"
#: A stand-in for each kind of path argument; the CSRF check runs before the view looks it up.
STAND_INS = {IntConverter: 999999, StringConverter: "no-such-thing"}


def game_addresses() -> list[str]:
    return [pattern.name for pattern in urlpatterns]


def address(name: str) -> str:
    pattern = next(p for p in urlpatterns if p.name == name)
    kwargs = {arg: STAND_INS[type(converter)] for arg, converter in pattern.pattern.converters.items()}
    return reverse(f"{app_name}:{name}", kwargs=kwargs)


def stored() -> dict:
    """Everything a form could write."""
    return {
        "users": list(get_user_model().objects.order_by("pk").values("pk", "username", "password", "is_active")),
        "games": list(Game.objects.order_by("pk").values()),
        "moves": list(Move.objects.order_by("pk").values("game", "ply", "cell")),
        "challenges": list(Challenge.objects.order_by("pk").values()),
        "sessions": Session.objects.count(),
    }


def token_from(client, url: str) -> str:
    """The CSRF token as a page's form carries it (the cookie is HttpOnly: no script reads it)."""
    html = client.get(url).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


@pytest.fixture
def signed_in(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def assert_refused(response):
    assert response.status_code == 403
    html = response.content.decode()
    assert CSRF_PAGE in html
    assert 'class="site-header"' in html  # the site's own page, templates/403_csrf.html


# -- without the token: refused ------------------------------------------------------------


@pytest.mark.parametrize("name", game_addresses())
def test_every_address_refuses_a_post_without_the_token(signed_in, name):
    before = stored()

    assert_refused(signed_in.post(address(name), {"cell": 4, "ply": 0, "kind": "open"}))

    assert stored() == before


@pytest.mark.parametrize(
    "url_name, data",
    [
        ("login", {"username": "alice", "password": "correct-horse-battery-staple"}),
        ("password_reset", {"email": "alice@example.com"}),
    ],
)
def test_the_account_forms_refuse_a_post_without_the_token(user, url_name, data, mailoutbox):
    client = Client(enforce_csrf_checks=True)
    before = stored()

    assert_refused(client.post(reverse(url_name), data))

    assert stored() == before and not mailoutbox


@pytest.mark.parametrize(
    "url_name, data",
    [
        ("logout", {}),
        ("password_change", {"old_password": "correct-horse-battery-staple", "new_password1": "n3w-passphrase-77",
                             "new_password2": "n3w-passphrase-77"}),
    ],
)  # fmt: skip
def test_the_signed_in_account_forms_refuse_a_post_without_the_token(signed_in, url_name, data):
    before = stored()

    assert_refused(signed_in.post(reverse(url_name), data))

    assert stored() == before
    assert "_auth_user_id" in signed_in.session


def test_a_token_from_another_session_is_refused(signed_in, user):
    stranger = Client(enforce_csrf_checks=True)
    token = token_from(stranger, reverse("login"))

    assert_refused(signed_in.post(reverse("games:new"), {"csrfmiddlewaretoken": token}))
    assert not Game.objects.exists()


# -- with the token: accepted --------------------------------------------------------------


#: What each view answers an empty POST from a signed-in player once past the
#: CSRF check: a page that takes no POST is a 405, a stand-in id the styled 404,
#: a form with nothing filled in a 400 with its errors. An address added later
#: must be given its answer here.
PAST_THE_CHECK = {
    "home": 405,
    "signup": 302,  # signed in already: sent home
    "profile": 405,
    "account": 405,
    "account_games_json": 405,
    "account_games_csv": 405,
    "account_delete": 400,  # no password given
    "account_tokens": 405,
    "account_token_revoke": 302,  # a stand-in token: "revoked already", back to the list
    "account_tokens_revoke_all": 302,
    "account_bot": 302,  # a person saving bot settings: told to make the account a bot first
    "new": 400,  # no choices given
    "history": 405,
    "game": 405,
    "game_notation": 405,
    "move": 404,
    "ai_move": 404,
    "resign": 404,
    "rematch": 404,
    "draw_offer": 404,
    "draw_accept": 404,
    "draw_decline": 404,
    "takeback": 404,
    "takeback_accept": 404,
    "takeback_decline": 404,
    "lobby": 405,
    "challenge_new": 400,  # no terms given
    "quick": 400,  # no board or time control chosen
    "quick_wait": 404,  # checking in on a stand-in request
    "quick_cancel": 404,
    "challenge_accept": 404,
    "challenge_decline": 404,
    "challenge_cancel": 404,
    "challenge": 404,
    "claim_timeout": 404,
    "abort": 404,
    "rematch_offer": 404,
    "rematch_accept": 404,
    "rematch_decline": 404,
    "rematch_cancel": 404,
    "chat": 404,
    "chat_mute": 404,
    "chat_unmute": 404,
    "stats": 405,
    "leaderboard": 405,
    # Learning minimax (games/learn/): reviews that teach.
    "mistakes": 405,
    # Puzzles: solving one stores nothing, so every puzzle page is a GET.
    "puzzles": 405,
    "puzzle": 405,
    "puzzle_board": 405,
    "analysis": 405,  # the analysis board: GET only
    # The search, step by step (games/learn/tree.py): pages that only read.
    "learn": 405,
    "tree": 405,
    "tree_scoring": 405,
    "tree_download": 405,
    "tree_depth": 405,
    "tree_worksheet": 405,
    "bots": 405,
    "bot_client_file": 405,
    "notation_help": 405,
    "exam_report": 405,  # an exam's report: GET only (answers come through the API)
    "notifications": 405,
    "notifications_read": 302,  # marked read: back to the list
    "unsubscribe": 400,  # a stand-in link: not a signed one
    "account_notifications": 302,  # saved: back to the account page
    "report": 404,  # nobody named to report
}


def test_every_address_has_its_answer_past_the_check():
    assert set(PAST_THE_CHECK) == set(game_addresses())


@pytest.mark.parametrize("name", game_addresses())
def test_every_address_lets_a_post_with_the_token_through(signed_in, name):
    token = token_from(signed_in, reverse("games:new"))

    response = signed_in.post(address(name), {"csrfmiddlewaretoken": token})

    # Past the CSRF check: the view itself answers.
    html = response.content.decode()
    assert response.status_code == PAST_THE_CHECK.get(name), html[:300]
    assert CSRF_PAGE not in html
    if response.status_code == 404:
        assert "This square is empty" in html
    if response.status_code == 302:
        where = {
            "account_bot": reverse("games:account"),
            "account_notifications": reverse("games:account"),
            "notifications_read": reverse("games:notifications"),
        }.get(name)
        if where is None:
            where = reverse("games:account_tokens") if "token" in name else reverse("games:home")
        assert response["Location"] == where


def test_signing_up_with_the_token(user):
    client = Client(enforce_csrf_checks=True)
    token = token_from(client, reverse("games:signup"))

    response = client.post(
        reverse("games:signup"),
        {"username": "dora", "password1": "a-long-passphrase-77", "password2": "a-long-passphrase-77",
         "csrfmiddlewaretoken": token},
    )  # fmt: skip

    assert response.status_code == 302
    assert get_user_model().objects.filter(username="dora").exists()


def test_logging_in_and_out_with_the_token(user, password):
    client = Client(enforce_csrf_checks=True)
    token = token_from(client, reverse("login"))
    response = client.post(reverse("login"), {"username": "alice", "password": password, "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and "_auth_user_id" in client.session

    token = token_from(client, reverse("games:home"))  # the header's log-out form
    assert client.post(reverse("logout"), {"csrfmiddlewaretoken": token}).status_code == 302
    assert "_auth_user_id" not in client.session


def test_playing_with_the_token(signed_in, user):
    token = token_from(signed_in, reverse("games:new"))
    response = signed_in.post(
        reverse("games:new"),
        {"variant": "3x3", "side": "X", "level": "perfect", "start_mode": "minimax", "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    game = Game.objects.get()

    token = token_from(signed_in, game.get_absolute_url())  # the board's form
    signed_in.post(reverse("games:move", args=[game.pk]), {"cell": 4, "ply": 0, "csrfmiddlewaretoken": token})
    assert Move.objects.filter(game=game, ply=0, cell=4).exists()

    signed_in.post(reverse("games:resign", args=[game.pk]), {"csrfmiddlewaretoken": token})
    game.refresh_from_db()
    assert game.termination == "resigned"


def test_challenging_and_accepting_with_the_token(signed_in, user, bob):
    token = token_from(signed_in, reverse("games:challenge_new"))
    signed_in.post(
        reverse("games:challenge_new"), {"variant": "3x3", "side": "X", "kind": "open", "csrfmiddlewaretoken": token}
    )
    assert Challenge.objects.filter(challenger=user, status="open").exists()

    theirs = services.challenge_create(challenger=bob, side="O")
    token = token_from(signed_in, reverse("games:lobby"))
    response = signed_in.post(reverse("games:challenge_accept", args=[theirs.pk]), {"csrfmiddlewaretoken": token})

    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert response.url == game.get_absolute_url() and game.o_player == bob
