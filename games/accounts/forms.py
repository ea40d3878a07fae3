"""The forms of an account: signing in, signing up, and deleting it."""

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from games.accounts import selectors, services


class SignInForm(AuthenticationForm):
    """Django's sign-in form. A closed or suspended account given its right
    password is told so, plainly (until when and why, for a moderator's
    decision), instead of "enter a correct username and password"; nothing is
    authenticated then, so the lockout counts no failed try."""

    def clean(self):
        username, password = self.cleaned_data.get("username"), self.cleaned_data.get("password")
        if username and password:
            refusal = services.sign_in_refusal(username=username, password=password)
            if refusal is not None:
                raise forms.ValidationError(refusal.message[:1].upper() + refusal.message[1:] + ".", code=refusal.code)
        return super().clean()


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
