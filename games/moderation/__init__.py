"""Moderation: players report players and chat messages; moderators answer
in the admin with a warning, a chat mute, a suspension or a closing; the
players concerned are told (games.notifications) and a suspended or closed
account is told why when it tries to sign in (games.accounts)."""
