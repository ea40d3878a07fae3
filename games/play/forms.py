"""The forms of playing: a new game against the AI, and a player's history filters."""

from django import forms

from games.play.clocks import PRESETS
from games.play.models import Level, StartMode, Variant, levels_described

#: Clocks a game against the AI may have: it keeps no clock of its own.
AI_GAME_CLOCKS = [("none", "No clock"), *((c.key, c.label) for c in PRESETS if c.kind == "clock")]


class NewGameForm(forms.Form):
    """The choices of a game against the AI."""

    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.THREE, widget=forms.RadioSelect)
    side = forms.ChoiceField(
        label="You play",
        choices=[("X", "X (you move first)"), ("O", "O (the AI moves first)"), ("random", "Random")],
        initial="X",
        widget=forms.RadioSelect,
    )
    level = forms.ChoiceField(
        label="AI level",
        choices=Level.choices,
        initial=Level.PERFECT,
        widget=forms.RadioSelect,
        help_text=levels_described(),
    )
    start_mode = forms.ChoiceField(
        label="The AI's first move, when it starts",
        choices=StartMode.choices,
        initial=StartMode.MINIMAX,
        widget=forms.RadioSelect,
    )
    time_control = forms.ChoiceField(
        label="Your clock",
        choices=AI_GAME_CLOCKS,
        initial="none",
        required=False,
        widget=forms.RadioSelect,
        help_text="Only you have a clock: the AI's thinking never counts against it.",
    )


class HistoryFilterForm(forms.Form):
    """The filters of a player's history; every field may be left at "any"."""

    result = forms.ChoiceField(
        required=False,
        choices=[
            ("", "Any result"),
            ("won", "Won"),
            ("drawn", "Drawn"),
            ("lost", "Lost"),
            ("in_progress", "In progress"),
            ("aborted", "Aborted"),
        ],
    )
    opponent = forms.ChoiceField(required=False, choices=[("", "Anyone"), ("ai", "The AI"), ("human", "People")])
    variant = forms.ChoiceField(required=False, label="Board", choices=[("", "Any board"), *Variant.choices])
    level = forms.ChoiceField(required=False, label="AI level", choices=[("", "Any level"), *Level.choices])

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")  # labels sit above their menus, like headings
        super().__init__(*args, **kwargs)
