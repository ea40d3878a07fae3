"""The forms of an account: signing up, and deleting it."""

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
