from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    path("players/<str:username>/", views.profile, name="profile"),
]
