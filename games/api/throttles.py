"""Rate limits per signed-in user and per anonymous client, with rates from settings.

DRF's throttles copy the rates when their module is imported, so a test that
overrides REST_FRAMEWORK (or a deployment reading rates late) would not be
heard; these read the current settings on every request.
"""

from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings


class _CurrentRates:
    @property
    def THROTTLE_RATES(self):  # noqa: N802 - the name DRF reads
        return api_settings.DEFAULT_THROTTLE_RATES


class AnonRateThrottle(_CurrentRates, throttling.AnonRateThrottle):
    """Anonymous clients, by IP address: the ``anon`` rate."""


class UserRateThrottle(_CurrentRates, throttling.UserRateThrottle):
    """Signed-in users, by account: the ``user`` rate."""


class ScopedRateThrottle(_CurrentRates, throttling.ScopedRateThrottle):
    """A view's own budget (``throttle_scope``), per user or per anonymous client."""
