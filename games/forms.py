from django import forms
from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    """Django's own sign-up form, plus an optional e-mail for password resets."""

    email = forms.EmailField(
        label="E-mail (optional)",
        required=False,
        help_text="Only used to send you a link if you forget your password.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
