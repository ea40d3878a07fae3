from django import forms
from django.contrib.auth.forms import UserCreationForm

from games.models import MOVE_TIME_LIMITS, Level, StartMode, Variant, levels_described


class SignUpForm(UserCreationForm):
    """Django's own sign-up form, plus an optional e-mail for password resets."""

    email = forms.EmailField(
        label="E-mail (optional)",
        required=False,
        help_text="Only used to send you a link if you forget your password.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


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


class HistoryFilterForm(forms.Form):
    """The filters of a player's history; every field may be left at "any"."""

    result = forms.ChoiceField(
        required=False,
        choices=[
            ("", "Any result"),
            ("won", "Won"),
            ("lost", "Lost"),
            ("drawn", "Drawn"),
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

    def clean(self):
        data = super().clean()
        if data.get("kind") == "direct" and not data.get("opponent_username", "").strip():
            self.add_error("opponent_username", "Enter the username of the player you want to challenge.")
        data["opponent_username"] = data.get("opponent_username", "").strip()
        return data


class AccountDeleteForm(forms.Form):
    """Deleting an account asks for its password, as changing it does."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                "That is not your password. Your account has not been deleted.", code="password_incorrect"
            )
        return password
