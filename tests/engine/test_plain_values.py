"""The engine's answers as plain values (what a JSON column or an API body holds)
and back: every field comes back exactly, through real JSON text."""

import json

from games import engine

#: A 4x4 game with one move of each label.
EVERY_LABEL_4X4 = [8, 7, 3, 15, 0, 1, 10, 2, 5, 14, 12, 6, 4]


def _through_json(value):
    return json.loads(json.dumps(value))


def test_a_review_comes_back_exactly_label_by_label():
    review = engine.review(EVERY_LABEL_4X4, size=4)
    assert {move.label for move in review.moves} == set(engine.LABELS)
    assert engine.Review.from_dict(_through_json(review.to_dict())) == review
    for move in review.moves:
        again = engine.MoveReview.from_dict(_through_json(move.to_dict()))
        assert again == move and isinstance(again.best_cells, tuple)


def test_an_unsolved_move_and_a_review_that_ran_out_of_time_come_back_as_they_were():
    # Past the tablebase (six marks) the review must search, and has no time.
    review = engine.review([12, 0, 13, 1, 24, 2, 6, 3], size=5, budget=0.0)
    assert not review.exact and {move.label for move in review.moves[6:]} == {"unsolved"}
    assert engine.Review.from_dict(_through_json(review.to_dict())) == review
    assert engine.Evaluation.from_dict(_through_json(engine.UNSOLVED.to_dict())) == engine.UNSOLVED


def test_every_evaluation_of_an_analysis_comes_back_exactly():
    seen = set()
    for ply in range(6, len(EVERY_LABEL_4X4)):
        for evaluation in engine.analyse(engine.Board.from_moves(EVERY_LABEL_4X4[:ply], size=4)).values():
            assert engine.Evaluation.from_dict(_through_json(evaluation.to_dict())) == evaluation
            seen.add(evaluation.outcome)
    assert seen == {"win", "draw", "loss"}


def test_a_line_complete_or_cut_short_comes_back_exactly():
    line = engine.principal_variation(engine.Board.from_moves(EVERY_LABEL_4X4[:5], size=4))
    cut = engine.Line(line.cells[:2], complete=False)
    for one in (line, cut, engine.Line((), complete=True)):
        again = engine.Line.from_dict(_through_json(one.to_dict()))
        assert again == one and isinstance(again.cells, tuple)
