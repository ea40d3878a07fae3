"""The forms of an account: signing up, and deleting it."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from games.accounts import selectors


class SignUpForm(UserCreationForm):
    """Django's own sign-up form, plus an optional e-mail for password resets."""

    email = forms.EmailField(
        label="E-mail (optional)",
        required=False,
        help_text="Only used to send you a link if you forget your password.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self):
        """A name nobody could mistake for a taken one: not the same but for
        case, nor written with lookalike letters (selectors.username_lookalike)."""
        username = super().clean_username()  # Django refuses one taken but for case
        if username and not self.has_error("username"):
            taken = selectors.username_lookalike(username)
            if taken is not None:
                raise forms.ValidationError(
                    f"That username looks too much like “{taken}”, which is taken. Choose another.",
                    code="lookalike",
                )
        return username


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
