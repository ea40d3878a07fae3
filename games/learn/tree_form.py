"""The tree explorer's choices: every one of them in the address (a GET), so
that a tree, a step and a comparison can be linked to and work without
JavaScript."""

from django import forms

from games import engine

#: The nodes the drawing shows folded, as the address says them.
FOLD_FIELD = {
    "required": False,
    "regex": r"^\d{1,4}(,\d{1,4}){0,399}$|^$",
    "label": "Folded nodes",
    "error_messages": {"invalid": "The folded nodes are node numbers separated by commas; every node is drawn open."},
}


def folds_asked(form: forms.Form) -> frozenset[int] | None:
    """The folded nodes the address asks for (given, even empty, exactly
    those), or None when it says nothing and the page folds what is too wide."""
    if "fold" not in form.data:
        return None
    folds = form.cleaned_data.get("fold")
    return frozenset(int(n) for n in folds.split(",") if n) if folds else frozenset()


class TreeForm(forms.Form):
    """The explorer's choices, all in the address. A choice that is not
    understood is reported and its default used instead; a position that is
    not understood is reported and nothing is searched."""

    board = forms.CharField(
        required=False,
        label="Position",
        strip=True,
        help_text="The cells row by row from the top left: X, O or . for a free cell.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "size": 27}),
    )
    algorithm = forms.ChoiceField(
        required=False,
        label="Search",
        choices=[
            ("minimax", "Plain minimax: every move, every reply"),
            ("alphabeta", "Alpha-beta: skip what cannot matter"),
        ],
        widget=forms.RadioSelect,
    )
    scoring = forms.ChoiceField(
        required=False,
        label="Scores",
        choices=[
            ("depth", "Depth-aware: a win d moves ahead scores 10 − d"),
            ("fatalist", "Fatalist: every win +1, every loss −1"),
        ],
        widget=forms.RadioSelect,
    )
    order = forms.ChoiceField(
        required=False,
        label="Move order",
        choices=[
            ("index", "Cell order: 0, 1, 2…"),
            ("centre", "Centre first, then corners, then edges"),
            ("random", "Random, shuffled by the seed"),
        ],
        widget=forms.RadioSelect,
    )
    seed = forms.IntegerField(required=False, min_value=0, max_value=9999, label="Seed")
    depth = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=engine.TREE_MAX_FREE_CELLS,
        label="Moves deep to draw",
        help_text=f"Empty: as deep as fits {engine.TREE_NODES_LIMIT} nodes.",
    )
    step = forms.IntegerField(required=False, min_value=1, label="Step")
    fold = forms.RegexField(**FOLD_FIELD)

    DEFAULTS = {"algorithm": "minimax", "scoring": "depth", "order": "index", "seed": 1}

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean_board(self) -> engine.Board | None:
        text = self.cleaned_data["board"].upper()
        if not text:
            return None
        if len(text) > 25:
            raise forms.ValidationError(f"A position has 9, 16 or 25 cells; this one has {len(text)}.")
        try:
            board = engine.Board.from_string(text)
            engine.check_searchable(board)
        except ValueError as refusal:
            raise forms.ValidationError(f"This position cannot be searched: {refusal}.") from None
        return board

    def choices(self) -> dict:
        """The cleaned choices, each wrong or missing one at its default (and
        ``depth``, ``step`` and ``fold`` left out when not asked for)."""
        self.is_valid()
        cleaned = {**self.DEFAULTS}
        for name in ("algorithm", "scoring", "order", "seed", "depth", "step"):
            value = self.cleaned_data.get(name)
            if value not in (None, ""):
                cleaned[name] = value
        folds = folds_asked(self)
        if folds is not None:
            cleaned["fold"] = folds
        return cleaned


class DepthLimitedForm(forms.Form):
    """The depth-limited search's choices, all in the address: a 4x4 or 5x5
    position, how many moves deep, and the search."""

    board = forms.CharField(
        required=False,
        label="Position",
        strip=True,
        help_text="A 4×4 or 5×5 position, row by row from the top left: X, O or . for a free cell.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "size": 27}),
    )
    depth = forms.TypedChoiceField(
        required=False,
        label="Moves deep",
        coerce=int,
        choices=[(depth, str(depth)) for depth in engine.HORIZON_DEPTHS],
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "The depth is 1 to 4 moves; %(value)s is not one of them."},
    )
    algorithm = forms.ChoiceField(
        required=False,
        label="Search",
        choices=[
            ("alphabeta", "Alpha-beta, centre first"),
            ("minimax", "Plain minimax: every move, every reply"),
        ],
        widget=forms.RadioSelect,
    )
    fold = forms.RegexField(**FOLD_FIELD)

    #: The position the page opens on: a 5x5 board where, two moves deep,
    #: the evaluation prefers the centre, which loses, to three cells that draw.
    DEFAULT_POSITION = "...O.X.......X..........."
    DEFAULTS = {"depth": 2, "algorithm": "alphabeta"}

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean_depth(self) -> int:
        return self.cleaned_data["depth"] or self.DEFAULTS["depth"]  # left empty: the default

    def clean_algorithm(self) -> str:
        return self.cleaned_data["algorithm"] or self.DEFAULTS["algorithm"]

    def clean_board(self) -> engine.Board:
        text = self.cleaned_data["board"].upper() or self.DEFAULT_POSITION
        if len(text) not in (16, 25):
            raise forms.ValidationError(
                f"The depth limit is for 4×4 and 5×5 positions, of 16 or 25 cells; this one has {len(text)}."
            )
        try:
            board = engine.Board.from_string(text)
        except ValueError as refusal:
            raise forms.ValidationError(f"This position cannot be searched: {refusal}.") from None
        if board.is_game_over():
            raise forms.ValidationError("The game is over in this position: there is nothing left to search.")
        return board
