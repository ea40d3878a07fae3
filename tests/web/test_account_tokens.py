"""Your API tokens: the page that lists them (made, last used) and revokes one
or all, and a new password revoking every one of them."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from games.accounts import services
from games.accounts.models import ApiToken

pytestmark = pytest.mark.django_db

TOKENS = "/account/tokens/"
NEW_PASSWORD = "a-brand-new-long-passphrase-42"


def works(key: str) -> bool:
    """Whether a program sending this token is let into the API."""
    return APIClient(HTTP_AUTHORIZATION=f"Token {key}").get("/api/games/").status_code == 200


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_the_account_page_links_to_the_tokens(client_logged_in):
    assert f'href="{TOKENS}"' in client_logged_in.get("/account/").content.decode()


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(TOKENS)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_page_lists_your_tokens_with_when_made_and_last_used(client_logged_in, user, bob):
    key = services.api_token_create(user=user, name="my script")
    services.api_token_create(user=user, name="old laptop")
    services.api_token_create(user=bob, name="bob's bot")
    assert works(key)

    html = client_logged_in.get(TOKENS).content.decode()
    page = text(client_logged_in.get(TOKENS))
    assert "my script" in page and "old laptop" in page and "bob&#x27;s bot" not in html
    assert key not in html  # shown once, when made; never stored
    assert f"{key[:8]}…" in page
    assert html.count("<td>never</td>") == 1  # "old laptop" was never used; "my script" just was
    assert "Revoke all 2 tokens" in page


def test_last_used_is_written_at_most_once_a_minute(user):
    key = services.api_token_create(user=user)
    assert ApiToken.objects.get().last_used_at is None
    assert works(key)
    first = ApiToken.objects.get().last_used_at
    assert first is not None
    assert works(key)
    assert ApiToken.objects.get().last_used_at == first  # within the minute: no write
    ApiToken.objects.update(last_used_at=first - timedelta(minutes=2))
    assert works(key)
    assert ApiToken.objects.get().last_used_at > first


def test_revoking_one_token_signs_that_program_out_and_no_other(client_logged_in, user):
    kept = services.api_token_create(user=user, name="kept")
    revoked = services.api_token_create(user=user, name="revoked")
    token = ApiToken.objects.get(name="revoked")

    response = client_logged_in.post(reverse("games:account_token_revoke", args=[token.pk]), follow=True)

    assert "The token is revoked" in text(response)
    assert not works(revoked) and works(kept)
    again = client_logged_in.post(reverse("games:account_token_revoke", args=[token.pk]), follow=True)
    assert "That token was revoked already." in text(again)


def test_nobody_can_revoke_someone_else_s_token(client_logged_in, bob):
    key = services.api_token_create(user=bob)
    token = ApiToken.objects.get(user=bob)

    response = client_logged_in.post(reverse("games:account_token_revoke", args=[token.pk]), follow=True)

    assert "That token was revoked already." in text(response)
    assert works(key)


def test_revoking_all_signs_every_program_out(client_logged_in, user, bob):
    keys = [services.api_token_create(user=user) for _ in range(3)]
    bobs = services.api_token_create(user=bob)

    response = client_logged_in.post(reverse("games:account_tokens_revoke_all"), follow=True)

    assert "All your API tokens (3) are revoked." in text(response)
    assert "You have no API tokens." in text(response)
    assert not any(works(key) for key in keys) and works(bobs)


def test_the_revoking_forms_take_no_get(client_logged_in, user):
    services.api_token_create(user=user)
    token = ApiToken.objects.get()
    assert client_logged_in.get(reverse("games:account_token_revoke", args=[token.pk])).status_code == 405
    assert client_logged_in.get(reverse("games:account_tokens_revoke_all")).status_code == 405
    assert ApiToken.objects.exists()


def test_changing_the_password_revokes_every_token(client_logged_in, user, password, bob):
    key = services.api_token_create(user=user)
    bobs = services.api_token_create(user=bob)

    client_logged_in.post(
        reverse("password_change"),
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert not works(key) and works(bobs)


def test_a_password_reset_revokes_every_token(client, user):
    key = services.api_token_create(user=user)
    client.post(reverse("password_reset"), {"email": user.email})
    link = re.search(r"https?://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True).redirect_chain[-1][0]

    response = client.post(form, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert response.status_code == 302
    assert not works(key)


def test_a_password_set_anywhere_else_revokes_them_too(user, monkeypatch):
    key = services.api_token_create(user=user)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": NEW_PASSWORD)
    call_command("changepassword", user.username, stdout=None)
    assert not works(key)


def test_saving_a_user_without_a_new_password_keeps_the_tokens(client, user, password):
    key = services.api_token_create(user=user)
    user.first_name = "Alice"
    user.save()
    client.post(reverse("login"), {"username": user.username, "password": password})  # writes last_login
    assert works(key)


def test_an_account_holds_at_most_so_many_tokens_the_least_recently_used_going_first(user, settings):
    keys = [services.api_token_create(user=user) for _ in range(services.MAX_API_TOKENS)]
    assert works(keys[0])  # used: kept
    newest = services.api_token_create(user=user)
    assert ApiToken.objects.filter(user=user).count() == services.MAX_API_TOKENS
    assert works(keys[0]) and works(newest) and not works(keys[1])


def test_the_admin_lists_tokens_without_their_keys_and_not_drf_s_own(admin_client, user):
    key = services.api_token_create(user=user, name="my script")
    html = admin_client.get("/admin/games/apitoken/").content.decode()
    assert "my script" in html and key[:8] in html and key not in html
    assert "/admin/authtoken/" not in admin_client.get("/admin/").content.decode()
