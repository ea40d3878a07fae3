"""The account page's notification choices."""

from django import forms

from games.notifications.models import NotificationSettings


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = NotificationSettings
        fields = ["mail_turns", "sounds"]
