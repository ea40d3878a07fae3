"""A server error reaches someone: it is mailed to ADMINS through Django's own
logging, and, when SENTRY_DSN is set, reported to Sentry through sentry-sdk's
Django integration. A stopped database or Redis is no mail per request."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.db.utils import OperationalError
from django.urls import path

from tests.web.test_pages import boom

pytestmark = pytest.mark.django_db

urlpatterns = [path("boom/", boom)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def admins(settings):
    settings.ADMINS = [("Ann", "ann@example.com")]
    settings.ROOT_URLCONF = __name__


def test_a_server_error_is_mailed_to_the_admins(client, admins, mailoutbox):
    client.raise_request_exception = False
    assert client.get("/boom/").status_code == 500

    (mail,) = mailoutbox
    assert mail.to == ["ann@example.com"]
    assert "/boom/" in mail.subject and "RuntimeError at /boom/" in mail.body


def test_a_stopped_database_is_no_mail_per_request(client, admins, mailoutbox, monkeypatch, settings):
    settings.ROOT_URLCONF = "tttsite.urls"
    from games.stats import views

    monkeypatch.setattr(views.selectors, "leaderboard", lambda **_: (_ for _ in ()).throw(OperationalError("refused")))
    assert client.get("/leaderboard/").status_code == 503
    assert mailoutbox == []


class _Sentry(BaseHTTPRequestHandler):
    """Sentry's ingest, as far as a test needs it: what is posted, kept."""

    received: list[bytes] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.headers.get("Content-Encoding") == "gzip":
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        _Sentry.received.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


SENTRY_CLIENT = """
import django, sentry_sdk
django.setup()
from django.test import Client
from django.test.utils import override_settings
with override_settings(ROOT_URLCONF="tests.web.test_error_reports", ALLOWED_HOSTS=["testserver"]):
    response = Client(raise_request_exception=False).get("/boom/")
sentry_sdk.flush(5)
print(response.status_code)
"""


def test_with_a_sentry_dsn_a_server_error_is_reported_to_sentry():
    _Sentry.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Sentry)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tttsite.test_settings",
            "SENTRY_DSN": f"http://publickey@127.0.0.1:{server.server_port}/1",
        }
        run = subprocess.run(
            [sys.executable, "-c", SENTRY_CLIENT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
    finally:
        server.shutdown()
    assert run.stdout.strip() == "500", run.stderr
    events = [json.loads(line) for body in _Sentry.received for line in body.splitlines()[1:] if line.startswith(b"{")]
    exceptions = [value for event in events for value in event.get("exception", {}).get("values", [])]
    assert ("RuntimeError", "boom") in [(value["type"], value["value"]) for value in exceptions], _Sentry.received
