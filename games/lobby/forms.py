"""The form of a new challenge."""

from django import forms

from games.lobby.models import MOVE_TIME_LIMITS
from games.play.models import Variant


class ChallengeForm(forms.Form):
    """The choices of a game against another person; the service checks the opponent."""

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
    move_time_limit = forms.TypedChoiceField(
        label="Time per move",
        choices=[("" if seconds is None else str(seconds), label) for seconds, label in MOVE_TIME_LIMITS],
        coerce=int,
        empty_value=None,
        required=False,
        initial="",
        widget=forms.RadioSelect,
    )
    takebacks_allowed = forms.BooleanField(
        label="Allow takebacks",
        required=False,
        help_text="Either of you may then ask to take back a move the other has not answered yet.",
    )

    def clean(self):
        data = super().clean()
        if data.get("kind") == "direct" and not data.get("opponent_username", "").strip():
            self.add_error("opponent_username", "Enter the username of the player you want to challenge.")
        data["opponent_username"] = data.get("opponent_username", "").strip()
        return data
