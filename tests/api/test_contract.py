"""The API's contract read as a client reads it: every error code the server
sends is listed, the lint-level promises hold (summaries, typed nullables, readable
enums, no blank query values, servers, the token prefix), and the list of what
anonymous clients may call is true. (scripts/test also lints it with Spectral.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import exceptions as drf_exceptions

from games import errors
from games.api.exceptions import CODES
from tests.api.test_error_codes import MODERATORS_ONLY

pytestmark = pytest.mark.django_db

GAMES = Path(errors.__file__).parent


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


#: Refusals only the pages can meet: deleting an account is not an API operation, nor is moderating.
NOT_IN_THE_API = {"last_superuser"} | MODERATORS_ONLY


def _codes_in_the_source() -> set[str]:
    """Every refusal code the services and the API write: ``code="..."``, the
    classes' own codes, and require_choice's ``invalid_<what>``."""
    codes = set()
    for path in GAMES.rglob("*.py"):
        if path.name in ("consumers.py", "forms.py") or {"management", "migrations"} & set(path.parts):
            continue  # the socket's own protocol, the pages' forms, commands
        text = path.read_text()
        for line in text.splitlines():
            if "ValidationError(" not in line:  # a field's own code: the body says `invalid`, with `fields`
                codes |= set(re.findall(r'\b(?:code=|default_code = )"([a-z_]+)"', line))
        codes |= {
            f"invalid_{what.replace(' ', '_')}" for what in re.findall(r'require_choice\([^)]*"([a-z ]+)"\)', text)
        }
    classes = [errors.GameError]
    while classes:
        cls = classes.pop()
        classes += cls.__subclasses__()
        if cls not in (errors.GameError, errors.AccountRefused):
            codes.add(cls.code)
    return codes - NOT_IN_THE_API


def _drf_codes() -> set[str]:
    found = {
        cls.default_code
        for cls in vars(drf_exceptions).values()
        if isinstance(cls, type) and issubclass(cls, drf_exceptions.APIException)
    }
    return (found - {"error", "parse_error"}) | set(CODES.values()) | {"server_error"}


def test_error_code_lists_every_code_the_server_sends_and_no_other(schema):
    listed = set(schema["components"]["schemas"]["ErrorCodeEnum"]["enum"])
    sent = _codes_in_the_source()
    assert sent - listed == set(), "codes the server sends that the schema does not list"
    assert listed - sent - _drf_codes() == set(), "codes the schema lists that nothing sends"
    code = schema["components"]["schemas"]["Error"]["properties"]["code"]
    assert code["allOf"] == [{"$ref": "#/components/schemas/ErrorCodeEnum"}]
    assert (
        "* `stale_ply` - The ply you sent is not the game's: it has moved on, or is not that far on."
        in code["description"]
    )


def test_every_operation_has_a_summary(schema):
    summaries = [operation.get("summary") for _, _, operation in _operations(schema)]
    assert all(summaries) and len(set(summaries)) == len(summaries)


def test_every_nullable_schema_says_its_type(schema):
    def walk(node, where):
        if isinstance(node, dict):
            if node.get("nullable"):
                assert node.get("type"), where
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    walk(schema, "")


def test_query_enums_hold_no_blank_value(schema):
    enums = [
        parameter["schema"]["enum"]
        for _, _, operation in _operations(schema)
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query" and "enum" in parameter["schema"]
    ]
    assert enums and all("" not in enum for enum in enums)


def test_enum_values_that_are_not_names_get_names(schema):
    schemas = schema["components"]["schemas"]
    assert schemas["TimeControlEnum"]["x-enum-varnames"][:2] == ["MINUTES_1_PLUS_0", "MINUTES_3_PLUS_2"]
    assert schemas["MoveTimeLimitEnum"]["x-enum-varnames"] == ["SECONDS_30", "MINUTE_1", "MINUTES_5", "DAY_1"]
    assert schemas["VariantEnum"]["x-enum-varnames"] == ["BOARD_3X3", "BOARD_4X4", "BOARD_5X5"]
    assert schemas["SideEnum"]["enum"] == ["X", "O"]  # names already: X and O


def test_servers_and_the_token_prefix_are_given(schema):
    # Relative, so the site's own docs page (and any client) calls the site that served the schema.
    assert schema["servers"] == [{"url": "/", "description": "The site that serves this document."}]
    token = schema["components"]["securitySchemes"]["tokenAuth"]
    assert (token["in"], token["name"]) == ("header", "Authorization")
    assert '"Token"' in token["description"]


def test_what_anonymous_clients_may_call_is_what_the_schema_says(schema, anon, human_game):
    listed = re.search(r"Anonymous clients may call only: ([^\n]*)\.\n", schema["info"]["description"]).group(1)
    answering = set()
    for path, method, operation in _operations(schema):
        url = path.replace("{id}", str(human_game.pk)).replace("{username}", "nobody")
        response = getattr(anon, method)(url, {}, format="json")
        if response.status_code != 401:
            answering.add(f"{method.upper()} {path}")
        anonymous = operation["security"] == [] or {} in operation["security"]
        assert anonymous == (response.status_code != 401), (method, path, response.status_code)
    assert set(listed.split(", ")) == answering


def test_path_and_page_parameters_say_what_the_urls_accept(schema, as_alice):
    for path, _, operation in _operations(schema):
        for parameter in operation.get("parameters", []):
            if parameter["name"] == "page":
                assert parameter["schema"] == {"type": "integer", "minimum": 1}, path
            if parameter["name"] == "id":
                assert parameter["schema"]["minimum"] == 1, path
            if parameter["name"] == "username":
                assert parameter["schema"]["maxLength"] == 150, path
    assert as_alice.get("/api/games/?page=0").status_code == 404  # what the minimum says


@pytest.mark.parametrize("query", ["/api/games/?variant=", "/api/games/?result=", "/api/puzzles/?variant="])
def test_an_empty_filter_is_refused_as_the_schema_says(as_alice, query):
    # The schema lists no "" (leave a filter out to mean any); schemathesis sends one as invalid data.
    response = as_alice.get(query)
    assert response.status_code == 400 and response.json()["code"] == "invalid"
