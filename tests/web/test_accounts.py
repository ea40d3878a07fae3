"""Account pages as a visitor meets them: sign up, log in and out, passwords, profile."""

import re
import unicodedata
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils.encoding import iri_to_uri

from games.accounts.usernames import skeletons

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-long-passphrase-42"


def signed_in_username(client):
    """The username the session belongs to, or None for a visitor."""
    user_id = client.session.get("_auth_user_id")
    if user_id is None:
        return None
    return get_user_model().objects.get(pk=user_id).username


# ---------- Sign up ----------


def test_signup_page_shows_the_form(client):
    response = client.get(reverse("games:signup"))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Create your account" in html
    assert 'name="username"' in html
    assert 'name="password1"' in html and 'name="password2"' in html


def test_signup_creates_the_user_logs_in_and_goes_home(client):
    response = client.post(
        reverse("games:signup"),
        {"username": "bob", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        follow=True,
    )

    assert response.redirect_chain == [(reverse("games:home"), 302)]
    assert get_user_model().objects.filter(username="bob").exists()
    assert signed_in_username(client) == "bob"
    html = response.content.decode()
    assert "Welcome, bob!" in html
    assert 'class="nav__user"' in html and ">bob</a>" in html


# A next that names no page (not a URL name either) is followed as an address,
# the way the login page follows it; one to another site is ignored.
ON_THIS_SITE = ["foo", "x y", '">', "/games/", "?page=2"]
ELSEWHERE = ["https://evil.example/", "//evil.example/", "javascript:alert(1)"]


@pytest.mark.parametrize("next_url", ON_THIS_SITE)
@pytest.mark.parametrize("method", ["get", "post"])
def test_signed_in_signup_goes_on_to_a_next_on_this_site(client_logged_in, method, next_url):
    response = getattr(client_logged_in, method)(f"{reverse('games:signup')}?{urlencode({'next': next_url})}")

    assert response.status_code == 302
    assert response["Location"] == iri_to_uri(next_url)


@pytest.mark.parametrize("next_url", ELSEWHERE)
@pytest.mark.parametrize("method", ["get", "post"])
def test_signed_in_signup_ignores_a_next_to_another_site(client_logged_in, method, next_url):
    response = getattr(client_logged_in, method)(f"{reverse('games:signup')}?{urlencode({'next': next_url})}")

    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")


@pytest.mark.parametrize("next_url", ["foo", "x y"])
def test_signup_goes_on_to_next_once_the_account_is_made(client, next_url):
    response = client.post(
        reverse("games:signup"),
        {"username": "bob", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "next": next_url},
    )

    assert response.status_code == 302 and response["Location"] == iri_to_uri(next_url)
    assert signed_in_username(client) == "bob"


def test_signup_with_an_email_lets_the_player_reset_their_password_later(client):
    client.post(
        reverse("games:signup"),
        {
            "username": "bob",
            "email": "bob@example.com",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
        },
    )
    client.post(reverse("logout"))

    client.post(reverse("password_reset"), {"email": "bob@example.com"})

    assert get_user_model().objects.get(username="bob").email == "bob@example.com"
    assert len(mail.outbox) == 1
    assert "Hello bob," in mail.outbox[0].body


def test_signup_with_a_malformed_email_is_refused(client):
    response = client.post(
        reverse("games:signup"),
        {"username": "bob", "email": "not-an-address", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert "Enter a valid email address." in response.content.decode()
    assert not get_user_model().objects.filter(username="bob").exists()


def test_signup_with_mismatched_passwords_shows_errors_and_creates_nobody(client):
    response = client.post(
        reverse("games:signup"),
        {"username": "bob", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD + "x"},
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "The two password fields didn’t match." in html
    # The error is tied to its input for screen readers.
    assert 'id="id_password2_error"' in html
    assert re.search(r'<input[^>]*aria-describedby="[^"]*id_password2_error[^"]*"[^>]*id="id_password2"', html)
    assert not get_user_model().objects.filter(username="bob").exists()
    assert signed_in_username(client) is None


def test_signup_with_a_taken_username_is_refused(client, user):
    response = client.post(
        reverse("games:signup"),
        {"username": user.username, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize(
    "lookalike",
    [
        "Alice",  # case
        "ALICE",
        "\u0430lice",  # Cyrillic а
        "\u0410LICE",  # Cyrillic А, capitals
        "\u03b1lice",  # Greek α
        "al\u0456ce",  # Cyrillic і
        "aIice",  # capital I for l
        "a1ice",  # one for l
        "\uff41lice",  # fullwidth a (NFKC)
    ],
)
def test_signup_with_a_lookalike_of_a_taken_username_is_refused(client, user, lookalike):
    response = client.post(
        reverse("games:signup"),
        {"username": lookalike, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "That username looks too much like “alice”, which is taken." in html or (
        "A user with that username already exists." in html
    )
    assert get_user_model().objects.count() == 1
    assert signed_in_username(client) is None


@pytest.mark.parametrize("name", ["alicia", "bob", "alice2", "\u0430\u043d\u043d\u0430"])  # "анна": all Cyrillic
def test_a_name_that_only_resembles_a_taken_one_is_free(client, user, name):
    client.post(reverse("games:signup"), {"username": name, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert signed_in_username(client) == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize(
    "one, other, clash",
    [
        ("\u0410lice", "alice", True),
        ("ALICE", "alice", True),
        ("aIice", "alice", True),
        ("\u041d\u041e\u041c\u0415", "HOME", True),  # Cyrillic capitals Н, О, М, Е
        ("corn", "com", True),
        ("b0b", "bob", True),
        ("bob", "rob", False),
        ("alice", "alicia", False),
    ],
)
def test_lookalike_names_share_a_skeleton(one, other, clash):
    assert bool(skeletons(one) & skeletons(other)) is clash


def test_signup_with_a_weak_password_is_refused(client):
    response = client.post(reverse("games:signup"), {"username": "bob", "password1": "123", "password2": "123"})

    assert response.status_code == 200
    assert "This password is too short." in response.content.decode()
    assert not get_user_model().objects.filter(username="bob").exists()


def test_signed_in_player_visiting_signup_goes_home(client_logged_in):
    response = client_logged_in.get(reverse("games:signup"))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")


# ---------- Log in and out ----------


def test_login_with_the_right_password_signs_in(client, user, password):
    response = client.post(reverse("login"), {"username": user.username, "password": password}, follow=True)

    assert response.redirect_chain == [(reverse("games:home"), 302)]
    assert signed_in_username(client) == user.username
    assert f">{user.username}</a>" in response.content.decode()


def test_login_follows_next(client, user, password):
    profile_url = reverse("games:profile", args=[user.username])
    response = client.post(reverse("login"), {"username": user.username, "password": password, "next": profile_url})

    assert response.status_code == 302
    assert response["Location"] == profile_url


def test_login_with_a_wrong_password_says_so(client, user):
    response = client.post(reverse("login"), {"username": user.username, "password": "nope"})

    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert signed_in_username(client) is None


def test_logout_is_a_post_that_signs_out(client_logged_in):
    response = client_logged_in.post(reverse("logout"))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:home")
    assert signed_in_username(client_logged_in) is None


def test_logout_by_get_is_refused_and_keeps_the_session(client_logged_in, user):
    response = client_logged_in.get(reverse("logout"))

    assert response.status_code == 405
    assert signed_in_username(client_logged_in) == user.username


def test_header_shows_logout_button_only_when_signed_in(client, client_logged_in):
    html = client_logged_in.get(reverse("games:home")).content.decode()
    assert f'action="{reverse("logout")}"' in html
    assert "Log out</button>" in html

    client_logged_in.logout()
    html = client.get(reverse("games:home")).content.decode()
    assert "Log out" not in html
    assert f'href="{reverse("login")}"' in html
    assert f'href="{reverse("games:signup")}"' in html


# ---------- Password change ----------


def test_password_change_needs_login(client):
    url = reverse("password_change")
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_password_change_replaces_the_password(client_logged_in, user, password):
    response = client_logged_in.post(
        reverse("password_change"),
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )

    assert response.redirect_chain == [(reverse("password_change_done"), 302)]
    assert "Password changed" in response.content.decode()
    # Still signed in after the change, and only the new password works.
    assert signed_in_username(client_logged_in) == user.username
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert not user.check_password(password)


def test_password_change_with_a_wrong_old_password_changes_nothing(client_logged_in, user, password):
    response = client_logged_in.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert "Your old password was entered incorrectly." in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(password)


# ---------- Password reset ----------


def test_password_reset_mails_a_link_that_sets_a_new_password(client, user, password):
    response = client.post(reverse("password_reset"), {"email": user.email}, follow=True)

    assert response.redirect_chain == [(reverse("password_reset_done"), 302)]
    assert "Check your e-mail" in response.content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [user.email]
    assert message.subject == "Reset your tttsite password"
    link = re.search(r"https?://testserver(/accounts/reset/\S+/)", message.body).group(1)

    # The link swaps its token for a session and shows the form.
    response = client.get(link, follow=True)
    assert response.status_code == 200
    assert "Choose a new password" in response.content.decode()
    form_url = response.redirect_chain[-1][0]

    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}, follow=True)
    assert response.redirect_chain == [(reverse("password_reset_complete"), 302)]
    assert "Your new password is set" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)

    # A link works once.
    response = client.get(link, follow=True)
    assert "This link no longer works" in response.content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_tells_nothing(client, user):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"}, follow=True)

    assert response.redirect_chain == [(reverse("password_reset_done"), 302)]
    assert len(mail.outbox) == 0


def test_a_forged_reset_link_is_refused(client, user, password):
    response = client.get("/accounts/reset/MQ/not-a-token/")

    assert response.status_code == 200
    assert "This link no longer works" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(password)


# ---------- Profile ----------


def test_profile_shows_username_and_date_joined(client, user):
    response = client.get(reverse("games:profile", args=[user.username]))

    assert response.status_code == 200
    html = response.content.decode()
    assert f'<h1 class="page-title">{user.username}</h1>' in html
    assert f'Playing since <time datetime="{user.date_joined.isoformat()}">' in html
    # A visitor sees no account links on someone else's page.
    assert reverse("password_change") not in html


def test_owner_sees_a_change_password_link_on_their_profile(client_logged_in, user):
    html = client_logged_in.get(reverse("games:profile", args=[user.username])).content.decode()

    assert f'href="{reverse("password_change")}"' in html


def test_other_players_do_not_see_the_owners_links(client, user, django_user_model):
    client.force_login(django_user_model.objects.create_user("carol", password="x"))
    html = client.get(reverse("games:profile", args=[user.username])).content.decode()

    assert reverse("password_change") not in html


def test_a_profile_has_a_challenge_form_for_another_signed_in_player_which_sends_one(client, user, bob):
    from games.lobby.models import Challenge

    # Not to a visitor, nor to the player on their own page.
    assert "Challenge alice" not in client.get(reverse("games:profile", args=["alice"])).content.decode()
    client.force_login(user)
    assert "Challenge alice" not in client.get(reverse("games:profile", args=["alice"])).content.decode()
    client.force_login(bob)
    html = client.get(reverse("games:profile", args=["alice"])).content.decode()
    assert "Challenge alice</button>" in html and 'name="rated"' in html  # two people: rated or casual
    response = client.post(
        reverse("games:challenge_new"),
        {"kind": "direct", "opponent_username": "alice", "side": "X", "variant": "4x4", "time_control": "3+2",
         "rated": "casual"},
    )  # fmt: skip
    assert response.status_code == 302
    challenge = Challenge.objects.get(opponent=user)
    assert (challenge.challenger, challenge.variant, challenge.rated) == (bob, "4x4", False)


def test_profile_of_an_unknown_player_is_404(client):
    response = client.get(reverse("games:profile", args=["nobody"]))

    assert response.status_code == 404
    assert "This square is empty" in response.content.decode()
