"""The search, step by step: the minimax tree of any position, drawn node by
node, with alpha-beta's α, β and cuts, and the fatalist beside the depth-aware
player.

The engine records the search (``engine.search_tree``); this module only reads
the address, asks, and puts the answer into words for the page. Everything is
a GET with the choices in the address, so a step can be linked to, and every
step is a link: the page works without JavaScript.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from games import engine
from games.engine_work import asking
from games.engine_work import jobs as engine_jobs
from games.learn import tree_export, tree_layout
from games.learn.engine_pages import answers_for_the_engine
from games.learn.tree_form import TreeForm
from games.learn.tree_layout import signed

ALGORITHM_NAMES = {"minimax": "Plain minimax", "alphabeta": "Alpha-beta"}
SCORING_NAMES = {"depth": "Depth-aware", "fatalist": "Fatalist"}
ORDER_NAMES = {"index": "Cell order", "centre": "Centre first", "random": "Random"}
#: A whole tree of more nodes than this opens folded below the root's moves (with JavaScript).
FOLD_ABOVE = 150


def default_position() -> str:
    """The position the explorer opens on: the fatalist's "sooner loss", a
    small tree where blocking matters (found by the engine, like the classroom's)."""
    return engine.fatalist_examples()[-1].position


#: Seconds the tree's search and counts may take (a 3x3 tree takes well under one).
TREE_BUDGET = 5.0


@require_GET
@answers_for_the_engine
def tree(request):
    """The tree explorer: ``?board=...&algorithm=alphabeta&order=centre&step=N``."""
    form, choices = _read(request)
    if "board" in form.errors:
        return render(request, "learn/tree.html", {"form": form, "refused": form.errors["board"][0]})
    board, (search, counts) = _board(form), _ask(request, form, choices)
    steps = len(search.nodes)
    step = min(choices["step"], steps) - 1 if "step" in choices else None
    query = _query(board, search, choices)
    return render(
        request,
        "learn/tree.html",
        {
            "form": form,
            "board": board,
            "search": search,
            "items": tree_items(search, step, query),
            "drawing": tree_drawing(search, step, query, choices.get("fold")),
            "downloads": {kind: _download_url(kind, query) for kind in DOWNLOADS},
            "worksheet_url": f"{reverse('games:tree_worksheet')}?{urlencode(query)}",
            **_drawing_sizes(),
            "empty_board_url": _url({**query, "board": "." * 9}),
            "switch": {
                "name": ALGORITHM_NAMES["minimax" if search.algorithm == "alphabeta" else "alphabeta"],
                "url": _url({**query, "algorithm": "minimax" if search.algorithm == "alphabeta" else "alphabeta"}),
            },
            "step": step,
            "shown_step": None if step is None else step + 1,
            "steps": steps,
            "step_links": _step_links(query, step, steps),
            "step_sentences": [] if step is None else step_sentences(search, step),
            "root_value": signed(search.value),
            "root_words": outcome_words(search.value, search.scoring, 0),
            "cells": _root_cells(board, query),
            "counts": _ordering_counts(search, counts),
            "names": {
                "algorithm": ALGORITHM_NAMES[search.algorithm],
                "scoring": SCORING_NAMES[search.scoring],
                "order": ORDER_NAMES[search.order],
            },
        },
    )


#: What each download is: its content type and its file's ending.
DOWNLOADS = {
    "json": ("application/json", "json"),
    "dot": ("text/vnd.graphviz; charset=utf-8", "gv"),
    "svg": ("image/svg+xml", "svg"),
}


@require_GET
@answers_for_the_engine
def tree_download(request, kind: str):
    """The page's tree as a file: JSON, Graphviz DOT or a standalone SVG, the
    whole drawn tree whatever is folded on the page."""
    if kind not in DOWNLOADS:
        raise Http404(f"There is no {kind} download of a tree; there are {', '.join(DOWNLOADS)}.")
    form, choices = _read(request)
    if "board" in form.errors:
        refused = form.errors["board"][0]
        return render(request, "learn/tree.html", {"form": form, "refused": refused}, status=400)
    search, _counts = _ask(request, form, choices)
    if kind == "json":
        body = tree_export.tree_json(search)
    elif kind == "dot":
        body = tree_export.tree_dot(search)
    else:
        context = {
            "drawing": tree_layout.layout(search),
            "svg_id": "tree",
            "svg_title": f"{ALGORITHM_NAMES[search.algorithm]} from {search.position}",
            **_drawing_sizes(),
        }
        body = render_to_string("learn/tree_download.svg", context)
    content_type, ending = DOWNLOADS[kind]
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="tree-{search.position}-{search.algorithm}.{ending}"'
    return response


#: The tallest tree a worksheet prints, in boxes one above the other: more
#: would not be legible on one page.
WORKSHEET_ROWS = 12


@require_GET
@answers_for_the_engine
def tree_worksheet(request):
    """The page's tree to print for a class: every value box empty on the first
    page, the answer key on the second. The page's folds are kept (a folded
    node's value is given on the sheet); without them, the tree is folded as the
    page first shows it."""
    form, choices = _read(request)
    if "board" in form.errors:
        refused = form.errors["board"][0]
        return render(request, "learn/tree.html", {"form": form, "refused": refused}, status=400)
    board, (search, _counts) = _board(form), _ask(request, form, choices)
    folds = choices.get("fold")
    if folds is None:
        folds = tree_layout.default_folds(search)
    query = _query(board, search, {**choices, "fold": folds})
    sheet = tree_layout.layout(search, folded=folds, blank=True)
    rows = tree_layout.rows(sheet)
    return render(
        request,
        "learn/tree_worksheet.html",
        {
            "board": board,
            "search": search,
            "cells": _root_cells(board, None),
            "names": {"algorithm": ALGORITHM_NAMES[search.algorithm], "scoring": SCORING_NAMES[search.scoring]},
            "sheet": sheet if rows <= WORKSHEET_ROWS else None,
            "key": tree_layout.layout(search, folded=folds) if rows <= WORKSHEET_ROWS else None,
            "rows": rows,
            "most_rows": WORKSHEET_ROWS,
            "given": sum(node.given for node in sheet.nodes),
            "tree_url": _url(query) + "#tree-drawing",
            "root_value": signed(search.value),
            "root_words": outcome_words(search.value, search.scoring, 0),
            **_drawing_sizes(),
        },
    )


def _query(board: engine.Board, search: engine.SearchTree, choices: dict) -> dict:
    """The page's choices as its address says them (without the step)."""
    query = {
        "board": str(board),
        "algorithm": search.algorithm,
        "scoring": search.scoring,
        "order": search.order,
        "seed": search.seed,
    }
    if "depth" in choices:
        query["depth"] = choices["depth"]
    if "fold" in choices:
        query["fold"] = _fold_text(choices["fold"])
    return query


def _read(request) -> tuple[TreeForm, dict]:
    """The explorer's form over the address, its defaults filled in, and its choices."""
    data = request.GET.dict()
    for name, value in {**TreeForm.DEFAULTS, "board": default_position()}.items():
        data.setdefault(name, value)
    form = TreeForm(data)
    return form, form.choices()


def _board(form: TreeForm) -> engine.Board:
    return form.cleaned_data.get("board") or engine.Board.from_string(default_position())


def _ask(request, form: TreeForm, choices: dict):
    """(search, counts) for the form's position: every node of a 3x3 tree
    recorded, and counted under each move order, a search of its own made by
    the engine's pool and kept for the next visit."""
    return asking.ask(
        request,
        engine_jobs.tree,
        str(_board(form)),
        choices["algorithm"],
        choices["scoring"],
        choices["order"],
        choices["seed"],
        choices.get("depth"),
        budget=TREE_BUDGET,
        at_once=False,
    )


@require_GET
def tree_scoring(request):
    """Depth-aware against fatalist scores, side by side on the positions the engine found."""
    examples = []
    for example in engine.fatalist_examples():
        board = engine.Board.from_string(example.position)
        query = {"board": example.position, "algorithm": "minimax", "order": "index"}
        moves = [
            {
                "cell": cell,
                "fatalist": signed(example.fatalist_values[cell]),
                "depth": signed(example.depth_values[cell]),
                "fatalist_pick": cell == example.fatalist.cell,
                "depth_pick": cell == example.depth_aware.cell,
            }
            for cell in example.depth_values
        ]
        examples.append(
            {
                "example": example,
                "board": board,
                "mover": board.to_move,
                "cells": _root_cells(
                    board, None, marked={example.fatalist.cell: "fatalist", example.depth_aware.cell: "depth"}
                ),
                "moves": moves,
                "fatalist_value": signed(example.fatalist.value),
                "depth_value": signed(example.depth_aware.value),
                "fatalist_words": _game_words(example.fatalist),
                "depth_words": _game_words(example.depth_aware),
                "fatalist_url": _url({**query, "scoring": "fatalist"}),
                "depth_url": _url({**query, "scoring": "depth"}),
            }
        )
    return render(request, "learn/tree_scoring.html", {"examples": examples})


# --------------------------------------------------------------------------
# Words for the page.


def outcome_words(value: int, scoring: str, plies_below: int) -> str:
    """What a value means: "X wins in 2", "O wins", "draw"."""
    result, plies = engine.outcome_of(value, scoring)
    if result == "draw":
        return "draw"
    winner = "X" if result == "x_won" else "O"
    if plies is None:
        return f"{winner} wins"
    left = plies - plies_below
    if left <= 0:
        return f"{winner} has won"
    return f"{winner} wins in {left} move{'s' if left > 1 else ''}"


def _game_words(choice) -> str:
    if choice.result == "draw":
        return "a draw"
    winner = "X" if choice.result == "x_won" else "O"
    return f"{winner} wins at once" if choice.plies == 1 else f"{winner} wins in {choice.plies} moves"


def step_sentences(search: engine.SearchTree, step: int) -> list[str]:
    """What happened at ``step``: the node entered with the window it carries,
    then each value that became final, deepest first, where it went, and what
    it changed there: the value, α or β, each said with the reason."""
    node = search.nodes[step]
    before = {s.step: s for s in search.at_step(step - 1)} if step > 0 else {}
    now = {s.step: s for s in search.at_step(step)}
    if node.parent is None:
        sentences = [f"The search starts at the position, {node.to_move} to move."]
    else:
        sentences = [f"{node.mover} tries cell {node.move}."]
    if node.alpha_in is not None and node.result is None:
        sentences.append(_window_words(node))
    for done in search.finished_at(step):
        value = signed(done.value) if done.bound == "exact" else f"{done.bound} {signed(done.value)}"
        if done.result:
            said = f"“{node_name(done)}” ends the game, {_result_words(done.result)}: {value}"
        elif done.hidden:
            said = f"Below “{node_name(done)}”, {done.hidden:,} more positions are searched: {value}"
        else:
            said = f"“{node_name(done)}” has all it needs: {value}"
        if done.cut:
            cells = ", ".join(str(c) for c in done.cut.moves)
            plural = "s" if len(done.cut.moves) > 1 else ""
            sentences.append(f"Cut at “{node_name(done)}”: cell{plural} {cells} not searched. {done.cut.reason}.")
        if done.parent is None:
            words = outcome_words(done.value, search.scoring, 0)
            sentences.append(
                f"The search is over: the position is worth {value} ({words}); {done.to_move} plays cell {done.best_move}."
            )
        else:
            parent = search.nodes[done.parent]
            sentences.append(f"{said}, which goes up to “{node_name(parent)}”.")
            sentences.extend(_change_words(parent, done, before.get(parent.step), now[parent.step]))
    return sentences


def _window_words(node: engine.SearchNode) -> str:
    """The window a node is searched with, and what each end means."""
    alpha, beta = signed(node.alpha_in), signed(node.beta_in)
    if node.parent is None:
        return f"It opens with α {alpha} and β {beta}: nobody is sure of anything yet."
    return (
        f"It carries α {alpha} and β {beta} down from above: X is already sure of {alpha} elsewhere, "
        f"O of {beta}; a value outside them cannot change the choice."
    )


def _change_words(parent: engine.SearchNode, child: engine.SearchNode, was, now) -> list[str]:
    """How a value coming up changed its parent: its best so far, then α or β, in words."""
    mover = parent.to_move
    better = "higher" if mover == "X" else "lower"
    worth = signed(child.value)
    name = node_name(parent)
    old = None if was is None else was.value
    if now.value is None or old == now.value:
        said = [f"It changes nothing at “{name}”: {mover} already has {signed(old)}, and {worth} is no {better}."]
    elif old is None:
        said = [f"“{name}” has its first value back: {worth}, {mover}'s best so far (cell {child.move})."]
    else:
        said = [
            f"“{name}” goes from {signed(old)} to {signed(now.value)}: cell {child.move} is worth {worth} "
            f"to {mover}, {better} than anything before."
        ]
    if was is None or was.alpha is None or now.alpha is None:
        return said
    if now.alpha != was.alpha:
        said.append(
            f"α rises from {signed(was.alpha)} to {signed(now.alpha)}: X found a move worth {signed(now.alpha)} "
            f"here, better than anything before."
        )
    if now.beta != was.beta:
        said.append(
            f"β falls from {signed(was.beta)} to {signed(now.beta)}: O found a move worth {signed(now.beta)} "
            f"here, better for O than anything before."
        )
    return said


def node_name(node: engine.SearchNode) -> str:
    """A node as the tree names it: "X plays cell 4", or "the position" at the top."""
    return "the position" if node.parent is None else f"{node.mover} plays cell {node.move}"


def _result_words(result: str) -> str:
    return {"x_won": "X wins", "o_won": "O wins", "draw": "draw"}[result]


def tree_items(search: engine.SearchTree, step: int | None, query: dict) -> list[dict]:
    """The drawn nodes as the template writes them: depth first, each with
    how many groups close after it, and the cuts as greyed items. ``query``
    is the page's choices, kept by each node's "Search from here"."""
    explore = _explore_url(query)
    states = {s.step: s for s in search.at_step(len(search.nodes) - 1 if step is None else step)}
    items: list[dict] = []
    on_path = set()
    if step is not None:
        node = search.nodes[step]
        while node is not None:
            on_path.add(node.step)
            node = None if node.parent is None else search.nodes[node.parent]

    def add(node: engine.SearchNode, level: int) -> None:
        state = states[node.step]
        children = [c for c in node.children if c in states]
        cut = node.cut if node.cut and state.status == "done" else None
        parent = None if node.parent is None else search.nodes[node.parent]
        chosen = parent is not None and states[parent.step].status == "done" and parent.best_move == node.move
        value = state.value
        bound = node.bound if state.status == "done" else "so far"
        items.append(
            {
                "node": node,
                "id": f"node-{node.step}",
                "level": level,
                "state": state,
                "value": signed(value),
                "bound": bound,
                "words": "" if value is None or bound != "exact" else outcome_words(value, search.scoring, node.depth),
                "alpha": signed(state.alpha),
                "beta": signed(state.beta),
                "alpha_in": signed(node.alpha_in),
                "beta_in": signed(node.beta_in),
                "chosen": chosen,
                "current": node.step == step,
                "fold": bool(children)
                and node.step not in on_path
                and (step is not None or (level >= 2 and len(search.nodes) > FOLD_ABOVE)),
                "opens": bool(children or cut),
                "closes": [],
                "explore": explore(node.position) if node.result is None and node.parent is not None else None,
                "result": _result_words(node.result) if node.result else "",
            }
        )
        for child in children:
            add(search.nodes[child], level + 1)
        if cut:
            items.append(
                {
                    "cut": cut,
                    "id": f"cut-{node.step}",
                    "level": level + 1,
                    "cells": ", ".join(str(c) for c in cut.moves),
                    "plural": len(cut.moves) > 1,
                    "alpha": signed(cut.alpha),
                    "beta": signed(cut.beta),
                    "opens": False,
                    "closes": [],
                }
            )
        if children or cut:
            items[-1]["closes"].append(node.step)

    add(search.root, 1)
    return items


def tree_drawing(search: engine.SearchTree, step: int | None, query: dict, folds: frozenset[int] | None):
    """The tree laid out for the page's SVG, each node that has moves below it
    with the link that folds or opens it (the page's choices and step kept)."""
    folded = tree_layout.default_folds(search, step) if folds is None else folds
    drawing = tree_layout.layout(search, step=step, folded=folded)
    here = {**query, **({} if step is None else {"step": step + 1})}
    for node in drawing.nodes:
        if node.kind == "node" and node.folds:
            here["fold"] = _fold_text(folded ^ {node.step})
            node.fold_url = _url(here) + "#tree-drawing"
    return drawing


def _drawing_sizes() -> dict:
    """The sizes the SVG template draws boxes with (tree_layout's)."""
    return {
        "node_width": tree_layout.NODE_WIDTH,
        "node_height": tree_layout.NODE_HEIGHT,
        "board_size": tree_layout.BOARD_SIZE,
    }


def _download_url(kind: str, query: dict) -> str:
    choices = {key: value for key, value in query.items() if key != "fold"}
    return f"{reverse('games:tree_download', args=[kind])}?{urlencode(choices)}"


def _fold_text(folds: frozenset[int]) -> str:
    return ",".join(str(n) for n in sorted(folds))


def _url(query: dict) -> str:
    return f"{reverse('games:tree')}?{urlencode(query)}"


def _explore_url(query: dict):
    """A node's "Search from here", keeping the page's choices: made once per
    page, since a tree has hundreds."""
    prefix = _url({key: value for key, value in query.items() if key != "board"})
    return lambda position: f"{prefix}&board={position}"


def _step_links(query: dict, step: int | None, steps: int) -> dict:
    def at(n: int) -> str:
        return _url({**query, "step": n + 1})

    if step is None:
        return {"start": at(0), "whole": None}
    return {
        "first": at(0) if step > 0 else None,
        "previous": at(step - 1) if step > 0 else None,
        "next": at(step + 1) if step + 1 < steps else None,
        "last": at(steps - 1) if step + 1 < steps else None,
        "whole": _url(query),
    }


def _root_cells(board: engine.Board, query: dict | None, marked: dict | None = None) -> list[dict]:
    """The position's cells with their numbers; a free cell links to the position after it is played."""
    cells = []
    for index in range(board.size * board.size):
        mark = board.cell(index)
        cell = {"index": index, "mark": mark if mark != "." else "", "tag": (marked or {}).get(index)}
        if mark == ".":
            cell["label"] = f"cell {index}, free"
            if query is not None and not board.is_game_over():
                after = board.play(index)
                if not after.is_game_over():
                    cell["url"] = _url({**query, "board": str(after)})
        else:
            cell["label"] = f"cell {index}, {mark}"
        cells.append(cell)
    return cells


def _ordering_counts(search: engine.SearchTree, counts: dict[str, int]) -> dict:
    """Positions each search visits from here, by move order, with this page's scoring and seed."""
    minimax = counts["minimax"]
    rows = [
        {
            "order": order,
            "name": ORDER_NAMES[order] + (f" (seed {search.seed})" if order == "random" else ""),
            "alphabeta": counts[order],
            "share": f"{counts[order] / minimax:.1%}",
            "current": order == search.order,
        }
        for order in engine.TREE_ORDERS
    ]
    return {"minimax": minimax, "rows": rows}
