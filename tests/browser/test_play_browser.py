"""Playing in a real browser: mouse, keyboard, no JavaScript, guests, replay and the AI's view."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import engine
from games.play import services
from games.play.models import Game, Status
from games.play.players import Player
from tests.engine import reference

PASSWORD = "a-long-browser-passphrase-77"
MARKED = "#game .board .cell--x, #game .board .cell--o"
FREE = "#game .board button.cell:not([disabled])"
NUMPAD_KEYS = ("7", "8", "9", "4", "5", "6", "1", "2", "3")  # cell 0 is the top left: key 7
# The AI has answered (the panel was swapped in with two more moves) or the game is over.
ANSWERED = """before => {
  const game = document.getElementById("game");
  return game && (Number(game.dataset.ply) >= before + 2 || game.dataset.status !== "in_progress");
}"""


# -- helpers --------------------------------------------------------------------------


def sign_up(page, live_server, username):
    page.goto(live_server.url + "/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".nav__user")).to_have_text(username)


def log_in(page, live_server, username):
    get_user_model().objects.create_user(username, password=PASSWORD)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav__user")).to_have_text(username)


def play_now_as_x(page, live_server):
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="Play now as X").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator("#game")).to_have_attribute("data-your-turn", "1")
    return int(page.locator("#game").get_attribute("data-game"))


def ply(page) -> int:
    return int(page.locator("#game").get_attribute("data-ply"))


def free_cells(page) -> list[int]:
    return [int(value) for value in page.locator(FREE).evaluate_all("cells => cells.map(c => c.value)")]


def game_over(page) -> bool:
    return page.locator("#game").get_attribute("data-status") != "in_progress"


def move_and_wait(page, act):
    """Make a move with ``act()`` and wait for the AI's answer, swapped in without a reload."""
    troubles = []  # what would explain a fall back on a plain form POST (a reload)

    def on_response(response):
        if response.status >= 500:
            troubles.append(f"{response.status} {response.request.method} {response.url}")

    def on_failure(request):
        troubles.append(f"failed {request.method} {request.url}: {request.failure}")

    page.on("response", on_response)
    page.on("requestfailed", on_failure)
    before = ply(page)
    try:
        act()
        page.wait_for_function(ANSWERED, arg=before)
    finally:
        page.remove_listener("response", on_response)
        page.remove_listener("requestfailed", on_failure)
    assert page.evaluate("window.__marker") == 1, (
        f"the page navigated instead of updating in place after ply {before}; {troubles or 'no server error seen'}"
    )


def expect_the_ai_did_not_lose(page):
    status = page.locator("#game-status")
    expect(status).to_have_text(re.compile(r"^\s*(The AI won|Draw)"))
    return "Lost" if "The AI won" in status.inner_text() else "Drawn"


def expect_in_history(page, game_id, badge):
    page.locator(".site-header").get_by_role("link", name="My games").click()
    expect(page).to_have_url(re.compile(r"/games/$"))
    expect(page.get_by_role("heading", name="My games")).to_be_visible()
    row = page.locator(f'tr.history-row[data-game="{game_id}"]')
    expect(row.locator(".history-row__result .badge")).to_have_text(badge)
    expect(row.get_by_role("link", name="AI (perfect)")).to_have_attribute("href", f"/games/{game_id}/")


def arrow_targets(start, free):
    """Where each arrow key takes the focus from ``start`` on 3x3: the nearest free
    cell that way (occupied cells are skipped), or None at the edge."""
    targets = {}
    for key, (d_row, d_col) in {
        "ArrowUp": (-1, 0),
        "ArrowDown": (1, 0),
        "ArrowLeft": (0, -1),
        "ArrowRight": (0, 1),
    }.items():
        row, col = divmod(start, 3)
        targets[key] = None
        while 0 <= row + d_row < 3 and 0 <= col + d_col < 3:
            row, col = row + d_row, col + d_col
            if row * 3 + col in free:
                targets[key] = row * 3 + col
                break
    return targets


