from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from games.accounts.forms import SignInForm
from games.serving import health
from games.serving.action_limits import limit_posts

urlpatterns = [
    # For load balancers, supervisors and the load script (games/serving/health.py).
    path("healthz/", health.healthz, name="healthz"),
    path("readyz/", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    # The JSON API for programs (games/api/); its docs are at /api/docs/.
    path("api/", include("games.api.urls")),
    # Django's own login, logout, password change and reset views; the
    # templates live in templates/registration/. Sign-in and reset requests
    # have a budget per client (games/serving/action_limits.py).
    path(
        "accounts/login/",
        limit_posts("signin")(auth_views.LoginView.as_view(authentication_form=SignInForm)),
        name="login",
    ),
    path(
        "accounts/password_reset/",
        limit_posts("password_reset")(auth_views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("games.urls")),
]
