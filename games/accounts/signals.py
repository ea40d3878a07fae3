"""Receivers that connect Django's events to the games' services."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from games.accounts import services
from games.accounts.models import ApiToken
from games.play import live
from games.play.players import GUEST_SESSION_KEY
from games.serving.sockets import session_digest


@receiver(user_logged_in, dispatch_uid="games.adopt_guest_games")
def adopt_guest_games(sender, request, user, **kwargs):
    """A guest who signs up or logs in keeps the games they played as a guest."""
    if request is None or not hasattr(request, "session"):
        return
    guest_key = request.session.pop(GUEST_SESSION_KEY, "")
    adopted = services.games_adopt_guest(user=user, guest_key=guest_key)
    if adopted == 1:
        messages.info(request, "The game you played as a guest is in your history now.")
    elif adopted:
        messages.info(request, f"The {adopted} games you played as a guest are in your history now.")


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.notice_password_change")
def notice_password_change(sender, instance, update_fields=None, **kwargs):
    """Mark a user whose password is about to change, however it changes (the
    password change and reset pages, the admin, ``changepassword``)."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = get_user_model().objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance._password_changed = stored is not None and stored != instance.password


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.revoke_tokens_on_password_change")
def revoke_tokens_on_password_change(sender, instance, **kwargs):
    """A new password revokes every API token: whoever had the old one (and
    made a token with it) is locked out of the API as of the pages."""
    if getattr(instance, "_password_changed", False):
        instance._password_changed = False
        services.api_tokens_revoke_all(user=instance)


# A signed-in user's sockets each hold a credential (a token, a session). Any
# change that could end one tells them to check theirs again: a new password,
# the account deactivated or deleted, a sign-out, a token revoked.


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.sockets_recheck_on_user_change")
def sockets_recheck_on_user_change(sender, instance, created=False, **kwargs):
    if not created:
        live.publish_credentials_changed(instance.pk)


@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.sockets_recheck_on_user_delete")
def sockets_recheck_on_user_delete(sender, instance, **kwargs):
    live.publish_credentials_changed(instance.pk)


@receiver(user_logged_out, dispatch_uid="games.sockets_recheck_on_sign_out")
def sockets_recheck_on_sign_out(sender, request, user, **kwargs):
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None:
        live.publish_credentials_changed(user.pk, signed_out=session_digest(session_key) if session_key else "")


@receiver(post_delete, sender=ApiToken, dispatch_uid="games.sockets_recheck_on_token_revoked")
def sockets_recheck_on_token_revoked(sender, instance, **kwargs):
    live.publish_credentials_changed(instance.user_id)
