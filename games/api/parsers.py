"""The API reads JSON and nothing else (settings.REST_FRAMEWORK)."""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, for which JSON nested deeper than Python's stack
    (``[[[[...`` a thousand deep: a few kilobytes) is malformed input, a 400,
    instead of a RecursionError and a 500. The body's size is limited before
    this reads it (games.serving.middleware.RequestTooLargeMiddleware)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
