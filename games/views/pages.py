from django.shortcuts import render


def home(request):
    """The front page: an invitation to play."""
    return render(request, "games/home.html")
