"""A player's report, and the reason and length a moderator gives a sanction."""

from __future__ import annotations

from datetime import timedelta

from django import forms

from games.moderation.models import NOTE_MAX_LENGTH, Reason
from games.moderation.services import REASON_MAX_LENGTH


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label="What is wrong?", choices=Reason.choices, widget=forms.RadioSelect)
    note = forms.CharField(
        label="In your own words (optional)",
        max_length=NOTE_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="What happened, and in which game if it is not a chat message. The player does not see it.",
    )


#: How long a chat mute or a suspension lasts: the admin's choices.
LENGTHS = {
    "1h": ("1 hour", timedelta(hours=1)),
    "1d": ("1 day", timedelta(days=1)),
    "3d": ("3 days", timedelta(days=3)),
    "7d": ("1 week", timedelta(days=7)),
    "30d": ("30 days", timedelta(days=30)),
}


class SanctionForm(forms.Form):
    """The admin's page between choosing an action and carrying it out."""

    reason = forms.CharField(
        label="Reason",
        max_length=REASON_MAX_LENGTH,
        widget=forms.TextInput(attrs={"size": 80}),
        help_text="The player is told this, word for word.",
    )
    length = forms.ChoiceField(
        label="For how long", choices=[(key, label) for key, (label, _) in LENGTHS.items()], initial="1d"
    )

    def __init__(self, *args, timed: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not timed:
            del self.fields["length"]

    @property
    def duration(self) -> timedelta | None:
        length = self.cleaned_data.get("length")
        return LENGTHS[length][1] if length else None
