"""Notifications: what a player is told off the page they are on (a bell in the header, the API, the lobby socket, and for correspondence games e-mail)."""
