"""A learner in a real browser reads the review of a game they lost, finds the
move that decided it and the better one, then retries their mistakes: with
JavaScript and without, at phone and desktop widths (screenshots in /tmp)."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import engine
from games.play import review_services
from tests import factories

PASSWORD = "a-long-browser-passphrase-77"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def _lost_game(username: str, variant: str = "3x3"):
    """``username`` played X against the perfect AI, the lowest free cell each turn, and lost."""
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    game = factories.ai_game(user, level="perfect", first=0, variant=variant)
    assert game.result == "o_won"
    review_services.game_review_store(game_id=game.pk)  # as the background worker does once it ends
    return game


def _log_in(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav__user")).to_have_text(username)


def _shot(page, path: str):
    """A full-page screenshot from the top, where the sticky header belongs."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=path, full_page=True)


def _fits(page, where: str):
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{where} scrolls sideways by {overflow}px"


@pytest.mark.parametrize("size", SIZES)
def test_a_learner_finds_the_decisive_move_and_tries_their_mistake_again(live_server, browser, size):
    game = _lost_game(f"learner-{size}")
    review = engine.review(game.cells)
    decisive = review.moves[review.decisive_ply]
    assert decisive.player == "X" and decisive.label == "blunder"
    context = browser.new_context(viewport=SIZES[size])
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        _log_in(page, live_server, f"learner-{size}")
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.evaluate("window.__marker = 1")
        summary = page.locator(".review-summary")
        expect(summary).to_contain_text(f"The result was decided by move {decisive.ply + 1}, X at row")

        # The summary's link opens the decisive move (swapped in by JavaScript, no reload).
        summary.get_by_role("link", name=f"Show move {decisive.ply + 1}").click()
        lesson = page.locator("#game .lesson")
        expect(lesson).to_contain_text(f"Move {decisive.ply + 1}: X played")
        expect(lesson).to_contain_text("This move decided the game: until it, X could still draw")
        assert page.evaluate("window.__marker") == 1, "the replay reloaded the page"
        better = page.locator("#game .board .cell--better")
        expect(better).to_have_count(len(decisive.best_cells))
        expect(better.first).to_contain_text("better")
        expect(better.first).to_have_attribute("aria-label", re.compile(r"the better move for X, it would have drawn$"))
        expect(lesson.locator(".line").first).to_contain_text("(instead)")
        lesson.locator("summary").click()  # how the AI wins after the move played
        expect(lesson.locator("details")).to_contain_text("Then: O wins.")
        _fits(page, "the review")
        _shot(page, f"/tmp/review-game-{size}.png")

        # The next move, by the arrow key: its own lesson.
        page.keyboard.press("ArrowRight")
        expect(lesson).to_contain_text(f"Move {decisive.ply + 2}: O played")

        page.get_by_role("link", name="Learn from the mistakes").click()
        expect(page).to_have_url(f"{live_server.url}/games/{game.pk}/learn/")
        expect(page.get_by_role("heading", name="X to play")).to_be_visible()
        board = page.get_by_role("group", name=re.compile("the position before move"))
        before = engine.Board.from_moves(game.cells[: decisive.ply])
        losing = next(c for c, e in engine.analyse(before).items() if e.outcome == "loss" and c != decisive.cell)
        board.locator(f'button[value="{losing}"]').click()
        verdict = page.locator(".trainer__verdict")
        expect(verdict).to_contain_text("does not keep the draw")
        expect(verdict).to_contain_text("Try another cell.")
        _fits(page, "the trainer")
        _shot(page, f"/tmp/review-trainer-wrong-{size}.png")

        page.get_by_role("group", name=re.compile("the position before move")).locator(
            f'button[value="{decisive.best_cells[0]}"]'
        ).click()
        expect(verdict).to_contain_text("keeps the draw, as well as any move can")
        expect(page.locator(".trainer__card .line")).to_contain_text("(instead)")
        _shot(page, f"/tmp/review-trainer-right-{size}.png")
    finally:
        context.close()
    assert not errors, errors


def test_the_trainer_works_without_javascript_on_a_4x4_board(live_server, browser):
    game = _lost_game("no-script", variant="4x4")
    review = engine.review(game.cells, size=4)
    mistakes = [move for move in review.moves if move.label in ("mistake", "blunder") and move.player == "X"]
    assert mistakes
    context = browser.new_context(java_script_enabled=False, viewport=SIZES["phone"])
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        _log_in(page, live_server, "no-script")
        page.goto(f"{live_server.url}/games/{game.pk}/learn/")
        expect(page.locator(".trainer__progress")).to_contain_text(f"Mistake 1 of {len(mistakes)}")
        page.get_by_role("link", name="Show the answer").click()
        before = engine.Board.from_moves(game.cells[: mistakes[0].ply], size=4)
        keep = [cell for cell, e in engine.analyse(before).items() if e.outcome == mistakes[0].best.outcome]
        keeps = page.locator(".board .cell--keeps")
        expect(keeps).to_have_count(len(keep))
        keeps.first.click()
        expect(page.locator(".trainer__verdict")).to_contain_text("Yes:")
        _fits(page, "the 4x4 trainer")
        _shot(page, "/tmp/review-trainer-4x4-phone.png")
    finally:
        context.close()


def test_a_5x5_review_marks_the_better_cells_for_anyone_watching(live_server, page):
    bob, carol = (get_user_model().objects.create_user(name, password=PASSWORD) for name in ("bob", "carol"))
    game = factories.human_game(bob, carol, [12, 0, 13, 1, 14, 2, 11], variant="5x5")  # O's corner loses
    review_services.game_review_store(game_id=game.pk)
    page.set_viewport_size(SIZES["phone"])
    page.goto(f"{live_server.url}/games/{game.pk}/?ply=2")  # not signed in: game pages are public
    expect(page.locator("#game .lesson")).to_contain_text("Move 2: O played row 1, col 1 blunder")
    expect(page.locator("#game .board .cell--better")).to_have_count(4)
    expect(page.locator("#game .lesson")).to_contain_text(
        "Row 2, col 2 would have drawn; after row 1, col 1, X wins in"
    )
    _fits(page, "the 5x5 review")
    _shot(page, "/tmp/review-game-5x5-phone.png")
    page.get_by_role("link", name="Learn from the mistakes").click()
    expect(page.locator(".trainer__progress")).to_contain_text("Mistake 1 of 1 · move 2")


def test_the_review_appears_by_itself_once_the_worker_has_made_it(live_server, page):
    bob, carol = (get_user_model().objects.create_user(name, password=PASSWORD) for name in ("bob", "carol"))
    game = factories.human_game(bob, carol, [0, 1, 4, 8, 3, 5, 6])  # O blunders on move 2
    page.goto(f"{live_server.url}/games/{game.pk}/?ply=2")
    page.evaluate("window.__marker = 1")
    pending = page.locator("#game .review-pending")
    expect(pending).to_have_text("The review is being prepared…", use_inner_text=True)  # "reload": no script
    review_services.game_review_store(game_id=game.pk)
    expect(page.locator("#game .lesson")).to_contain_text("Move 2: O played row 1, col 2 blunder")
    expect(pending).to_have_count(0)
    assert page.evaluate("window.__marker") == 1  # no reload: the panel was fetched again