def finished_game(username="replayer") -> Game:
    """A game played to its end through the services: perfect against perfect, a draw in 9 moves."""
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    player = Player(user=user)
    game = services.game_create_against_ai(player=player, side="X", level="perfect", seed=3)
    while game.status == Status.IN_PROGRESS:
        cell = engine.best_move(game.board, "perfect", seed=game.move_count)
        game = services.game_play_move(game_id=game.pk, player=player, cell=cell, ply=game.move_count).game
    return game


# -- 1. the mouse -------------------------------------------------------------------------


def test_a_full_game_with_the_mouse_ends_in_the_history(live_server, page):
    sign_up(page, live_server, "mousy")
    game_id = play_now_as_x(page, live_server)
    page.evaluate("window.__marker = 1")

    moves = 0
    while not game_over(page):
        cell = free_cells(page)[0]
        move_and_wait(page, lambda: page.locator(f'{FREE}[value="{cell}"]').click())
        expect(page.locator(f'#game .board .cell[value="{cell}"]')).to_have_text("X")
        moves += 1
        assert moves <= 5

    badge = expect_the_ai_did_not_lose(page)
    expect(page.locator(FREE)).to_have_count(0)
    assert Game.objects.get(pk=game_id).status == Status.FINISHED
    page.screenshot(path="/tmp/tttsite-game-finished-1280-light.png", full_page=True)
    expect_in_history(page, game_id, badge)


# -- 2. the keyboard ----------------------------------------------------------------------


def test_a_full_game_with_the_keyboard_alone(live_server, page):
    log_in(page, live_server, "keys")
    game_id = play_now_as_x(page, live_server)
    page.evaluate("window.__marker = 1")

    # Tab from the top of the page until a cell of the board has the focus.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('#game .board .cell')"):
            break
    else:
        pytest.fail("Tab never reached the board")
    focused = page.evaluate("Number(document.activeElement.value)")
    move_and_wait(page, lambda: page.keyboard.press("Enter"))
    expect(page.locator(f'#game .board .cell[value="{focused}"]')).to_have_text("X")

    # Number keys, laid out like a numpad: 7 8 9 is the top row.
    if not game_over(page):
        cell = free_cells(page)[0]
        move_and_wait(page, lambda: page.keyboard.press(NUMPAD_KEYS[cell]))
        expect(page.locator(f'#game .board .cell[value="{cell}"]')).to_have_text("X")

    # Arrow keys move between the free cells, Enter plays the one with the focus.
    while not game_over(page):
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("ArrowDown")  # the first arrow outside the board enters it
        assert page.evaluate("document.activeElement.matches('#game .board button.cell:not([disabled])')")
        start = page.evaluate("Number(document.activeElement.value)")
        key, cell = next(
            ((key, target) for key, target in arrow_targets(start, free_cells(page)).items() if target is not None),
            (None, start),
        )
        if key:
            page.keyboard.press(key)
        assert page.evaluate("Number(document.activeElement.value)") == cell, (start, key, cell)
        move_and_wait(page, lambda: page.keyboard.press("Enter"))
        expect(page.locator(f'#game .board .cell[value="{cell}"]')).to_have_text("X")
        # ...and a number key for the next move, when there is one.
        if not game_over(page):
            other = free_cells(page)[-1]
            move_and_wait(page, lambda: page.keyboard.press(NUMPAD_KEYS[other]))
            expect(page.locator(f'#game .board .cell[value="{other}"]')).to_have_text("X")

    badge = expect_the_ai_did_not_lose(page)
    expect_in_history(page, game_id, badge)


def test_the_numpad_keys_play_the_cells_they_stand_for(live_server, page):
    """7 is the top left cell, 3 the bottom right: one key per move, each checked."""
    play_now_as_x(page, live_server)
    page.evaluate("window.__marker = 1")
    pressed = []
    for key, cell in (("7", 0), ("3", 8), ("9", 2), ("1", 6), ("5", 4)):
        if game_over(page):
            break
        if cell not in free_cells(page):
            continue
        move_and_wait(page, lambda key=key: page.keyboard.press(key))
        expect(page.locator(f'#game .board .cell[value="{cell}"]')).to_have_text("X")
        pressed.append(key)
    # The perfect AI answers a corner in the centre and then takes an edge, so
    # the three corners' keys were all pressed (the loop skipped none of them).
    assert pressed[:3] == ["7", "3", "9"], pressed


