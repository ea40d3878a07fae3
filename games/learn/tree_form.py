"""The tree explorer's choices: every one of them in the address (a GET), so
that a tree, a step and a comparison can be linked to and work without
JavaScript."""

from django import forms

from games import engine


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
    fold = forms.RegexField(
        required=False,
        regex=r"^\d{1,4}(,\d{1,4}){0,399}$|^$",
        label="Folded nodes",
        error_messages={"invalid": "The folded nodes are node numbers separated by commas; every node is drawn open."},
    )

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
        # Absent, the page folds what is too wide to see at once; given (even
        # empty), exactly those nodes are folded.
        if "fold" in self.data:
            folds = self.cleaned_data.get("fold")
            cleaned["fold"] = frozenset(int(n) for n in folds.split(",") if n) if folds else frozenset()
        return cleaned
