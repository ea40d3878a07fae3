"""The forms of a new challenge and of a quick game."""

from django import forms

from games.play.clocks import MAX_INCREMENT, MAX_MINUTES, PRESETS
from games.play.models import Variant


def _choice_label(control) -> str:
    """A time control as a button-sized choice: "3+2", "1 day a move", "No limit"."""
    if control.kind == "clock":
        return control.key
    if control.kind == "correspondence":
        return f"{control.short_label} a move"
    return control.label


#: The time controls offered in one click, by key ("3+2", "1d", "none").
PRESET_CHOICES = [(control.key, _choice_label(control)) for control in PRESETS]
CUSTOM = "custom"
#: What the choices mean, under them.
TIME_CONTROL_HELP = "3+2 is 3 minutes each for the whole game, and 2 seconds more after each move."
RATED_HELP = "A casual game moves no rating. A game between a bot and a person is always casual."


def rated_field() -> forms.ChoiceField:
    """Rated or casual; a form sent without it asks for a rated game, as before there was a choice."""
    return forms.ChoiceField(
        label="Rated",
        choices=[("rated", "Rated"), ("casual", "Casual")],
        required=False,
        initial="rated",
        help_text=RATED_HELP,
        widget=forms.RadioSelect,
    )


class ChallengeForm(forms.Form):
    """The choices of a game against another person; the service checks the
    opponent. ``cleaned_data`` is what :func:`challenge_create` takes: a custom
    clock's minutes and increment become its key ("7+4")."""

    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.THREE, widget=forms.RadioSelect)
    side = forms.ChoiceField(
        label="You play",
        choices=[("X", "X (you move first)"), ("O", "O"), ("random", "Random")],
        initial="random",
        widget=forms.RadioSelect,
    )
    kind = forms.ChoiceField(
        label="Who may accept",
        choices=[
            ("open", "Anyone, in the lobby"),
            ("direct", "A player I name"),
            ("link", "Whoever I send a link to"),
        ],
        initial="open",
        widget=forms.RadioSelect,
    )
    opponent_username = forms.CharField(
        label="Player's username",
        required=False,
        max_length=150,
        help_text="For a challenge sent to one player.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}),
    )
    time_control = forms.ChoiceField(
        label="Time control",
        choices=[*PRESET_CHOICES, (CUSTOM, "Custom clock")],
        required=False,
        initial="none",
        help_text=TIME_CONTROL_HELP,
        widget=forms.RadioSelect,
    )
    rated = rated_field()
    takebacks_allowed = forms.BooleanField(
        label="Allow takebacks",
        required=False,
        help_text="Either of you may then ask to take back a move the other has not answered yet.",
    )
    clock_minutes = forms.IntegerField(
        label="Minutes each",
        min_value=1,
        max_value=MAX_MINUTES,
        required=False,
        initial=5,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    clock_increment = forms.IntegerField(
        label="Seconds added per move",
        min_value=0,
        max_value=MAX_INCREMENT,
        required=False,
        initial=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    #: Fields shown together as the custom clock, not as choices of their own.
    CUSTOM_CLOCK_FIELDS = ("clock_minutes", "clock_increment")

    def clean(self):
        data = super().clean()
        if data.get("kind") == "direct" and not data.get("opponent_username", "").strip():
            self.add_error("opponent_username", "Enter the username of the player you want to challenge.")
        data["opponent_username"] = data.get("opponent_username", "").strip()
        minutes, increment = data.pop("clock_minutes", None), data.pop("clock_increment", None)
        if data.get("time_control") == CUSTOM:
            if minutes is None and "clock_minutes" not in self.errors:
                self.add_error("clock_minutes", "Enter the minutes on each clock for a custom clock.")
            data["time_control"] = f"{minutes}+{increment or 0}"
        elif not data.get("time_control"):
            data["time_control"] = "none"
        data["rated"] = data.get("rated") != "casual"
        return data


class QuickGameForm(forms.Form):
    """A quick game: a board, a time control, rated or casual; the service finds the opponent."""

    board = forms.ChoiceField(choices=Variant.choices, initial=Variant.THREE, widget=forms.RadioSelect)
    time_control = forms.ChoiceField(
        label="Time control",
        choices=PRESET_CHOICES,
        initial=PRESETS[1].key,
        help_text=TIME_CONTROL_HELP,
        widget=forms.RadioSelect,
    )
    rated = rated_field()

    def __init__(self, *args, **kwargs):
        # Its own ids: the lobby shows it beside the challenge form, which has a time control too.
        kwargs.setdefault("auto_id", "quick_%s")
        super().__init__(*args, **kwargs)
