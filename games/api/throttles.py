"""Rate limits per signed-in user and per anonymous client: DRF's throttles,
counted in Django's cache, with rates from the current settings.

DRF's throttles copy the rates when their module is imported, so a test that
overrides REST_FRAMEWORK (or a deployment reading rates late) would not be
heard; these read the current settings on every request. An anonymous client
is known by ``games.serving.clients.client_address``, not by DRF's own
reading of X-Forwarded-For, which believes whoever sends it.
"""

from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings

from games.serving.clients import client_address


class CurrentRates:
    """DRF's throttle, its rates read from the settings as they now stand,
    and an anonymous client known by its address as the site works it out."""

    @property
    def THROTTLE_RATES(self):  # noqa: N802 - the name DRF reads
        return api_settings.DEFAULT_THROTTLE_RATES

    def get_ident(self, request):
        return client_address(request)


class AnonRateThrottle(CurrentRates, throttling.AnonRateThrottle):
    """Anonymous clients, by IP address: the ``anon`` rate."""


class UserRateThrottle(CurrentRates, throttling.UserRateThrottle):
    """Signed-in users, by account: the ``user`` rate."""
