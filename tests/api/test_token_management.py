"""A program manages its own tokens: lists them (never their keys), revokes
the one in use, one by id, or all of them."""

import pytest
from rest_framework.test import APIClient

from games.accounts.models import ApiToken
from games.accounts.services import api_token_create
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


def _signed_in_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_the_list_names_each_token_and_which_one_is_in_use_but_never_a_key(alice):
    laptop = api_token_create(user=alice, name="laptop")
    api_token_create(user=alice, name="lab machine")
    response = _signed_in_with(laptop).get("/api/auth/tokens/")

    assert response.status_code == 200
    tokens = {token["name"]: token for token in response.json()}
    assert set(tokens) == {"laptop", "lab machine"}
    assert tokens["laptop"]["current"] is True and tokens["lab machine"]["current"] is False
    assert set(tokens["laptop"]) == {"id", "name", "prefix", "created_at", "last_used_at", "current"}
    assert laptop not in response.content.decode() and laptop.startswith(tokens["laptop"]["prefix"])


def test_a_program_revokes_the_token_it_signs_in_with_and_is_then_refused(alice):
    key, other = api_token_create(user=alice), api_token_create(user=alice)
    client = _signed_in_with(key)

    assert client.delete("/api/auth/token/").status_code == 204
    assert client.get("/api/auth/tokens/").status_code == 401
    assert ApiToken.objects.filter(user=alice).count() == 1
    assert _signed_in_with(other).get("/api/auth/tokens/").status_code == 200


def test_revoking_the_token_in_use_needs_a_token(client, alice):
    api_token_create(user=alice)
    client.force_login(alice)
    body = assert_error(client.delete("/api/auth/token/"), 400, "no_token_in_use")

    assert "DELETE /api/auth/tokens/{id}/" in body["message"]
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_one_token_is_revoked_by_its_id_and_nobody_elses(alice, bob):
    key = api_token_create(user=alice)
    spare = api_token_create(user=alice, name="spare")
    bobs = api_token_create(user=bob)
    spare_id = ApiToken.objects.get(user=alice, name="spare").pk
    bobs_id = ApiToken.objects.get(user=bob).pk
    client = _signed_in_with(key)

    assert_error(client.delete(f"/api/auth/tokens/{bobs_id}/"), 404, "not_found")
    assert client.delete(f"/api/auth/tokens/{spare_id}/").status_code == 204
    assert_error(client.delete(f"/api/auth/tokens/{spare_id}/"), 404, "not_found")
    assert _signed_in_with(spare).get("/api/auth/tokens/").status_code == 401
    assert _signed_in_with(bobs).get("/api/auth/tokens/").status_code == 200


def test_all_tokens_are_revoked_at_once(alice, bob):
    keys = [api_token_create(user=alice) for _ in range(3)]
    api_token_create(user=bob)

    assert _signed_in_with(keys[0]).delete("/api/auth/tokens/").status_code == 204
    assert not ApiToken.objects.filter(user=alice).exists()
    assert ApiToken.objects.filter(user=bob).count() == 1


def test_asking_for_a_token_still_needs_no_credential(anon, alice):
    alice.set_password("a long password")
    alice.save()
    response = anon.post("/api/auth/token/", {"username": alice.username, "password": "a long password"})

    assert response.status_code == 200 and response.json()["token"]
