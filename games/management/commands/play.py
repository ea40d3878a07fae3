"""``python manage.py play``: a game against the AI in the terminal.

Like the classroom programs it grew from: choose X or O, type moves on a
numpad-like grid ("Bad move" asks again), ask for the recommended move and see
how long the evaluation took, or ask why (``w``): the line of best play from
there, move by move, and how it ends; ``t`` takes your last move back, with the
AI's reply. Moves are typed as a numpad digit on 3x3 (7 8 9
is the top row, as on a keyboard's numpad) or, on every board, as a row and a
column counted from 1: ``1 3`` or ``1,3`` is the top right corner of 3x3.

Every game is played through the services, with or without ``--user``. The
terminal is then one more client, like the web pages: the rules, the AI's
opening and its seeded choices are decided in one place, so a game played here
cannot differ from the same game played on the site: the move service makes
the AI's reply, as it does for every page. Without ``--user`` the
player is a guest, exactly like a visitor who has not signed in: the game is
stored under a fresh guest key that lives only as long as the command, so it
is in nobody's history. With ``--user`` it is that user's game and shows in
their history.

X always moves first, so who starts and which side you play are one choice:
``--side`` picks the side (X starts), ``--first`` picks who starts (the starter
plays X); with neither, the command asks "Choose X or O". Leaving before the
end (``q``, Ctrl-D or Ctrl-C) resigns the game, or aborts it before both
sides have moved.
"""

from __future__ import annotations

import re
import sys
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games import engine
from games.engine_work import jobs as engine_jobs
from games.errors import GameError
from games.learn import explain
from games.play import chances, clocks, offers, services
from games.play.clocks import TimeControl
from games.play.models import LEVEL_DESCRIPTIONS, Game, Level, StartMode, Status, Variant, levels_described
from games.play.players import Player, new_guest_key

# Numpad digit -> (row, column): 7 8 9 on top, 1 2 3 at the bottom.
NUMPAD = {7: (0, 0), 8: (0, 1), 9: (0, 2), 4: (1, 0), 5: (1, 1), 6: (1, 2), 1: (2, 0), 2: (2, 1), 3: (2, 2)}
NUMPAD_KEY = {row * 3 + column: digit for digit, (row, column) in NUMPAD.items()}

QUIT = {"q", "quit", "exit", "resign"}
HINT = {"h", "hint"}
WHY = {"w", "why"}
TAKE_BACK = {"t", "takeback", "undo"}
HELP = {"?", "help"}
#: Seconds the engine may take for a hint, as on the game page.
HINT_BUDGET = 3.0


class BadMove(ValueError):
    """Typed text that is not a cell of the board."""


def cell_name(cell: int, size: int) -> str:
    row, column = divmod(cell, size)
    return f"row {row + 1}, column {column + 1}"


def cell_input(cell: int, size: int) -> str:
    """What to type for ``cell``: its numpad digit on 3x3, else "row column"."""
    if size == 3:
        return str(NUMPAD_KEY[cell])
    row, column = divmod(cell, size)
    return f"{row + 1} {column + 1}"


def parse_move(text: str, size: int) -> int:
    """The cell that ``text`` names: a numpad digit (3x3) or "row column", from 1."""
    parts = [part for part in re.split(r"[\s,;]+", text.strip()) if part]
    if size == 3:
        how = 'a numpad digit 1-9, or row and column like "1 3"'
    else:
        how = f'row and column like "2 3" (1 to {size})'
    if not parts or not all(part.isascii() and part.isdigit() for part in parts) or len(parts) > 2:
        raise BadMove(f"Bad move: {text.strip()!r} is not a cell. Type {how}.")
    if len(parts) == 1:
        digit = int(parts[0])
        if size == 3 and digit in NUMPAD:
            row, column = NUMPAD[digit]
            return row * 3 + column
        raise BadMove(f"Bad move: {text.strip()!r} is not a cell. Type {how}.")
    row, column = (int(part) for part in parts)
    if not (1 <= row <= size and 1 <= column <= size):
        raise BadMove(f"Off the board: {row} {column}. Rows and columns go from 1 to {size}.")
    return (row - 1) * size + (column - 1)


