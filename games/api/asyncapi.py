"""The WebSockets' protocol as an AsyncAPI document (asyncapi.yaml beside
this file), served at /api/asyncapi.yaml beside the OpenAPI schema."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.http import HttpResponse
from django.views.decorators.http import require_GET

DOCUMENT = Path(__file__).with_name("asyncapi.yaml")


@cache
def _document() -> bytes:
    return DOCUMENT.read_bytes()


@require_GET
def asyncapi_document(request):
    """The document as it is in the repository: nothing in it depends on the request."""
    return HttpResponse(_document(), content_type="application/yaml; charset=utf-8")
