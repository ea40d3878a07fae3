"""The exams' tests call the API as its own tests do: Alice and Bob, each with a token."""

from tests.api.conftest import alice, as_alice, as_bob  # noqa: F401 - the fixtures, shared
