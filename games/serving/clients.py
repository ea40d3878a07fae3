"""Who is asking: the one place the site works out a client's address.

Throttles (games/api/throttles.py), the sign-in lockout (django-axes,
settings.AXES_CLIENT_IP_CALLABLE), the engine's budget per address
(games/engine_work/budget.py) and the logs all key on ``client_address``.

``X-Forwarded-For`` is anyone's to write, so it is believed only when the
connection comes from a proxy listed in settings.FORWARDED_ALLOW_IPS, the same
variable uvicorn reads for --forwarded-allow-ips. Each proxy appends the
address it saw, so the client is the right-most address that is not itself a
trusted proxy; anything to its left was written by the client and is ignored.

Under uvicorn with --proxy-headers the server has done this already: the ASGI
client, hence REMOTE_ADDR, is the real client, which is not a trusted proxy,
so the header is not looked at a second time. (When every hop is trusted,
both pick the left-most address: the same answer.)
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=8)
def _parse(allowed: tuple[str, ...]):
    """("10.0.0.0/8", "127.0.0.1") as (trust everyone?, networks, other literals)."""
    if "*" in allowed:
        return True, (), frozenset()
    networks, literals = [], set()
    for item in allowed:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            literals.add(item)  # e.g. a unix socket's name, as uvicorn allows
    return False, tuple(networks), frozenset(literals)


def is_trusted_proxy(address: str | None) -> bool:
    """Whether ``address`` is one of settings.FORWARDED_ALLOW_IPS (addresses, networks, or "*")."""
    if not address:
        return False
    everyone, networks, literals = _parse(tuple(getattr(settings, "FORWARDED_ALLOW_IPS", ())))
    if everyone:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address in literals
    return any(ip in network for network in networks)


def _host(hop: str) -> str:
    """One X-Forwarded-For entry without a port: "1.2.3.4:80" -> "1.2.3.4", "[::1]:80" -> "::1"."""
    hop = hop.strip()
    if hop.startswith("["):
        return hop[1:].split("]", 1)[0]
    if hop.count(":") == 1:
        return hop.split(":", 1)[0]
    return hop


def client_address(request) -> str:
    """The address of the client behind ``request`` (a Django request)."""
    remote = request.META.get("REMOTE_ADDR") or ""
    if not is_trusted_proxy(remote):
        return remote
    forwarded = [_host(hop) for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [hop for hop in forwarded if hop]
    if not forwarded:
        return remote
    if _parse(tuple(settings.FORWARDED_ALLOW_IPS))[0]:
        return forwarded[0]
    for hop in reversed(forwarded):
        if not is_trusted_proxy(hop):
            return hop
    return forwarded[0]  # every hop a trusted proxy: the first one is the client
