"""Health checks for whoever runs the site: a load balancer, a process
supervisor, the load and outage scripts (bench/load.sh, bench/outage.sh).

/healthz/ answers as soon as the process can serve a request and touches
nothing else: it is also the "page that does nothing" the load script
measures moves against. /readyz/ says whether the services behind the site
(the database; Redis when it is configured) answer, with 503 when one does not.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.serving import outages

logger = logging.getLogger(__name__)


@never_cache
@require_GET
def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain; charset=utf-8")


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        logger.warning("readiness: the database does not answer", exc_info=True)
        return False
    return True


def _redis_answers() -> bool | None:
    """None when the site runs without Redis (in-memory layer and cache)."""
    if not settings.REDIS_URL:
        return None
    try:
        cache.set("readyz", "1", timeout=5)
        return cache.get("readyz") == "1"
    except Exception:
        logger.warning("readiness: Redis does not answer", exc_info=True)
        return False


@never_cache
@require_GET
def readyz(request):
    services = {"database": _database_answers(), "redis": _redis_answers()}
    down = [name for name, up in services.items() if up is False]
    body = {name: ("ok" if up else "down") for name, up in services.items() if up is not None}
    if down:
        names = " and ".join(down)
        body |= {"code": "service_unavailable", "message": f"the {names} is not answering; try again in a few seconds"}
        response = JsonResponse(body, status=503)
        response["Retry-After"] = str(outages.RETRY_AFTER)
        return response
    return JsonResponse(body)
