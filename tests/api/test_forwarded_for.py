"""X-Forwarded-For is believed only from the proxies in FORWARDED_ALLOW_IPS
(games/serving/clients.py): a client cannot dodge its rate limit, its sign-in
lockout or the learning pages' budget by writing a new address per request,
while the clients behind a trusted proxy each keep a budget of their own."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.testing import ApplicationCommunicator
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.settings import api_settings
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from games.serving.clients import client_address
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db

STRANGER = "198.51.100.7"  # not a proxy the site trusts
PROXY = "127.0.0.1"  # settings.FORWARDED_ALLOW_IPS by default


@pytest.fixture
def anon_rate(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "3/min"},
    }


def analyse(anon, **meta):
    return anon.post("/api/analyse/", {"board": "........."}, **meta)


def test_a_new_forwarded_address_per_request_from_a_stranger_shares_one_bucket(anon, anon_rate):
    answers = [analyse(anon, REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}") for n in range(4)]

    assert [answer.status_code for answer in answers[:3]] == [200, 200, 200]
    assert_error(answers[3], 429, "throttled")
    # Nor does leaving the header out open a fresh bucket.
    assert_error(analyse(anon, REMOTE_ADDR=STRANGER), 429, "throttled")


def test_behind_a_trusted_proxy_each_client_has_its_own_bucket(anon, anon_rate):
    for _ in range(3):
        assert analyse(anon, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.1").status_code == 200
    assert_error(analyse(anon, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.1"), 429, "throttled")
    # What the client wrote itself, left of what the proxy appended, changes nothing.
    assert_error(analyse(anon, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="192.0.2.99, 203.0.113.1"), 429, "throttled")

    assert analyse(anon, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.2").status_code == 200


@pytest.mark.parametrize(
    ("remote", "forwarded", "allowed", "client"),
    [
        (STRANGER, "203.0.113.5", ["127.0.0.1"], STRANGER),
        (PROXY, "", ["127.0.0.1"], PROXY),
        (PROXY, "203.0.113.5", ["127.0.0.1"], "203.0.113.5"),
        (PROXY, "6.6.6.6, 203.0.113.5", ["127.0.0.1"], "203.0.113.5"),
        # Two proxies in a row: the right-most address no proxy of ours wrote.
        ("10.0.0.2", "6.6.6.6, 203.0.113.5, 10.0.0.3", ["10.0.0.0/8"], "203.0.113.5"),
        ("10.0.0.2", "203.0.113.5:4711", ["10.0.0.0/8"], "203.0.113.5"),
        ("10.0.0.2", "[2001:db8::1]:4711", ["10.0.0.0/8"], "2001:db8::1"),
        ("10.0.0.2", "10.0.0.9, 10.0.0.3", ["10.0.0.0/8"], "10.0.0.9"),
        ("2001:db8::7", "203.0.113.5", ["2001:db8::/32"], "203.0.113.5"),
        (STRANGER, "6.6.6.6, 203.0.113.5", ["*"], "6.6.6.6"),
        (PROXY, "203.0.113.5", [], PROXY),
    ],
)
def test_client_address(settings, remote, forwarded, allowed, client):
    settings.FORWARDED_ALLOW_IPS = allowed
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)

    assert client_address(request) == client


def test_under_uvicorns_proxy_headers_the_header_is_not_believed_twice(settings):
    """uvicorn (--proxy-headers --forwarded-allow-ips) has already made the
    ASGI client the real one; Django must come to the same answer, not walk
    further left into what the client wrote."""
    settings.FORWARDED_ALLOW_IPS = ["127.0.0.1"]
    seen = {}

    async def app(scope, receive, send):
        request = RequestFactory().get(
            "/",
            REMOTE_ADDR=scope["client"][0],
            HTTP_X_FORWARDED_FOR=dict(scope["headers"])[b"x-forwarded-for"].decode(),
        )
        seen["address"] = client_address(request)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "headers": [(b"x-forwarded-for", b"6.6.6.6, 203.0.113.5")],
        "client": (PROXY, 50000),
    }
    communicator = ApplicationCommunicator(ProxyHeadersMiddleware(app, trusted_hosts="127.0.0.1"), scope)

    async def run():
        await communicator.send_input({"type": "http.request", "body": b""})
        await communicator.receive_output(2)
        await communicator.wait(2)

    asyncio.run(run())
    assert seen["address"] == "203.0.113.5"


def test_a_forged_forwarded_for_does_not_dodge_the_sign_in_lockout(client, user, password):
    for n in range(5):  # settings.AXES_FAILURE_LIMIT
        client.post(
            reverse("login"),
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR=STRANGER,
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        )

    response = client.post(
        reverse("login"),
        {"username": user.username, "password": password},
        REMOTE_ADDR=STRANGER,
        HTTP_X_FORWARDED_FOR="203.0.113.99",
    )
    assert response.status_code == 429


def test_behind_a_trusted_proxy_one_clients_lockout_is_not_everyones(client, user, password):
    for _ in range(5):
        client.post(
            reverse("login"),
            {"username": user.username, "password": "wrong"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR="203.0.113.1",
        )

    response = client.post(
        reverse("login"),
        {"username": user.username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="203.0.113.2",
    )
    assert response.status_code == 302
