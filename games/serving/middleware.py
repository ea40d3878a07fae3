"""Answers given before, or instead of, what a view would have said: a service
that is down (503) and a body too big to read (413).

Both answer the API in its one error shape and pages with a page of their own
that renders without the database, the session or the cache (templates/503.html,
templates/413.html: no request, no context processors, plain links), because
when one of those is what failed, base.html could not be drawn.
"""

from __future__ import annotations

import logging
import sys

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.signals import got_request_exception
from django.dispatch import receiver
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.cache import add_never_cache_headers

from games.serving import outages
from games.serving.clients import client_address

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"


def _is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _refusal(request, *, status: int, code: str, message: str, template: str, context: dict | None = None):
    return _refusal_for(_is_api(request), status=status, code=code, message=message, template=template, context=context)


def _refusal_for(api: bool, *, status: int, code: str, message: str, template: str, context: dict | None = None):
    if api:
        response = JsonResponse({"code": code, "message": message}, status=status)
    else:
        response = HttpResponse(
            loader.render_to_string(template, {"message": message, **(context or {})}), status=status
        )
    add_never_cache_headers(response)  # neither a browser nor a proxy keeps an answer like this
    return response


def service_unavailable(request, error: BaseException, service: str) -> HttpResponse:
    """The 503 for ``error`` (a stopped ``service``), logged in one line."""
    logger.error(
        "%s is down, answering %s %s from %s with 503: %s",
        service,
        request.method,
        request.path,
        client_address(request),
        outages.describe(error),
        extra=outages.OUTAGE,
    )
    response = _refusal(
        request,
        status=503,
        code="service_unavailable",
        message=outages.MESSAGES[service],
        template="503.html",
        context={"retry": request.get_full_path() if request.method == "GET" else ""},
    )
    response["Retry-After"] = str(outages.RETRY_AFTER)
    return response


class SyncAndAsyncMiddleware:
    """Runs in the server's own mode, like Django's middleware, so an ASGI
    request takes no thread hop for it."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.async_mode:
            return self.__acall__(request)
        early = self.before(request)
        if early is not None:
            return early
        return self.after(request, self.get_response(request))

    async def __acall__(self, request):
        early = self.before(request)
        if early is not None:
            return early
        return self.after(request, await self.get_response(request))

    def before(self, request):
        """A response to give without going further in, or None."""
        return None

    def after(self, request, response):
        """The response to give, given the one from further in."""
        return response


class ServiceUnavailableMiddleware(SyncAndAsyncMiddleware):
    """A stopped database or Redis is a 503 with Retry-After, not a 500.

    A view's failure (and its template's) reaches ``process_exception``. A
    failure in other middleware, or in the error pages Django draws itself
    (the 404 and CSRF pages extend base.html, which reads the session), never
    reaches this class as an exception: Django wraps each middleware and turns
    what it raises into a 500 on the spot. It does send got_request_exception
    first, so the receiver below notes the outage on the request and the 500
    is swapped for the 503 here on its way out. Hence the place high in
    MIDDLEWARE: outside the session, CSRF and authentication middleware.
    """

    def process_exception(self, request, exception):
        service = outages.service_down(exception)
        if service is None:
            return None
        return service_unavailable(request, exception, service)

    def after(self, request, response):
        noted = getattr(request, "_service_down", None)
        if noted is not None and response.status_code >= 500:
            error, service = noted
            return service_unavailable(request, error, service)
        return response


@receiver(got_request_exception, dispatch_uid="games.middleware.note_service_down")
def _note_service_down(sender, request=None, **kwargs):
    # Django calls this inside its except block (also when it runs in a worker
    # thread under ASGI: asgiref re-raises the exception there), so the
    # exception is the one being handled.
    error = sys.exc_info()[1]
    service = outages.service_down(error)
    if request is not None and service is not None:
        request._service_down = (error, service)


def body_limit() -> int:
    """The most bytes of body any request may send: DATA_UPLOAD_MAX_MEMORY_SIZE,
    or, when that is None, what Django keeps in memory before it spools to
    disk (FILE_UPLOAD_MAX_MEMORY_SIZE), so no body is ever written to disk."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return settings.FILE_UPLOAD_MAX_MEMORY_SIZE if limit is None else limit


def request_too_large(
    *, path_info: str, method: str, path: str, client: str, length: int | None, logged: bool = True
) -> HttpResponse:
    """The 413 for a body of ``length`` bytes (None: a chunked body that went
    past the limit), logged in one line unless ``logged`` is False (the
    answer written out for nginx, games/management/commands/write_refusals.py)."""
    limit = body_limit()
    size = f"{length} bytes" if length is not None else f"more than {limit} bytes"
    if logged:
        logger.warning("refused a body of %s to %s %s from %s (the limit is %d)", size, method, path, client, limit)
    return _refusal_for(
        path_info.startswith(API_PREFIX),
        status=413,
        code="request_too_large",
        message=f"The request body is {size}; this site accepts at most {limit}.",
        template="413.html",
        context={"limit_kib": limit // 1024},
    )


class RequestTooLargeMiddleware(SyncAndAsyncMiddleware):
    """A body longer than DATA_UPLOAD_MAX_MEMORY_SIZE is refused with 413 before
    anything reads it. Django's own check stops form fields but not a JSON body
    read as a stream (what DRF does), and answers a form with a bare 400.

    Under ASGI (production) games.serving.bodies.LimitRequestBody has refused it
    already, chunked bodies included, before Django read a byte; this is for
    WSGI and the test client."""

    def before(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length <= body_limit():
            return None
        return request_too_large(
            path_info=request.path_info,
            method=request.method,
            path=request.path,
            client=client_address(request),
            length=length,
        )
