from django.contrib import admin
from django.urls import include, path

from games.serving import health

urlpatterns = [
    # For load balancers, supervisors and the load script (games/serving/health.py).
    path("healthz/", health.healthz, name="healthz"),
    path("readyz/", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    # The JSON API for programs (games/api/); its docs are at /api/docs/.
    path("api/", include("games.api.urls")),
    # Django's own login, logout, password change and reset views; the
    # templates live in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("games.urls")),
]
