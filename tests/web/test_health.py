"""/healthz/ and /readyz/: what a load balancer or supervisor asks the site."""

import pytest
from django.core.cache import caches
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_without_touching_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "no-store" in response["Cache-Control"]


def test_readyz_says_the_database_answers(client):
    response = client.get("/readyz/")
    assert response.status_code == 200
    assert response.json() == {"database": "ok"}


@override_settings(
    REDIS_URL="redis://127.0.0.1:1/0",
    CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}},
)
def test_readyz_is_503_with_a_reason_when_redis_does_not_answer(client):
    try:
        response = client.get("/readyz/")
    finally:
        caches["default"].close()
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    body = response.json()
    assert body["database"] == "ok" and body["redis"] == "down"
    assert body["code"] == "service_unavailable"
    assert "redis" in body["message"]


def test_readyz_refuses_other_methods(client):
    assert client.post("/readyz/").status_code == 405
