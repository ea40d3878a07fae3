from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # The JSON API for programs (games/api/); its docs are at /api/docs/.
    path("api/", include("games.api.urls")),
    # Django's own login, logout, password change and reset views; the
    # templates live in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("games.urls")),
]