def render_board(board: engine.Board, highlight=lambda mark: mark) -> str:
    """The board as a text grid with row and column numbers; on 3x3 the numpad
    digits of the free cells beside it. ``highlight`` styles the winning marks."""
    size = board.size
    line = set(board.winning_line or ())
    rule = "   " + "+".join(["---"] * size)
    key_rule = "+".join(["---"] * 3)
    lines = ["    " + "   ".join(str(column + 1) for column in range(size)) + ("        keys" if size == 3 else "")]
    for row in range(size):
        cells = []
        for cell in range(row * size, (row + 1) * size):
            mark = board.cell(cell)
            shown = " " if mark == "." else highlight(mark) if cell in line else mark
            cells.append(f" {shown} ")
        text = f"{row + 1}  " + "|".join(cells)
        if size == 3:
            key = "|".join(
                f" {NUMPAD_KEY[cell] if board.cell(cell) == '.' else ' '} " for cell in range(row * 3, row * 3 + 3)
            )
            text += "     " + key
        lines.append(text)
        if row < size - 1:
            lines.append(rule + ("     " + key_rule if size == 3 else ""))
    return "\n".join(line.rstrip() for line in lines)


class Command(BaseCommand):
    help = "Play tic-tac-toe against the AI in the terminal."
    stealth_options = ("stdin",)
    requires_migrations_checks = True

    def add_arguments(self, parser):
        parser.add_argument("--side", type=str.upper, choices=["X", "O"], help="Your side; X moves first.")
        parser.add_argument(
            "--first", choices=["me", "ai"], help="Who starts (the starter plays X), when --side is not given."
        )
        parser.add_argument(
            "--level", choices=Level.values, help=f"The AI's strength (asked if not given). {levels_described()}"
        )
        parser.add_argument("--variant", choices=Variant.values, default=Variant.THREE, help="Default 3x3.")
        parser.add_argument(
            "--start-mode",
            choices=StartMode.values,
            default=StartMode.MINIMAX,
            help="How the AI opens when it moves first (default minimax).",
        )
        parser.add_argument(
            "--clock",
            metavar="MINUTES+SECONDS",
            default="none",
            help='Play on a clock, e.g. "3+2": three minutes, two more after each move. Only you have one.',
        )
        parser.add_argument("--user", metavar="USERNAME", help="Save the game in this user's history.")
        parser.add_argument("--seed", type=int, help="Make the AI's choices repeatable.")

    # -- input and output ----------------------------------------------------------

    def _ask(self, prompt: str) -> str | None:
        """One line typed by the player, stripped; None at the end of input."""
        if self._terminal:
            try:
                return input(prompt).strip()
            except EOFError:
                self.stdout.write("")
                return None
        self.stdout.write(prompt, ending="")
        self.stdout.flush()
        line = self._stdin.readline()
        if not line:
            self.stdout.write("")
            return None
        # Scripted input does not echo: repeat it so the transcript reads like a session.
        self.stdout.write(line.rstrip("\n"))
        return line.strip()

    def _say(self, text: str = "", style=None) -> None:
        self.stdout.write(style(text) if style else text)

    # -- the game ----------------------------------------------------------------

    def handle(self, *args, **options):
        self._stdin = options.get("stdin") or sys.stdin
        self._terminal = (
            self._stdin is sys.stdin and not options.get("stdout") and sys.stdin.isatty() and sys.stdout.isatty()
        )
        if self._terminal:
            try:
                import readline  # noqa: F401 - gives input() line editing and history
            except ImportError:
                pass

        user = self._user(options["user"])
        try:
            clock = TimeControl.parse(options["clock"])
        except ValueError as error:
            raise CommandError(f"--clock: {error}") from None
        if clock.kind == "correspondence":
            raise CommandError('--clock: a game in the terminal takes minutes, e.g. "3+2", not days')
        try:
            side = self._side(options["side"], options["first"])
            if side is None:
                return
            level = self._level(options["level"])
            if level is None:
                return
        except KeyboardInterrupt:
            self._say("\nBye")
            return

        player = Player(user=user) if user else Player(guest_key=new_guest_key())
        game = services.game_create_against_ai(
            player=player,
            variant=options["variant"],
            side=side,
            level=level,
            start_mode=options["start_mode"],
            seed=options["seed"],
            time_control=clock,
        )
        self._introduce(game)
        if game.move_count:
            self._show_ai_move(game, seconds=None)
        try:
            game = self._play(game, player)
        except KeyboardInterrupt:
            self._say("")
            game = self._leave(game, player)
        self._finish(game, user)

    def _user(self, username: str | None):
        if not username:
            return None
        User = get_user_model()
        try:
            return User._default_manager.get_by_natural_key(username)
        except User.DoesNotExist:
            raise CommandError(
                f"There is no user called {username!r}: check the name or play without --user."
            ) from None

    def _side(self, side: str | None, first: str | None) -> str | None:
        if side and first:
            starter = "me" if side == "X" else "ai"
            if first != starter:
                raise CommandError(
                    f"X always moves first, so with --side {side} {'you start' if side == 'X' else 'the AI starts'}: "
                    "give --side or --first, not both."
                )
            return side
        if side:
            return side
        if first:
            return "X" if first == "me" else "O"
        while True:
            answer = self._ask("Choose X or O\nChosen: ")
            if answer is None:
                self._say("Bye")
                return None
            if answer.upper() in ("X", "O"):
                return answer.upper()
            self._say("Bad choice: type X or O.")

    def _level(self, level: str | None) -> str | None:
        if level:
            return level
        for choice in Level:
            self._say(f"  {choice.value}: {LEVEL_DESCRIPTIONS[choice]}")
        while True:
            answer = self._ask("Level: easy, medium, hard or perfect [perfect]: ")
            if answer is None:
                self._say("Bye")
                return None
            answer = answer.lower()
            if not answer:
                return Level.PERFECT
            matches = [value for value in Level.values if value.startswith(answer)]
            if len(matches) == 1:
                return matches[0]
            self._say("Bad choice: type easy, medium, hard or perfect (or press Enter for perfect).")

    def _introduce(self, game: Game) -> None:
        you, ai = game.human_side, game.ai_side
        self._say(
            f"\nTic-tac-toe, {game.get_variant_display()}, against the AI ({game.get_ai_level_display().lower()})."
        )
        self._say(
            f"You play {you}, the AI plays {ai}. X moves first: {'you start' if you == 'X' else 'the AI starts'}."
        )
        self._say(self._how_to_move(game.size))

    def _how_to_move(self, size: int) -> str:
        if size == 3:
            how = 'Type a move as a numpad digit (7 8 9 is the top row) or as row and column, e.g. "1 3".'
        else:
            how = f'Type a move as row and column, each from 1 to {size}, e.g. "2 3".'
        return (
            how + "\nh: recommended move   w: why (the line of best play)   t: take back your last move"
            "   ?: help   q: resign and quit"
        )

    def _time_left(self, game: Game) -> str:
        """ ", 2:58 left" on a clock, as the server counts it; nothing without one."""
        if not game.has_clock:
            return ""
        state = game.clock_state()
        ms = state["x_ms"] if game.human_side == "X" else state["o_ms"]
        return f", {clocks.format_ms(ms)} left"

    def _show(self, game: Game, ply: int | None = None) -> None:
        """The board of ``game`` (after ``ply`` moves, when given)."""
        self._say("")
        self._say(render_board(game.board if ply is None else game.board_at(ply), highlight=self.style.SUCCESS))
        self._say("")

    def _show_ai_move(self, game: Game, seconds: float | None) -> None:
        cell = game.cells[-1]
        took = f" Evaluation time: {seconds:.4f}s." if seconds is not None else ""
        self._say(f"AI ({game.ai_side}) plays {cell_input(cell, game.size)}: {cell_name(cell, game.size)}.{took}")
        self._show(game)

    def _play(self, game: Game, player: Player) -> Game:
        if not game.move_count:
            self._show(game)
        while game.status == Status.IN_PROGRESS:
            answer = self._ask(f"Your move ({game.human_side}{self._time_left(game)}): ")
            if answer is None or answer.lower() in QUIT:
                return self._leave(game, player)
            if answer.lower() in HINT:
                self._hint(game)
                continue
            if answer.lower() in WHY:
                self._why(game)
                continue
            if answer.lower() in TAKE_BACK:
                game = self._take_back(game, player)
                continue
            if answer.lower() in HELP:
                self._say(self._how_to_move(game.size))
                continue
            before = game.move_count
            try:
                cell = parse_move(answer, game.size)
                start = time.perf_counter()
                game = services.game_play_move(game_id=game.pk, player=player, cell=cell, ply=game.move_count).game
                seconds = time.perf_counter() - start
            except BadMove as error:
                self._say(str(error), self.style.ERROR)
                continue
            except GameError as error:
                if error.code == "out_of_time":
                    self._say("Your time ran out before that move: the game is over.", self.style.ERROR)
                    return error.game
                if error.code == "occupied":
                    message = f"Bad move: {cell_name(cell, game.size)} is taken. Choose an empty cell."
                else:
                    message = f"Bad move: {error.message}."
                self._say(message, self.style.ERROR)
                if error.game is not None:
                    game = error.game
                continue
            self._say(f"You play {cell_input(cell, game.size)}: {cell_name(cell, game.size)}.")
            self._show(game, ply=before + 1)
            if game.board_at(before + 1).is_game_over():
                break
            # The AI's reply came with the move; on 3x3 it is a look-up, not worth timing.
            self._show_ai_move(game, seconds if game.size > 3 else None)
        return game

    def _take_back(self, game: Game, player: Player) -> Game:
        """Take back the player's last move and the AI's reply (the AI always agrees)."""
        before = game.move_count
        try:
            game = offers.game_take_back_against_ai(game_id=game.pk, player=player)
        except GameError as error:
            self._say(f"Nothing taken back: {error.message}.", self.style.ERROR)
            return error.game or game
        self._say("You take back your last move" + (" and the AI's reply." if before - game.move_count == 2 else "."))
        self._show(game)
        return game

    def _hint(self, game: Game) -> None:
        """The game page's hint: among the best moves, the one leaving the most traps, and why."""
        board = game.board
        start = time.perf_counter()
        (analysis, cell), _ = engine_jobs.hint(str(board), HINT_BUDGET, game.seed + board.ply)
        seconds = time.perf_counter() - start
        if cell is None:
            self._say("No recommendation: the engine could not solve this position in time, and it does not guess.")
            return
        reason = chances.hint_reason(board, analysis, cell)
        self._say(
            f"Recommended move: {cell_input(cell, game.size)} ({cell_name(cell, game.size)}). "
            f"Evaluation time: {seconds:.7f}s. With perfect play: {analysis[cell]}.{' ' + reason if reason else ''}"
        )

    def _why(self, game: Game) -> None:
        """The line of best play from here, move by move, and how it ends: why
        the hint is what it is. The same line the analysis board shows."""
        board = game.board
        line = engine.principal_variation(board)
        whose = {game.human_side: "you", game.ai_side: "AI"}
        self._say("Why: the line of best play from here, with perfect play from both sides:")
        for move in explain.line_moves(board, line):
            self._say(
                f"  {move.ply}. {move.side} ({whose[move.side]}) "
                f"{cell_input(move.cell, game.size)}: {cell_name(move.cell, game.size)}"
            )
        winner = explain.end_of_line(board, line).winner
        if not line.complete:
            self._say("The engine ran out of time there; it does not guess the rest.")
        elif winner is None:
            self._say("It ends in a draw: neither side can force a line.")
        else:
            end = explain.line_end(board, line)
            self._say(f"It ends: {end}, a win for {'you' if winner == game.human_side else 'the AI'}.")

    def _leave(self, game: Game, player: Player) -> Game:
        """The player walks away: an unfinished game is resigned (aborted
        before both sides have moved)."""
        try:
            game = services.game_resign(game_id=game.pk, player=player)
        except GameError:
            return game  # it had just ended
        if game.status == Status.ABORTED:
            self._say("Game aborted: it ends unrated before both sides have moved.")
        else:
            self._say(f"You resigned: {game.ai_side} wins.")
        return game

    def _finish(self, game: Game, user) -> None:
        if game.termination != "resigned" and game.status != Status.ABORTED:
            self._say({"X": "X wins!", "O": "O wins!"}.get(game.winner, "It's a draw!"))
        outcome = game.outcome_for(game.human_side)
        if outcome == "won":
            self._say("YOU WIN!", self.style.SUCCESS)
        elif outcome == "lost":
            self._say("YOU LOSE!", self.style.ERROR)
        elif outcome == "drawn":
            self._say("DRAW!", self.style.WARNING)
        if game.winner and game.termination == "line":
            cells = ", ".join(cell_input(cell, game.size) for cell in game.board.winning_line)
            self._say(f"Winning line: {cells}.")
        if user:
            self._say(f"Saved as game {game.pk} in {user.get_username()}'s history.")
        else:
            self._say(f"Played as a guest: stored as game {game.pk}, in nobody's history (use --user to keep it).")
        self._say("Bye")