# -- 3. without JavaScript ----------------------------------------------------------------


def test_a_game_proceeds_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        page.get_by_role("button", name="Play now as X").click()
        expect(page).to_have_url(re.compile(r"/games/\d+/$"))
        game_id = int(page.locator("#game").get_attribute("data-game"))
        moves = 0
        while not game_over(page):
            before = page.locator(MARKED).count()
            cell = free_cells(page)[0]
            with page.expect_navigation():  # a plain form POST and a redirect
                page.locator(f'{FREE}[value="{cell}"]').click()
            expect(page.locator(f'#game .board .cell[value="{cell}"]')).to_have_text("X")
            # The move and the AI's answer, but for X's fifth move, which fills the board.
            assert page.locator(MARKED).count() == before + (1 if before == 8 else 2)
            moves += 1
            assert moves <= 5
        expect_the_ai_did_not_lose(page)
        game = Game.objects.get(pk=game_id)
        assert game.status == Status.FINISHED and game.move_count == page.locator(MARKED).count()
    finally:
        context.close()


# -- 4. a guest who signs up ----------------------------------------------------------------


def test_a_guest_game_follows_the_guest_into_their_new_account(live_server, page):
    game_id = play_now_as_x(page, live_server)
    expect(page.locator(".site-header").get_by_role("link", name="My games")).to_have_count(0)
    page.evaluate("window.__marker = 1")
    while not game_over(page):
        cell = free_cells(page)[0]
        move_and_wait(page, lambda: page.locator(f'{FREE}[value="{cell}"]').click())
    badge = expect_the_ai_did_not_lose(page)

    page.locator(".site-header").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label(re.compile(r"^Password:?$")).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    expect(page.locator(".message--info")).to_contain_text("you played as a guest")
    expect_in_history(page, game_id, badge)
    assert Game.objects.get(pk=game_id).x_player.username == "newcomer"


# -- 5. the replay ----------------------------------------------------------------------------


def test_the_replay_steps_through_the_positions_with_buttons_and_arrow_keys(live_server, page):
    game = finished_game()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.__marker = 1")
    position = page.locator("#game .replay__position")
    marks = page.locator(MARKED)
    expect(position).to_have_text("9 / 9")
    expect(marks).to_have_count(9)

    controls = page.get_by_role("navigation", name="Replay")
    controls.get_by_role("link", name="First position").click()
    expect(position).to_have_text("0 / 9")
    expect(marks).to_have_count(0)
    expect(page).to_have_url(re.compile(r"\?ply=0$"))
    page.get_by_role("navigation", name="Replay").get_by_role("link", name="Next move").click()
    expect(position).to_have_text("1 / 9")
    expect(marks).to_have_count(1)
    page.get_by_role("navigation", name="Replay").get_by_role("link", name="Next move").click()
    expect(position).to_have_text("2 / 9")
    page.get_by_role("navigation", name="Replay").get_by_role("link", name="Previous move").click()
    expect(position).to_have_text("1 / 9")
    page.get_by_role("navigation", name="Replay").get_by_role("link", name="Last position").click()
    expect(position).to_have_text("9 / 9")
    expect(marks).to_have_count(9)

    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text("8 / 9")
    expect(marks).to_have_count(8)
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text("7 / 9")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text("8 / 9")
    assert page.evaluate("window.__marker") == 1, "the replay reloaded the page"

    # The browser's back button walks back through the steps too.
    page.go_back()
    expect(position).to_have_text("7 / 9")

    page.goto(f"{live_server.url}/games/{game.pk}/?ply=2")
    expect(position).to_have_text("2 / 9")
    expect(marks).to_have_count(2)
    expect(page.locator("#game-status")).to_contain_text("Draw")


# -- 6. the AI's thinking and the hint -----------------------------------------------------------


