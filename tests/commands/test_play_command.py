"""``manage.py play``: a game against the AI typed in a terminal."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import engine
from games.management.commands.play import BadMove, parse_move, render_board
from games.play import selectors
from games.play.models import Game, Move, Status
from tests.engine import reference

pytestmark = pytest.mark.django_db

EVERY_CELL = "".join(f"{digit}\n" for digit in "123456789")


def play(*args, typed: str = "") -> str:
    """Run the command with ``typed`` as the keyboard; its whole transcript."""
    out = StringIO()
    call_command("play", *args, stdin=StringIO(typed), stdout=out)
    return out.getvalue()


def only_game() -> Game:
    (game,) = Game.objects.with_players_and_moves()
    return game


# -- reading a move --------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, cell",
    [("7", 0), ("8", 1), ("9", 2), ("4", 3), ("5", 4), ("6", 5), ("1", 6), ("2", 7), ("3", 8), (" 5 ", 4)],
)
def test_digits_on_3x3_follow_the_numpad_with_7_8_9_on_top(typed, cell):
    assert parse_move(typed, 3) == cell


@pytest.mark.parametrize(
    "typed, size, cell",
    [("1 3", 3, 2), ("1,3", 3, 2), ("3, 1", 3, 6), ("2 2", 3, 4), ("4 4", 4, 15), ("1 4", 4, 3), ("5,5", 5, 24)],
)
def test_row_and_column_from_1_work_on_every_board(typed, size, cell):
    assert parse_move(typed, size) == cell


@pytest.mark.parametrize(
    "typed, size, message",
    [
        ("0", 3, "Bad move: '0' is not a cell"),
        ("10", 3, "Bad move: '10' is not a cell"),
        ("abc", 3, "Bad move: 'abc' is not a cell"),
        ("\u0665", 3, "is not a cell"),  # an Arabic-Indic five
        ("", 3, "Bad move: '' is not a cell"),
        ("1 2 3", 3, "Bad move"),
        ("-1 2", 3, "Bad move"),
        ("5", 4, 'Type row and column like "2 3" (1 to 4)'),
        ("4 1", 3, "Off the board: 4 1. Rows and columns go from 1 to 3."),
        ("0 2", 3, "Off the board"),
    ],
)
def test_anything_else_is_a_bad_move_that_says_what_to_type(typed, size, message):
    with pytest.raises(BadMove) as error:
        parse_move(typed, size)
    assert message in str(error.value)


def test_the_board_shows_marks_row_and_column_numbers_and_the_free_keys():
    board = engine.Board.from_string("XO.OX...X")
    assert render_board(board, highlight=str.lower) == "\n".join(
        [
            "    1   2   3        keys",
            "1   x | O |           |   | 9",
            "   ---+---+---     ---+---+---",
            "2   O | x |           |   | 6",
            "   ---+---+---     ---+---+---",
            "3     |   | x       1 | 2 |",
        ]
    )


def test_bigger_boards_show_rows_and_columns_without_numpad_keys():
    text = render_board(engine.Board.from_moves([0, 15], size=4))
    assert text.splitlines()[0] == "    1   2   3   4"
    assert text.splitlines()[1] == "1   X |   |   |"
    assert text.splitlines()[-1] == "4     |   |   | O"
    assert "keys" not in text


# -- a whole game ---------------------------------------------------------------------------


def test_a_scripted_game_survives_bad_moves_and_taken_cells_and_plays_to_the_end():
    out = play("--side", "X", "--level", "perfect", "--seed", "1", typed="abc\n0\n5\n5\n" + EVERY_CELL)

    assert "Your move (X): abc\nBad move: 'abc' is not a cell." in out
    assert "Your move (X): 0\nBad move: '0' is not a cell." in out
    assert "Your move (X): 5\nBad move: row 2, column 2 is taken. Choose an empty cell." in out
    assert "Traceback" not in out
    game = only_game()
    assert game.status == Status.FINISHED
    assert game.result in ("o_won", "draw")  # nobody beats the perfect AI
    assert game.cells[0] == 4  # the first good move counted, the bad ones did not
    assert Move.objects.filter(game=game).count() == game.move_count == game.board.ply
    # The transcript ends with the result the game was stored with, and only that one.
    said = {"draw": ("It's a draw!", "DRAW!"), "o_won": ("O wins!", "YOU LOSE!")}
    for result, (line, verdict) in said.items():
        assert (line in out and verdict in out) == (result == game.result), (game.result, out[-300:])
    assert f"stored as game {game.pk}, in nobody's history" in out


def test_the_board_is_shown_after_every_move():
    out = play("--side", "X", "--level", "perfect", "--seed", "1", typed="5\n" + EVERY_CELL)

    game = only_game()
    boards = out.count("    1   2   3        keys")
    assert boards == 1 + game.move_count  # the empty board, then one per move


def test_h_recommends_a_best_cell_with_the_evaluation_time_and_the_outcome():
    out = play("--side", "X", "--level", "perfect", "--seed", "1", typed="h\nq\n")

    match = re.search(
        r"Recommended move: (\d) \(row (\d), column (\d)\)\. Evaluation time: \d+\.\d{7}s\. With perfect play: draw\.",
        out,
    )
    assert match, out
    digit, row, column = (int(group) for group in match.groups())
    cell = parse_move(str(digit), 3)
    assert cell == (row - 1) * 3 + column - 1
    assert cell in engine.analyse(engine.Board.empty()).best_cells
    # Every first move draws: the hint takes a corner, which leaves O the most ways to lose.
    assert cell in (0, 2, 6, 8)
    assert "With perfect play: draw. Every move draws; this corner leaves O 7 ways to lose, an edge only 4." in out


def test_h_after_a_losing_move_says_the_loss_is_coming():
    # The AI takes the centre; an edge in reply loses for O against perfect play.
    out = play("--side", "O", "--level", "perfect", "--start-mode", "centre", "--seed", "2", typed="8\nh\nq\n")

    # The position the hint was asked in: the centre, O's edge and the AI's reply.
    position = "." * 9
    for cell in only_game().cells[:3]:
        position = reference.play(position, cell)
    outcome, plies = reference.describe(max(reference.move_values(position).values()), position)
    assert outcome == "loss"  # the edge lost, by the independent referee
    assert re.search(rf"Evaluation time: \d+\.\d{{7}}s\. With perfect play: loss in {plies}\.", out), out


# -- who plays what ---------------------------------------------------------------------------


def test_without_side_or_first_it_asks_like_the_seeds_and_insists_on_x_or_o():
    out = play("--level", "easy", typed="z\no\nq\n")

    assert "Choose X or O\nChosen: z\nBad choice: type X or O." in out
    assert "You play O, the AI plays X. X moves first: the AI starts." in out
    game = only_game()
    assert game.human_side == "O" and game.move_count == 1


def test_without_level_it_asks_and_enter_means_perfect():
    play("--side", "X", typed="\nq\n")
    assert only_game().ai_level == "perfect"


def test_before_asking_the_level_it_says_what_each_does_and_only_perfect_never_loses():
    out = play("--side", "X", typed="\nq\n")
    lines = out[: out.index("Level:")].splitlines()
    described = {line.split(":")[0].strip(): line for line in lines if line.startswith("  ")}
    assert set(described) == {"easy", "medium", "hard", "perfect"}
    assert "at random" in described["easy"]
    assert "blocks a loss in one" in described["medium"]
    assert "7 times in 10" in described["hard"]
    assert [level for level, line in described.items() if "never loses" in line] == ["perfect"]


def test_a_level_can_be_typed_by_its_first_letters_and_nonsense_is_asked_again():
    out = play("--side", "X", typed="hopeless\nmed\nq\n")
    assert "Bad choice: type easy, medium, hard or perfect" in out
    assert only_game().ai_level == "medium"


def test_first_ai_gives_the_ai_x_and_its_opening_move_is_shown():
    out = play("--first", "ai", "--level", "perfect", "--start-mode", "centre", typed="q\n")

    game = only_game()
    assert game.ai_side == "X" and game.cells == [4]
    assert "AI (X) plays 5: row 2, column 2." in out


def test_first_me_gives_the_player_x():
    play("--first", "me", "--level", "easy", typed="q\n")
    assert only_game().human_side == "X"


def test_a_side_and_a_starter_that_contradict_the_rules_are_refused():
    with pytest.raises(CommandError, match="X always moves first"):
        play("--side", "O", "--first", "me", "--level", "easy")
    assert not Game.objects.exists()


def test_bigger_boards_take_row_and_column():
    out = play("--side", "X", "--variant", "4x4", "--level", "easy", "--seed", "3", typed="5\n1 1\nq\n")

    assert "Bad move: '5' is not a cell. Type row and column like \"2 3\" (1 to 4)." in out
    game = only_game()
    assert game.variant == "4x4" and game.cells[0] == 0


# -- saving, leaving ----------------------------------------------------------------------------


def test_with_user_the_finished_game_is_saved_in_their_history_with_every_move(user):
    out = play("--user", "alice", "--side", "X", "--level", "perfect", "--seed", "4", typed="5\n" + EVERY_CELL)

    game = only_game()
    assert game.x_player == user and game.ai_side == "O" and game.guest_key == ""
    assert game.status == Status.FINISHED and game.finished_at is not None
    moves = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "cell"))
    assert [ply for ply, _ in moves] == list(range(game.move_count))
    board = engine.Board.from_moves([cell for _, cell in moves])
    assert board.is_game_over() and game.result == board.result()
    assert list(selectors.player_games(user)) == [game]
    assert f"Saved as game {game.pk} in alice's history." in out


def test_an_unknown_user_is_a_clear_error_and_nothing_is_stored():
    with pytest.raises(CommandError, match="There is no user called 'zed'"):
        play("--user", "zed", "--side", "X", "--level", "easy")
    assert not Game.objects.exists()


def test_q_resigns_the_stored_game(user):
    out = play("--user", "alice", "--side", "X", "--level", "easy", "--seed", "1", typed="5\nq\n")

    game = only_game()
    assert (game.status, game.result, game.termination) == (Status.FINISHED, "o_won", "resigned")
    assert game.move_count == 2
    assert "You resigned: O wins." in out and "YOU LOSE!" in out
    assert f"Saved as game {game.pk} in alice's history." in out


def test_the_end_of_input_mid_game_quits_cleanly_and_resigns(user):
    out = play("--user", "alice", "--side", "O", "--level", "easy", "--seed", "1", typed="5\n")

    game = only_game()
    assert game.termination == "resigned" and game.result == "x_won"
    assert out.rstrip().endswith("Bye")
    assert "Traceback" not in out


def test_leaving_before_both_sides_have_moved_aborts_the_game(user):
    out = play("--user", "alice", "--side", "O", "--level", "easy", "--seed", "1", typed="")

    game = only_game()
    assert (game.status, game.result, game.move_count) == (Status.ABORTED, "", 1)
    assert "Game aborted: it ends unrated before both sides have moved." in out
    assert "YOU LOSE" not in out and out.rstrip().endswith("Bye")


def test_the_end_of_input_before_the_game_starts_stores_nothing():
    out = play(typed="")
    assert out.strip().endswith("Bye")
    assert not Game.objects.exists()


def test_without_user_the_game_is_stored_as_a_guests_and_belongs_to_nobody():
    out = play("--side", "X", "--level", "easy", typed="q\n")

    game = only_game()
    assert game.x_player is None and game.o_player is None and len(game.guest_key) == 32
    assert game.player_name("X") == "Guest"
    assert "Played as a guest" in out


def test_h_on_a_bigger_board_gives_the_outcome_in_words_never_a_score():
    out = play("--side", "X", "--variant", "4x4", "--level", "easy", "--seed", "1", typed="h\nq\n")
    hint = re.search(r"Recommended move: \d \d \(row \d, column \d\)\. Evaluation time: \d+\.\d{7}s\. (.*)", out)
    assert hint, out
    assert hint.group(1) == "With perfect play: draw."  # 4x4 four in a row is a draw
    assert not re.search(r"[+-]\d", hint.group(0))


# -- why: the line of best play ----------------------------------------------------------


def _why_lines(out: str) -> list[tuple[int, str, str, int, int, int]]:
    """The moves a ``why`` printed: (ply, side, who, row, column, key typed)."""
    found = re.findall(r"^  (\d+)\. ([XO]) \((you|AI)\) ([\d ]+): row (\d), column (\d)$", out, re.M)
    return [(int(p), side, who, int(r), int(c), key) for p, side, who, key, r, c in found]


def test_why_prints_the_line_of_best_play_move_by_move_and_how_it_ends():
    out = play("--side", "X", "--level", "perfect", "--seed", "1", typed="5\nw\nq\n")

    game = only_game()  # X took the centre, the AI answered
    board = game.board_at(2)
    line = engine.principal_variation(board)
    assert "Why: the line of best play from here, with perfect play from both sides:" in out
    moves = _why_lines(out)
    assert [(row - 1) * 3 + column - 1 for _, _, _, row, column, _ in moves] == list(line.cells)
    assert [(ply, side, who) for ply, side, who, *_ in moves] == [
        (ply, engine.side_to_move(ply - 1), "you" if engine.side_to_move(ply - 1) == "X" else "AI")
        for ply in range(3, 3 + len(line.cells))
    ]
    assert all(parse_move(key, 3) == (row - 1) * 3 + column - 1 for *_, row, column, key in moves)
    # 3x3 with the centre taken is a draw, as the referee has it.
    assert max(reference.move_values(str(board)).values()) == 0
    assert "It ends in a draw: neither side can force a line." in out


def test_why_names_the_winner_when_the_line_is_won():
    # O answers the centre with an edge: perfect play by X wins from there.
    out = play("--side", "O", "--level", "perfect", "--start-mode", "centre", "--seed", "2", typed="8\nwhy\nq\n")

    game = only_game()
    board = game.board_at(3)  # X's centre, O's edge, the AI's reply
    best = max(reference.move_values(str(board)).values())
    outcome, plies = reference.describe(best, str(board))
    assert outcome == "loss"  # for O, to move
    assert f"It ends: X wins in {plies}, a win for the AI." in out
    assert len(_why_lines(out)) == plies


def test_help_lists_why():
    out = play("--side", "X", "--level", "easy", typed="?\nq\n")
    assert (
        "h: recommended move   w: why (the line of best play)   t: take back your last move   ?: help   q: resign and quit"
        in out
    )


def test_t_takes_back_the_last_move_and_the_ai_s_reply(user):
    out = play("--user", "alice", "--side", "X", "--level", "easy", "--seed", "1", typed="t\n5\nt\n1\nq\n")

    assert "Nothing taken back: you have made no move to take back." in out
    assert "You take back your last move and the AI's reply." in out
    game = only_game()
    assert game.cells[0] == 6 and game.termination == "resigned"  # 5 was taken back, 1 played instead


def test_on_a_clock_the_prompt_shows_the_time_left_as_the_server_counts_it():
    out = play("--side", "X", "--level", "perfect", "--clock", "3+2", "--seed", "1", typed="5\n1\n")
    prompts = re.findall(r"Your move \(X, (\d:\d\d) left\)", out)
    # A full clock before the first move; after the second, three minutes less
    # the moment it took, plus the two-second increment.
    assert prompts[0] == "3:00" and prompts[2] in ("3:01", "3:02")
    assert only_game().clock_initial == 180


def test_a_clock_the_terminal_cannot_keep_is_refused_and_nothing_is_stored():
    with pytest.raises(CommandError, match="--clock: a clock has 1 to 180 minutes"):
        play("--side", "X", "--level", "perfect", "--clock", "0+1")
    with pytest.raises(CommandError, match="not days"):
        play("--side", "X", "--level", "perfect", "--clock", "3d")
    assert not Game.objects.exists()
