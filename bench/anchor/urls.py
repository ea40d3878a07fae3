from django.urls import path

from bench.anchor import views

urlpatterns = [
    path("empty/", views.empty),
    path("move/<int:pk>/", views.move),
]
