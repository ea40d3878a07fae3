from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # Django's own login, logout, password change and reset views; the
    # templates live in templates/registration/.
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("games.urls")),
]
