"""Writes on exams: making one, recording a batch of answers, and counting
its games as they end (games/exams/signals.py)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.errors import GameError, InvalidInput
from games.exams import positions, selectors
from games.exams.models import Exam, ExamGame, ExamPosition, Grade
from games.play import services as play_services
from games.play.models import Game, Level, Side, Variant
from games.play.players import Player

#: The most answers one request may carry.
MOST_ANSWERS = 1000
#: The most games an exam plays against each level on each side.
MOST_GAMES = 10

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
    *,
    owner,
    variant: str,
    count: int | None,
    seed: int | None = None,
    sampled: list | None = None,
    games: int = 0,
) -> Exam:
    """An exam on ``variant``: every 3x3 position when ``count`` is None, else
    ``count`` positions sampled from ``seed`` (:func:`default_seed` when None):
    ``sampled``, when the engine's pool has sampled them already; none when
    ``count`` is 0. And ``games`` games against each level of the AI on each
    side, started now: where the AI has the first move it has made it."""
    if not 0 <= games <= MOST_GAMES:
        raise InvalidInput(f"An exam plays 0 to {MOST_GAMES} games against each level on each side.")
    if count == 0:
        if not games:
            raise InvalidInput("Ask for positions, games, or both: an exam with neither has nothing to grade.")
        chosen, seed = [], None
    elif variant == Variant.THREE:
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
        exam = Exam.objects.create(
            owner=owner,
            variant=variant,
            seed=seed,
            positions_count=len(chosen),
            games_per_side=games,
            games_count=games * len(Level) * len(Side),
        )
        ExamPosition.objects.bulk_create(
            ExamPosition(
                exam=exam, index=index, board=board, to_move="X" if board.count("X") == board.count("O") else "O",
                outcomes=outcomes,
            )
            for index, (board, outcomes) in enumerate(chosen)
        )  # fmt: skip
        _start_games(exam, owner)
    return exam


def _start_games(exam: Exam, owner) -> None:
    """The exam's games: against each level, the program playing X and then O,
    each game's AI seeded from the exam so its choices can be replayed."""
    player = Player(user=owner)
    for level in Level:
        for side in Side:
            for number in range(exam.games_per_side):
                seed = zlib.crc32(f"exam:{exam.pk}:{level}:{side}:{number}".encode()) % 2**31
                game = play_services.game_create_against_ai(
                    player=player, variant=exam.variant, side=side, level=level, seed=seed
                )
                ExamGame.objects.create(exam=exam, game=game, level=level, side=side)


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
        _finish_if_done(exam)
    return exam


def _finish_if_done(exam: Exam) -> None:
    """A locked, fresh exam with every position answered and every game over finishes now."""
    if exam.is_done and exam.finished_at is None:
        exam.finished_at = timezone.now()
        exam.save(update_fields=["finished_at"])


#: The Exam counter each outcome of a game over adds to (selectors.outcome).
OUTCOME_COUNTERS = {"won": "games_won", "drawn": "games_drawn", "lost": "games_lost", "aborted": "games_aborted"}


def exam_game_ended(*, game: Game) -> None:
    """Count a game that has just ended, or was called off, on its exam, if
    it is an exam's game; the exam finishes with its last game. Called in the
    transaction that ended the game, so the count commits with it. An exam's
    games are all against the AI: a game between people is never looked up."""
    if not game.ai_side:
        return
    try:
        exam_game = ExamGame.objects.get(game=game)
    except ExamGame.DoesNotExist:
        return
    exam_game.game = game  # as it has just ended, not read again
    counter = OUTCOME_COUNTERS[selectors.outcome(exam_game)]
    exam = Exam.objects.select_for_update().get(pk=exam_game.exam_id)
    Exam.objects.filter(pk=exam.pk).update(**{counter: F(counter) + 1})
    exam.refresh_from_db()
    _finish_if_done(exam)
