"""Bot accounts and casual games: who plays whom, and which games move ratings."""

import pytest
from django.urls import reverse

from games.accounts import services as accounts_services
from games.errors import AccountRefused, ChallengeRefused
from games.lobby import pairing_services
from games.lobby import services as lobby_services
from games.lobby.models import Challenge, PairingStatus
from games.play import services
from games.play.models import Bot, Game
from games.play.players import Player
from games.stats import selectors
from games.stats.models import PlayerStats, RatingChange
from tests.factories import rating_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(name, password="x") for name in ("ann", "ben", "cat")]


def _game(x, o, **kwargs):
    challenge = lobby_services.challenge_create(challenger=x, side="X", **kwargs)
    return lobby_services.challenge_accept(user=o, challenge_id=challenge.pk)


def _play_out(game, moves=(0, 3, 1, 4, 2)):
    players = {"X": Player(user=game.x_player), "O": Player(user=game.o_player)}
    for ply, cell in enumerate(moves):
        services.game_play_move(game_id=game.pk, player=players["XO"[ply % 2]], cell=cell, ply=ply)
    return Game.objects.get(pk=game.pk)


def _ratings(*users):
    return [rating_of(u) for u in users]


def test_a_casual_game_leaves_both_ratings_untouched(people):
    ann, ben, _ = people
    game = _play_out(_game(ann, ben, rated=False))
    assert (game.result, game.rated) == ("x_won", False)
    assert _ratings(ann, ben) == [1200, 1200]
    assert not RatingChange.objects.exists()
    assert PlayerStats.objects.get(user=ann).games == 1  # still counted in the record


def test_a_rematch_keeps_the_game_casual(people):
    ann, ben, _ = people
    game = _play_out(_game(ann, ben, rated=False))
    offer = lobby_services.game_offer_rematch(game_id=game.pk, player=Player(user=ann))
    rematch = lobby_services.challenge_accept(user=ben, challenge_id=offer.pk)
    assert (offer.rated, rematch.rated) == (False, False)


def test_an_account_becomes_a_bot_only_before_its_first_game(people):
    ann, ben, cat = people
    bot, created = accounts_services.account_become_bot(user=cat)
    assert created and bot.accepts_people
    _game(ann, ben)
    with pytest.raises(AccountRefused, match="before it has played any game"):
        accounts_services.account_become_bot(user=ann)
    assert not Bot.objects.filter(user=ann).exists()


def test_a_game_between_a_bot_and_a_person_is_casual_and_the_leaderboards_apart(people):
    ann, ben, cat = people
    accounts_services.account_become_bot(user=cat)
    game = _play_out(_game(ann, cat))
    assert not game.rated
    assert _ratings(ann, cat) == [1200, 1200]
    _play_out(_game(ann, ben))
    assert [s.user for s in selectors.leaderboard()] == [ann, ben]
    assert list(selectors.leaderboard(bots=True)) == []


def test_a_bot_that_plays_only_bots_refuses_a_persons_challenge(people):
    ann, _, cat = people
    accounts_services.account_become_bot(user=cat, accepts_people=False)
    with pytest.raises(ChallengeRefused, match="plays only other bots") as refused:
        lobby_services.challenge_create(challenger=ann, kind="direct", opponent_username="cat")
    assert refused.value.code == "bot_declines_people"


def test_pairing_matches_only_requests_with_the_same_choice(people):
    ann, ben, cat = people
    first, _ = pairing_services.pairing_request(player=ann, variant="3x3", time_control="3+2", rated=True)
    casual, _ = pairing_services.pairing_request(player=ben, variant="3x3", time_control="3+2", rated=False)
    assert casual.status == PairingStatus.WAITING
    paired, _ = pairing_services.pairing_request(player=cat, variant="3x3", time_control="3+2", rated=True)
    assert paired.status == PairingStatus.MATCHED and paired.game.rated
    assert {paired.game.x_player, paired.game.o_player} == {ann, cat}


def test_api_makes_a_bot_and_refuses_after_a_game(people, client):
    ann, ben, cat = people
    client.force_login(cat)
    response = client.post("/api/account/bot/", {}, content_type="application/json")
    assert response.status_code == 201 and response.json()["bot"] is True
    _game(ann, ben)
    client.force_login(ann)
    response = client.post("/api/account/bot/", {}, content_type="application/json")
    assert response.status_code == 409 and response.json()["code"] == "has_played"


def test_a_bots_profile_shows_the_badge_and_a_challenge_form(people, client):
    ann, _, cat = people
    accounts_services.account_become_bot(user=cat)
    client.force_login(ann)
    html = client.get(reverse("games:profile", args=["cat"])).content.decode()
    assert ">BOT</abbr>" in html and "Challenge cat" in html
    # A clock of one's own, and no rated choice: a person's game with a bot is casual.
    assert 'name="clock_minutes"' in html and 'name="clock_increment"' in html
    assert 'name="rated"' not in html and "A game between a person and a bot is casual" in html
    response = client.post(
        reverse("games:challenge_new"),
        {
            "kind": "direct",
            "opponent_username": "cat",
            "side": "random",
            "variant": "3x3",
            "time_control": "custom",
            "clock_minutes": "2",
            "clock_increment": "1",
        },
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get(opponent=cat)
    assert (challenge.clock_initial, challenge.clock_increment, challenge.rated) == (120, 1, False)
    html = client.get(reverse("games:profile", args=["ann"])).content.decode()
    assert ">BOT</abbr>" not in html


def test_a_bot_on_another_bots_profile_chooses_rated_or_casual(people, client):
    _, ben, cat = people
    for user in (ben, cat):
        accounts_services.account_become_bot(user=user)
    client.force_login(ben)
    html = client.get(reverse("games:profile", args=["cat"])).content.decode()
    assert 'name="rated"' in html and "is casual" not in html


def test_the_bots_leaderboard_lists_rated_games_between_bots_in_a_few_queries(
    people, client, django_assert_max_num_queries
):
    ann, ben, cat = people
    for user in (ben, cat):
        accounts_services.account_become_bot(user=user)
    game = _play_out(_game(ben, cat))
    assert game.rated and _ratings(ben, cat) == [1220, 1180]
    _play_out(_game(cat, ben))
    with django_assert_max_num_queries(4):
        html = client.get(reverse("games:leaderboard") + "?bots=1").content.decode()
    assert html.count(">BOT</abbr>") == 2 and "/players/ann/" not in html
    assert "/players/ben/" not in client.get(reverse("games:leaderboard")).content.decode()
