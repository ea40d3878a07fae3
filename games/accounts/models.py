"""What an account keeps beside Django's user: its API tokens."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone


def token_digest(key: str) -> str:
    """What is stored of a token: its SHA-256. The key is random (160 bits),
    so a plain hash is enough, and a copy of the database opens no account."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A key a program sends as "Authorization: Token <key>". A player may hold
    several (one per program), see when each was last used, and revoke them;
    changing or resetting the password revokes them all."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=64)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    #: The key's first characters, to tell tokens apart on the page.
    prefix = models.CharField(max_length=8, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"
