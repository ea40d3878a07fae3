"""A Python client generated from the live schema (openapi-python-client, pinned in
requirements-dev.txt) plays a whole game against the AI: scripts/api_client_demo.py
against Daphne serving the test database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.browser.conftest import asgi_live_server  # noqa: F401 (Daphne: HTTP and WebSockets)

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "scripts" / "api_client_demo.py"
# No formatting hooks (ruff) after generating: the code is only imported.
CONFIG = "post_hooks: []\n"


@pytest.fixture
def generated_client(asgi_live_server, tmp_path):  # noqa: F811
    """The client, generated from the schema the live server serves."""
    schema = tmp_path / "schema.json"
    schema.write_text(httpx.get(f"{asgi_live_server.url}/api/schema/?format=json", timeout=30).raise_for_status().text)
    (tmp_path / "config.yml").write_text(CONFIG)
    package = tmp_path / "client" / "tttsite_client"
    generated = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(schema),
         "--output-path", str(package), "--meta", "none", "--config", str(tmp_path / "config.yml")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert generated.returncode == 0 and "Warning" not in generated.stdout, generated.stdout + generated.stderr
    return package


def _demo(asgi_live_server, generated_client, django_user_model, *options):  # noqa: F811
    django_user_model.objects.create_user("dana", password="a long enough password")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, str(DEMO), "--client", str(generated_client.parent), "--base-url", asgi_live_server.url]
    command += ["--username", "dana", "--password", "a long enough password", *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


def test_the_generated_client_names_enums_as_people_do(generated_client):
    models = generated_client / "models"
    assert 'X = "X"' in (models / "side_enum.py").read_text()
    assert 'MINUTES_3_PLUS_2 = "3+2"' in (models / "time_control_enum.py").read_text()
    assert 'STALE_PLY = "stale_ply"' in (models / "error_code_enum.py").read_text()
    assert not [path.name for path in models.glob("*.py") if "VALUE_" in path.read_text()]


def test_the_generated_client_plays_a_whole_game_against_the_ai(asgi_live_server, generated_client, django_user_model):  # noqa: F811
    played = _demo(asgi_live_server, generated_client, django_user_model, "--no-socket")
    assert played.returncode == 0, played.stdout + played.stderr
    assert "over: finished" in played.stdout, played.stdout


def test_the_generated_client_sends_a_move_over_the_socket(asgi_live_server, generated_client, django_user_model):  # noqa: F811
    played = _demo(asgi_live_server, generated_client, django_user_model)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "socket: played" in played.stdout and "over: finished" in played.stdout, played.stdout
