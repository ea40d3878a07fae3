from django.urls import path

from games.devtools.anchor import views

urlpatterns = [
    path("empty/", views.empty),
    path("move/<int:pk>/", views.move),
]
