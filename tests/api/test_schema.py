"""The OpenAPI schema: valid, complete, served with its docs, and true to the
API (schemathesis sends generated requests and checks every answer against it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
import schemathesis
from django.core import signals
from django.core.management import call_command
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.settings import api_settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from games.exams import positions as exam_positions
from games.learn.models import Puzzle
from games.lobby import services
from games.play import services as play_services
from games.play.players import Player
from tests.api.conftest import client_for, stored

pytestmark = pytest.mark.django_db

PUBLIC_OPERATIONS = {"auth_token_create", "analyse", "users_stats", "leaderboard"}
PUBLIC_OPERATIONS |= {"puzzles_list", "puzzles_daily", "puzzles_retrieve", "puzzles_attempt"}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def test_the_schema_is_valid_openapi(schema):
    validate_schema(schema)  # raises on anything the OpenAPI 3 meta-schema refuses


def test_the_schema_is_generated_without_warnings(tmp_path):
    # drf-spectacular warns about what it had to guess; every guess is a hole in the contract.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    written = (tmp_path / "schema.yml").read_text()
    assert written.startswith("openapi: 3") and "/api/games/{id}/moves/:" in written  # the schema, written out


def test_every_operation_documents_its_answers_and_errors(schema):
    operations = list(_operations(schema))
    assert (
        len(operations) == 18 + 4 + 4 + 3 + 6 + 2 + 1 + 3 + 4 + 4 + 2 + 1 + 2
    )  # + puzzles, chat, quick pairing, draw offers and takebacks, rematch, one challenge, bot accounts, exams,
    # tokens, notifications, a game's notation, reports
    for path, method, operation in operations:
        responses = operation["responses"]
        where = f"{method.upper()} {path}"
        assert any(code.startswith("2") for code in responses), where
        for code in ("429", "503"):
            assert "Retry-After" in responses[code].get("headers", {}), (where, code)
        if operation["operationId"] not in PUBLIC_OPERATIONS:
            assert "401" in responses, where
        if "requestBody" in operation:
            assert {"400", "413", "415"} <= set(responses), where
        if "{id}" in path:
            assert "404" in responses, where
        for code, response in responses.items():
            if not code.startswith("2"):
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref.split("/")[-1] in {"Error", "GameRefusal"}, where


def test_the_schema_is_served_to_anyone(anon):
    response = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "tttsite API"


def test_the_docs_load_nothing_from_other_sites(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets and all(url.startswith("/") for url in assets), assets
    for url in assets:
        assert client.get(url).status_code == 200, url


@pytest.mark.browser
def test_the_docs_render_in_a_browser_without_the_internet(live_server):
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("chromium is not installed (apt-get install chromium)", pytrace=False)
    result = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--virtual-time-budget=10000",
            "--dump-dom",
            live_server.url + "/api/docs/",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    dom = result.stdout
    assert 'class="swagger-ui' in dom, result.stderr[-2000:]
    assert "tttsite API" in dom  # the schema was fetched and drawn
    assert "/api/games/{id}/moves/" in dom


# -- schemathesis ------------------------------------------------------------------------------

# Loaded through the WSGI application, as a client would fetch it; the cases then
# call the application in-process, inside each test's transaction.
api_schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
# Requests the schema allows (each must be accepted) and requests it forbids (each must be refused).
api_schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
# A forbidden body too big for the site is refused before it is read: 413 is a refusal too.
rejection = api_schema.config.checks.negative_data_rejection
rejection.expected_statuses = [*rejection.expected_statuses, "413"]


@pytest.fixture
def in_process_requests():
    """Keep the test's database connection open across WSGI requests.

    A WSGI request ends by closing "old" connections; inside a test's
    transaction that closes the test's own. Django's test client switches this
    off for its requests in the same way.
    """
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def conformance_world(in_process_requests, alice, bob, settings, monkeypatch):
    """Objects for the generated requests to find: without them nearly every id is a 404.
    A sampled exam is given half a second to find its positions: the answer's
    shape is what is checked here, not how many the engine finds."""
    monkeypatch.setattr(exam_positions, "SAMPLE_SECONDS", 0.5)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {scope: "100000/min" for scope in api_settings.DEFAULT_THROTTLE_RATES},
    }
    alice_player = Player(user=alice)
    games = [
        play_services.game_create_against_ai(player=alice_player, side="X", level="easy"),
        play_services.game_create_against_ai(player=alice_player, side="O", level="hard", variant="4x4"),
    ]
    finished = play_services.game_create_against_ai(player=alice_player, side="X", level="easy")
    games.append(play_services.game_resign(game_id=finished.pk, player=alice_player))
    direct = services.challenge_create(challenger=bob, kind="direct", opponent_username="alice")
    games.append(services.challenge_accept(user=alice, challenge_id=direct.pk))
    rated = services.challenge_create(challenger=bob, kind="direct", opponent_username="alice")
    rated_game = services.challenge_accept(user=alice, challenge_id=rated.pk)
    play_services.game_resign(game_id=rated_game.pk, player=Player(user=bob))  # a rating for the leaderboard
    challenges = [
        services.challenge_create(challenger=bob, kind="open"),
        services.challenge_create(challenger=bob, kind="direct", opponent_username="alice"),
        services.challenge_create(challenger=alice, kind="open"),
        services.challenge_create(challenger=bob, kind="link"),
    ]
    token = client_for(alice)._credentials["HTTP_AUTHORIZATION"]
    puzzles = [
        Puzzle.objects.create(
            position="OO..X...X", variant="3x3", side="X", cell=2, win_in=3, solution="2,3,5", theme="fork"
        )
    ]
    return {"games": [g.pk for g in games], "challenges": [c.pk for c in challenges], "token": token,
            "puzzles": [p.pk for p in puzzles]}  # fmt: skip


# What a schema cannot say: a request it allows may still be refused (400) for
# one of these reasons, by operation: (code, the fields named, if any).
SEMANTIC_REFUSALS = {
    "POST /api/auth/token/": {("invalid_credentials", None)},  # no such account or password
    "POST /api/analyse/": {("invalid", ("board",))},  # a position that cannot arise in a game
    "POST /api/puzzles/{id}/attempt/": {("invalid", ("played",))},  # a cell taken, or off a 3x3 board
    "POST /api/games/{id}/moves/": {("invalid_cell", None)},  # off a board smaller than 5x5
    "POST /api/exams/": {("invalid", None)},  # "all" is for 3x3 only, and only "all" is
    "POST /api/exams/{id}/answers/": {("invalid", None)},  # a position not in the exam, a cell not legal there
    "POST /api/games/{id}/chat/": {("chat_empty", None), ("chat_too_long", None)},  # counted once stripped
    "POST /api/reports/": {("report_target", None), ("note_too_long", None)},  # one target; counted once tidied
    "POST /api/challenges/": {
        ("invalid", ("opponent",)),  # a direct challenge names its opponent
        ("unknown_player", None),
        ("self_challenge", None),
        ("invalid_time_control", None),  # a key out of range ("3+99", "2d"), or with move_time_limit too
    },
}


NULL_CHARACTERS = "Null characters are not allowed."


def _check_refusal_of_valid_data(case, response):
    """Schemathesis's positive_data_acceptance, less what SEMANTIC_REFUSALS allows."""
    if not case.meta.generation.mode.is_positive or response.status_code != 400:
        return
    body = response.json()
    fields = tuple(sorted(body["fields"])) if "fields" in body else None
    messages = {message for field in body.get("fields", {}).values() for message in field}
    if messages == {NULL_CHARACTERS}:
        return  # a string may hold any character in JSON; no field of ours takes U+0000
    allowed = SEMANTIC_REFUSALS.get(case.operation.label, set())
    assert (body["code"], fields) in allowed, f"{case.operation.label} refused schema-valid input: {body}"


#: Generated requests per operation: 100 in the suite; scripts/fuzz asks for more.
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))


@api_schema.parametrize()
@hypothesis_settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_the_api_answers_as_its_schema_says(case, conformance_world):
    ids = conformance_world[next((kind for kind in ("challenges", "puzzles") if kind in case.path), "games")]
    if case.path_parameters and "id" in case.path_parameters and isinstance(case.path_parameters["id"], int):
        # Most generated ids name a real object; the rest stay as generated (a 404).
        generated = case.path_parameters["id"]
        index = generated % (len(ids) + 1)
        if index < len(ids):
            case.path_parameters["id"] = ids[index]
    if case.path_parameters and "username" in case.path_parameters:
        # Half the generated names are replaced by a player's: the rest are a 404.
        if len(str(case.path_parameters["username"])) % 2:
            case.path_parameters["username"] = "alice"
    before = stored()
    response = case.call_and_validate(
        headers={"Authorization": conformance_world["token"]}, excluded_checks=[positive_data_acceptance]
    )
    _check_refusal_of_valid_data(case, response)
    if response.status_code >= 400:  # a refusal (or a failure) stores nothing
        assert stored() == before, f"{case.operation.label} answered {response.status_code} but changed what is stored"
