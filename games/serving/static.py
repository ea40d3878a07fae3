"""The static files a production server needs before it serves a page.

With DEBUG off, static files are served under hashed names read from the
manifest collectstatic writes (staticfiles.json in STATIC_ROOT). Without it
every page that names a static file fails with "Missing staticfiles manifest
entry": a 500 per page. So a server refuses to start instead
(``require_manifest``, called by tttsite/asgi.py and tttsite/wsgi.py), and
``manage.py check --deploy`` reports it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core import checks
from django.core.exceptions import ImproperlyConfigured


def missing_manifest() -> str | None:
    """What is wrong, in a sentence that says what to run; None when nothing is."""
    if settings.DEBUG or not isinstance(staticfiles_storage, ManifestFilesMixin):
        return None
    if staticfiles_storage.manifest_storage.exists(staticfiles_storage.manifest_name):
        return None
    where = staticfiles_storage.manifest_storage.path(staticfiles_storage.manifest_name)
    return (
        f"The static files manifest {where} is missing, so every page would fail with a 500. "
        "Run `python manage.py collectstatic --noinput` (with the same STATIC_ROOT) before starting the server."
    )


def require_manifest() -> None:
    """Raise ImproperlyConfigured when a server must not start for want of the manifest."""
    problem = missing_manifest()
    if problem:
        raise ImproperlyConfigured(problem)


@checks.register(checks.Tags.staticfiles, deploy=True)
def check_manifest(app_configs=None, **kwargs):
    problem = missing_manifest()
    return [checks.Error(problem, id="games.E001")] if problem else []
