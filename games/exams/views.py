"""The exam's report page, shared by its link: anyone with the address reads it."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.exams import positions, selectors
from games.exams.models import Exam, Grade


def _shown(row, analysis: str) -> dict:
    """A wrong answer as the page draws it: each cell with its mark, the
    answer and the better moves marked, and the analysis board's address."""
    better = set(positions.best_cells(row.outcomes))
    cells = [
        {"mark": mark, "answer": index == row.cell, "better": index in better} for index, mark in enumerate(row.board)
    ]
    answer = row.outcomes[str(row.cell)]
    best = row.outcomes[str(min(better))]
    return {
        "row": row,
        "size": round(len(row.board) ** 0.5),
        "cells": cells,
        "better": sorted(better),
        "answer_outcome": answer,
        "best_outcome": best,
        "analysis": f"{analysis}?{urlencode({'board': row.board})}",
    }


@require_GET
def exam_report(request, key: str):
    """The report: the summary, the pattern behind the mistakes, every wrong
    answer a page at a time, and the games against each level."""
    try:
        exam = selectors.exam_by_key(key)
    except Exam.DoesNotExist:
        raise Http404("No such exam") from None
    page = Paginator(selectors.wrong_answers(exam), selectors.WRONG_PER_PAGE).get_page(request.GET.get("page"))
    analysis = reverse("games:analysis")
    return render(
        request,
        "exams/report.html",
        {
            "exam": exam,
            "summary": selectors.summary(exam),
            "patterns": selectors.loss_patterns(exam) if exam.losses else None,
            "wrong": [_shown(row, analysis) for row in page],
            "page": page,
            "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1),
            "grades": Grade,
            "played": selectors.played_table(selectors.exam_games(exam)) if exam.games_count else None,
            "games_summary": selectors.games_summary(exam) if exam.games_count else "",
        },
    )