def test_the_ais_thinking_paints_every_free_cell_and_the_hint_picks_one(live_server, page):
    game_id = play_now_as_x(page, live_server)
    page.evaluate("window.__marker = 1")

    page.get_by_role("button", name="Show the AI's thinking").click()
    evaluated = page.locator("#game .board .cell--eval")
    expect(evaluated).to_have_count(9)
    for text in page.locator("#game .board .cell__eval").all_inner_texts():
        assert re.fullmatch(r"(WIN|LOSS) \d+|DRAW", text.strip().upper()), text
    expect(page.locator("#game .board .cell--eval-draw")).to_have_count(9)  # the empty board is a draw
    # Every cell draws, so each also counts its traps (tests/browser/test_traps_browser.py checks them).
    expect(page.locator("#game .board .cell__traps")).to_have_count(9)
    stats = page.locator("#game .thinking .stats")
    expect(
        stats.locator("div").filter(has_text="Positions this search visited (alpha-beta with memory)").locator("dd")
    ).to_have_text(re.compile(r"^[\d,]+$"))
    for name in ("A textbook alpha-beta (no memory, fixed order)", "Plain minimax (the whole game tree)"):
        expect(stats.locator("div").filter(has_text=name).locator("dd")).to_have_text(
            re.compile(r"^(more than )?[\d,]+$")
        )
    expect(page.get_by_role("button", name="Hide the AI's thinking")).to_have_attribute("aria-pressed", "true")
    page.screenshot(path="/tmp/tttsite-thinking-1280-light.png")

    # A move keeps the thinking on: the next position's free cells are painted
    # too, each as the independent referee has it (after an edge some lose).
    move_and_wait(page, lambda: page.locator(f'{FREE}[value="1"]').click())
    expect(evaluated).to_have_count(len(free_cells(page)))
    assert len(free_cells(page)) == 7
    position = str(Game.objects.get(pk=game_id).board)
    values = reference.move_values(position)
    # Each cell's outcome (below it, where every cell draws, its traps: the AI's reply decides which).
    painted = {
        int(cell.get_attribute("value")): cell.locator(".cell__eval").inner_text().strip().lower()
        for cell in evaluated.all()
    }
    expected = {}
    for cell, score in values.items():
        outcome, plies = reference.describe(score, position)
        expected[cell] = "draw" if outcome == "draw" else f"{outcome} {plies}"
    assert painted == expected, position

    page.get_by_role("button", name="Hide the AI's thinking").click()
    expect(evaluated).to_have_count(0)

    page.get_by_role("button", name="Hint", exact=True).click()
    expect(page.locator("#game .board .cell--hint")).to_have_count(1)
    hint = page.locator("#game .hint")
    expect(hint).to_contain_text("Recommended: row")
    expect(hint).to_have_text(re.compile(r"found in [\d.]+ (µs|ms|s)\."))
    page.screenshot(path="/tmp/tttsite-hint-1280-light.png")
    hinted = int(page.locator("#game .board .cell--hint").get_attribute("value"))
    assert hinted in free_cells(page)
    assert values[hinted] == max(values.values()), (position, hinted)  # a best cell, by the referee
    assert page.evaluate("window.__marker") == 1


# -- how the pages look ---------------------------------------------------------------------------


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_history_and_game_pages_fit_the_screen(live_server, browser, width, scheme):
    game = finished_game("a-rather-long-username-for-a-phone")
    user = game.x_player
    player = Player(user=user)
    for n in range(24):
        new = services.game_create_against_ai(
            player=player,
            side="XO"[n % 2],
            level=("easy", "perfect")[n % 2],
            seed=n,
            variant=("3x3", "4x4")[n % 5 == 0],
        )
        if n % 3 == 0:
            services.game_resign(game_id=new.pk, player=player)
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill(user.username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        for name, path in [
            ("history", "/games/?opponent=ai"),
            ("game", f"/games/{game.pk}/"),
            ("profile", f"/players/{user.username}/"),
        ]:
            page.goto(live_server.url + path)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width}px"
            page.screenshot(path=f"/tmp/tttsite-{name}-{width}-{scheme}.png", full_page=True)
        # Every row of the history is a link to its game, however narrow the screen.
        page.goto(live_server.url + "/games/")
        row = page.locator("tr.history-row").first
        target = row.get_attribute("data-game")
        # The date is not a link itself: the row's link covers it (force: Playwright
        # would otherwise wait for the date to be the top element under the mouse).
        row.locator(".history-row__date").click(force=True)
        expect(page).to_have_url(f"{live_server.url}/games/{target}/")
    finally:
        context.close()
