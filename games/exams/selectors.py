"""Reads on exams: a player's exams, one exam, its report, its wrong answers and its games."""

from __future__ import annotations

from django.db.models import QuerySet

from games.exams import positions
from games.exams.models import Exam, ExamGame, ExamPosition, Grade
from games.play.models import Level, Result, Side, Status

#: The wrong answers a report shows at once; the page pages through the rest.
WRONG_PER_PAGE = 50


def exams_of(owner) -> QuerySet[Exam]:
    """The owner's exams, newest first."""
    return Exam.objects.filter(owner=owner)


def exam_of(owner, exam_id: int) -> Exam:
    """The owner's exam (Exam.DoesNotExist for anyone else's)."""
    return Exam.objects.get(pk=exam_id, owner=owner)


def exam_by_key(key: str) -> Exam:
    """The exam a shared link names."""
    return Exam.objects.select_related("owner__bot").get(key=key)


def exam_positions(exam: Exam) -> QuerySet[ExamPosition]:
    return ExamPosition.objects.filter(exam=exam).order_by("index")


def wrong_answers(exam: Exam) -> QuerySet[ExamPosition]:
    """The answers graded other than best, in order."""
    return ExamPosition.objects.filter(exam=exam).exclude(grade__in=["", Grade.BEST]).order_by("index")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def summary(exam: Exam) -> str:
    """One sentence: "4,520 positions: 4,438 best, 82 slower wins, 0 losses",
    and the games: "; 8 games: 2 won, 6 drawn, 0 lost"."""
    said = [_positions_summary(exam)] if exam.positions_count else []
    if exam.games_count:
        said.append(games_summary(exam))
    return "; ".join(said)


def games_summary(exam: Exam) -> str:
    """ "8 games: 2 won, 6 drawn, 0 lost", with those called off or still being played."""
    parts = [f"{exam.games_won:,} won", f"{exam.games_drawn:,} drawn", f"{exam.games_lost:,} lost"]
    if exam.games_aborted:
        parts.append(f"{exam.games_aborted:,} called off")
    playing = exam.games_count - exam.games_over
    if playing:
        parts.append(f"{playing:,} being played")
    return f"{_plural(exam.games_count, 'game', 'games')}: {', '.join(parts)}"


def _positions_summary(exam: Exam) -> str:
    parts = [f"{exam.best:,} best", _plural(exam.slower_wins, "slower win", "slower wins")]
    if exam.wins_to_draws:
        parts.append(_plural(exam.wins_to_draws, "win thrown to a draw", "wins thrown to a draw"))
    parts.append(_plural(exam.losses, "loss", "losses"))
    if exam.quicker_losses:
        parts.append(_plural(exam.quicker_losses, "quicker loss", "quicker losses"))
    head = _plural(exam.positions_count, "position", "positions")
    if exam.answered < exam.positions_count:
        head += f" ({exam.answered:,} answered)"
    return f"{head}: {', '.join(parts)}"


def counts(exam: Exam) -> dict[str, int]:
    return {
        "positions": exam.positions_count,
        "answered": exam.answered,
        Grade.BEST.value: exam.best,
        Grade.SLOWER_WIN.value: exam.slower_wins,
        Grade.WIN_TO_DRAW.value: exam.wins_to_draws,
        Grade.LOSS.value: exam.losses,
        Grade.QUICKER_LOSS.value: exam.quicker_losses,
    }


def played_counts(exam: Exam) -> dict[str, int]:
    return {
        "games": exam.games_count,
        "won": exam.games_won,
        "drawn": exam.games_drawn,
        "lost": exam.games_lost,
        "aborted": exam.games_aborted,
        "playing": exam.games_count - exam.games_over,
    }


def exam_games(exam: Exam) -> list[ExamGame]:
    """The exam's games with their games, by level, the program's side, and order."""
    return list(ExamGame.objects.filter(exam=exam).select_related("game").order_by("id"))


def outcome(exam_game: ExamGame) -> str:
    """The game from the program's side: "won", "drawn", "lost", "aborted" or "playing"."""
    game = exam_game.game
    if game.status == Status.ABORTED:
        return "aborted"
    if game.status != Status.FINISHED:
        return "playing"
    if game.result == Result.DRAW:
        return "drawn"
    return "won" if game.result == (Result.X_WON if exam_game.side == Side.X else Result.O_WON) else "lost"


def played_table(games: list[ExamGame]) -> list[dict]:
    """The report's table: a row per level, with the program's games as X
    and as O, each side's games and how many were won, drawn and lost."""
    rows = []
    for level in Level:
        row = {"level": level, "sides": []}
        for side in Side:
            mine = [(g, outcome(g)) for g in games if g.level == level and g.side == side]
            tally = {"won": 0, "drawn": 0, "lost": 0, "aborted": 0, "playing": 0}
            for _, said in mine:
                tally[said] += 1
            row["sides"].append({"side": side, "games": mine, **tally})
        rows.append(row)
    return rows


def loss_patterns(exam: Exam) -> dict[str, int]:
    """Of the answers thrown to a loss: how many missed an immediate win, and
    how many missed a block of an immediate threat."""
    found = {"missed_win": 0, "missed_block": 0}
    for board, to_move, cell in ExamPosition.objects.filter(exam=exam, grade=Grade.LOSS).values_list(
        "board", "to_move", "cell"
    ):
        pattern = positions.missed_pattern(board, to_move, cell)
        if pattern:
            found[pattern] += 1
    return found
