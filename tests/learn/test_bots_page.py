"""Check your own minimax: the guide on the site, linked from /learn/ and
the API's docs, and the reference client's files to download."""

import pytest
from django.urls import reverse

from games.learn.bots import CLIENT_FILES

pytestmark = pytest.mark.django_db


def test_learn_links_to_the_guide_and_the_guide_shows_its_steps(client):
    learn = client.get(reverse("games:learn")).content.decode()
    assert f'<a href="{reverse("games:bots")}">Check your own minimax</a>' in learn

    response = client.get(reverse("games:bots"))
    html = response.content.decode()
    assert response.status_code == 200
    assert '<h1 id="bots-title">Check your own minimax</h1>' in html
    assert "<h2>4. Take the exam</h2>" in html
    assert '<pre><code class="language-python">def choose_move(board: str, to_move: str) -&gt; int:' in html
    assert 'href="/learn/bots/tttbot.py"' in html


@pytest.mark.parametrize("name", CLIENT_FILES)
def test_each_client_file_downloads_as_it_is_in_the_repository(client, settings, name):
    response = client.get(reverse("games:bot_client_file", args=[name]))

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    assert b"".join(response.streaming_content) == (settings.BASE_DIR / "clients" / "python" / name).read_bytes()


def test_no_other_file_is_served(client):
    for name in ("settings.py", "..%2F..%2Fmanage.py", "tttbot.pyc"):
        assert client.get(f"/learn/bots/{name}").status_code == 404


def test_the_api_docs_point_bot_writers_to_the_guide(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "[Check your own minimax](/learn/bots/)" in schema["info"]["description"]
