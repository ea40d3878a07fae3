"""The search, depth-limited: the next lesson after plain minimax.

On 4x4 and 5x5 the whole tree is far too big to draw, so the search stops a
few moves deep and scores the positions there with an evaluation function
(``engine.horizon_tree``), written out on the page. The exact answer sits
beside it, so the class sees where the heuristic is wrong. Everything is a
GET with the choices in the address, and folding the drawing is a link: the
page works without JavaScript.
"""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from games import engine
from games.engine_work import asking
from games.engine_work import jobs as engine_jobs
from games.learn import tree_layout
from games.learn.engine_pages import answers_for_the_engine
from games.learn.tree_form import DepthLimitedForm, folds_asked
from games.learn.tree_layout import signed

#: Seconds the depth-limited search and the exact analysis beside it may take.
BUDGET = 5.0


@require_GET
@answers_for_the_engine
def depth_limited(request):
    """``?board=...&depth=2&algorithm=alphabeta``, with ``fold=`` as the tree explorer's."""
    form = DepthLimitedForm({**DepthLimitedForm.DEFAULTS, **request.GET.dict()})
    context = {
        "form": form,
        "evaluation_words": engine.EVALUATION_WORDS,
        "evaluation_formula": engine.EVALUATION_FORMULA,
    }
    form.is_valid()
    if set(form.errors) - {"fold"}:  # a bad fold is said, and every node drawn open
        return render(request, "learn/tree_depth.html", context, status=400)
    board, depth, algorithm = (form.cleaned_data[name] for name in ("board", "depth", "algorithm"))
    search, exact = asking.ask(
        request,
        engine_jobs.depth_limited,
        str(board),
        depth,
        algorithm,
        BUDGET,
        budget=BUDGET,
        at_once=False,
    )
    query = {"board": str(board), "depth": depth, "algorithm": algorithm}
    folds = folds_asked(form)
    if folds is None:  # the root's moves in view, each with what lies below it folded
        folds = frozenset(step for step in search.root.children if search.nodes[step].children)
    folded = folds
    drawing = tree_layout.layout(search, folded=folded)
    for node in drawing.nodes:
        if node.kind == "node" and node.folds:
            node.fold_url = _url({**query, "fold": ",".join(map(str, sorted(folded ^ {node.step})))})
    return render(
        request,
        "learn/tree_depth.html",
        {
            **context,
            "board": board,
            "search": search,
            "drawing": drawing,
            "node_width": tree_layout.NODE_WIDTH,
            "node_height": tree_layout.NODE_HEIGHT,
            "board_size": tree_layout.BOARD_SIZE,
            "root_value": signed(search.value),
            "root_evaluation": signed(engine.evaluate(board)),
            "moves": _moves(board, search, exact),
            "verdict": _verdict(board, search, exact),
        },
    )


def _moves(board: engine.Board, search: engine.SearchTree, exact: engine.Analysis) -> list[dict]:
    """Each move at the root: what the depth-limited search made of it, and its exact outcome."""
    rows = []
    for step in search.root.children:
        node = search.nodes[step]
        value = signed(node.value)
        if node.bound == "at least":
            value = f"≥ {value}"
        elif node.bound == "at most":
            value = f"≤ {value}"
        rows.append(
            {
                "cell": node.move,
                "value": value,
                "chosen": node.move == search.best_move,
                "exact": _exact_words(board.to_move, exact[node.move]),
                "best": node.move in exact.best_cells,
            }
        )
    return rows


def _exact_words(mover: str, found: engine.Evaluation) -> str:
    other = engine.other_side(mover)
    if found.outcome == "unsolved":
        return "not solved in time"
    if found.outcome == "draw":
        return "draw"
    winner = mover if found.outcome == "win" else other
    return f"{winner} wins in {found.plies} move{'s' if found.plies != 1 else ''}"


def _verdict(board: engine.Board, search: engine.SearchTree, exact: engine.Analysis) -> str:
    """Whether the heuristic's choice is one of the exact best moves, in words."""
    choice = search.best_move
    if not exact.exact:
        return f"The depth-limited search picks cell {choice}; the exact answer was not found in time to judge it."
    best = exact.best_cells
    if choice in best:
        return f"The depth-limited search picks cell {choice}, one of the best moves: after it, {_after(board, exact[choice])}."
    better = best[0]
    return (
        f"Here the heuristic is wrong: it picks cell {choice}, after which {_after(board, exact[choice])}; "
        f"after cell {better}, {_after(board, exact[better])}."
    )


def _after(board: engine.Board, found: engine.Evaluation) -> str:
    words = _exact_words(board.to_move, found)
    return "the game is a draw" if words == "draw" else words


def _url(query: dict) -> str:
    return f"{reverse('games:tree_depth')}?{urlencode(query)}#tree-drawing"
