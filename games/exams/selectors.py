"""Reads on exams: a player's exams, one exam, its report and its wrong answers."""

from __future__ import annotations

from django.db.models import QuerySet

from games.exams import positions
from games.exams.models import Exam, ExamPosition, Grade

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
    return Exam.objects.select_related("owner").get(key=key)


def exam_positions(exam: Exam) -> QuerySet[ExamPosition]:
    return ExamPosition.objects.filter(exam=exam).order_by("index")


def wrong_answers(exam: Exam) -> QuerySet[ExamPosition]:
    """The answers graded other than best, in order."""
    return ExamPosition.objects.filter(exam=exam).exclude(grade__in=["", Grade.BEST]).order_by("index")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def summary(exam: Exam) -> str:
    """One sentence: "4,520 positions: 4,438 best, 82 slower wins, 0 losses"."""
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
