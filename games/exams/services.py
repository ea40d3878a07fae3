"""Writes on exams: making one, and recording a batch of answers."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.errors import GameError, InvalidInput
from games.exams import positions
from games.exams.models import Exam, ExamPosition, Grade
from games.play.models import Variant

#: The most answers one request may carry.
MOST_ANSWERS = 1000

#: The Exam counter each grade adds to.
GRADE_COUNTERS = {
    Grade.BEST: "best",
    Grade.SLOWER_WIN: "slower_wins",
    Grade.WIN_TO_DRAW: "wins_to_draws",
    Grade.LOSS: "losses",
    Grade.QUICKER_LOSS: "quicker_losses",
}


class AlreadyAnswered(GameError):
    """An answer to a position answered before: each is answered once."""

    code = "already_answered"


def default_seed(owner, variant: str, count: int) -> int:
    """The seed of an exam asked without one: the same until the owner's next
    exam is made, so asking again while the engine samples finds its work."""
    made = Exam.objects.filter(owner=owner).count()
    return zlib.crc32(f"{owner.pk}:{variant}:{count}:{made}".encode()) % 2**31


def exam_create(
    *, owner, variant: str, count: int | None, seed: int | None = None, sampled: list | None = None
) -> Exam:
    """An exam on ``variant``: every 3x3 position when ``count`` is None, else
    ``count`` positions sampled from ``seed`` (:func:`default_seed` when None):
    ``sampled``, when the engine's pool has sampled them already."""
    if variant == Variant.THREE:
        if count is not None:
            raise InvalidInput('A 3x3 exam asks every position: send "positions": "all".')
        chosen = positions.every_position_3x3()
        seed = None
    else:
        if count is None:
            raise InvalidInput(f'"all" is for 3x3 only: ask 1 to {positions.MOST_POSITIONS} positions of {variant}.')
        if seed is None:
            seed = default_seed(owner, variant, count)
        if sampled is None:
            sampled = positions.sampled_positions(Variant(variant).size, count, seed, positions.SAMPLE_SECONDS)
        chosen = sampled
        if not chosen:
            raise InvalidInput("the engine found no position to ask in time; ask fewer, or try again")
    with transaction.atomic():
        exam = Exam.objects.create(owner=owner, variant=variant, seed=seed, positions_count=len(chosen))
        ExamPosition.objects.bulk_create(
            ExamPosition(
                exam=exam, index=index, board=board, to_move="X" if board.count("X") == board.count("O") else "O",
                outcomes=outcomes,
            )
            for index, (board, outcomes) in enumerate(chosen)
        )  # fmt: skip
    return exam


@dataclass(frozen=True)
class Answer:
    position: int
    cell: int


def exam_answer(*, exam_id: int, owner, answers: list[Answer]) -> Exam:
    """Grade and store ``answers`` to the owner's exam, all or none: an unknown
    position or an illegal cell is refused (InvalidInput), a position answered
    before too (AlreadyAnswered); nothing is stored then. The last answer
    finishes the exam."""
    if len(answers) > MOST_ANSWERS:
        raise InvalidInput(f"At most {MOST_ANSWERS} answers a request; this one has {len(answers)}.")
    with transaction.atomic():
        exam = Exam.objects.select_for_update().get(pk=exam_id, owner=owner)
        indexes = [answer.position for answer in answers]
        if len(set(indexes)) != len(indexes):
            repeated = next(index for index in indexes if indexes.count(index) > 1)
            raise AlreadyAnswered(f"Position {repeated} is answered twice in this request: each is answered once.")
        rows = {row.index: row for row in ExamPosition.objects.filter(exam=exam, index__in=indexes)}
        for answer in answers:
            row = rows.get(answer.position)
            if row is None:
                raise InvalidInput(f"Position {answer.position} is not in this exam (0 to {exam.positions_count - 1}).")
            if str(answer.cell) not in row.outcomes:
                raise InvalidInput(f'Cell {answer.cell} is not a legal move in position {row.index} "{row.board}".')
            if row.cell is not None:
                raise AlreadyAnswered(f"Position {row.index} was answered already (cell {row.cell}).")
        counts = dict.fromkeys(GRADE_COUNTERS.values(), 0)
        for answer in answers:
            row = rows[answer.position]
            row.cell = answer.cell
            row.grade = positions.grade(row.outcomes, answer.cell)
            counts[GRADE_COUNTERS[row.grade]] += 1
        ExamPosition.objects.bulk_update(list(rows.values()), ["cell", "grade"])
        Exam.objects.filter(pk=exam.pk).update(
            answered=F("answered") + len(answers), **{name: F(name) + n for name, n in counts.items() if n}
        )
        exam.refresh_from_db()
        if exam.answered == exam.positions_count and exam.finished_at is None:
            exam.finished_at = timezone.now()
            exam.save(update_fields=["finished_at"])
    return exam
