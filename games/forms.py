from django import forms
from django.contrib.auth.forms import UserCreationForm

from games.models import Level, StartMode, Variant


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
    level = forms.ChoiceField(label="AI level", choices=Level.choices, initial=Level.PERFECT, widget=forms.RadioSelect)
    start_mode = forms.ChoiceField(
        label="The AI's first move, when it starts",
        choices=StartMode.choices,
        initial=StartMode.MINIMAX,
        widget=forms.RadioSelect,
    )
