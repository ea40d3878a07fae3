"""Writes on moderation: a player's report, a moderator's decision on the
waiting reports, sanctions given and lifted, and suspensions that end.

Every decision is told: the sanctioned player by a notification (and, for a
suspension or a closing, when they next try to sign in), each reporter by
the outcome of their report. A refusal raises a :class:`games.errors.GameError`
and stores nothing.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from games.errors import InvalidInput, ReportRefused, ReportsRateLimited, require_choice
from games.moderation import selectors
from games.moderation.models import NOTE_MAX_LENGTH, Decision, Reason, Report, Sanction, SanctionKind
from games.notifications.models import Kind
from games.notifications.services import notify
from games.play.chat_models import ChatMessage
from games.play.chat_services import chat_ban, chat_ban_lift
from games.serving.windows import seconds_until_room

#: A player makes at most REPORTS_PER_DAY reports in any REPORTS_WINDOW.
REPORTS_PER_DAY = 10
REPORTS_WINDOW = timedelta(days=1)

#: The longest reason a sanction carries.
REASON_MAX_LENGTH = 200


def _note(note: object) -> str:
    if not isinstance(note, str):
        raise InvalidInput("a report's note is text", code="invalid_note")
    note = " ".join(note.split())
    if len(note) > NOTE_MAX_LENGTH:
        raise InvalidInput(
            f"a report's note is at most {NOTE_MAX_LENGTH} characters; this one has {len(note)}", code="note_too_long"
        )
    return note


def _check_rate(reporter, now) -> None:
    recent = list(
        Report.objects.filter(reporter=reporter, created_at__gt=now - REPORTS_WINDOW)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:REPORTS_PER_DAY]
    )
    wait = seconds_until_room(recent, limit=REPORTS_PER_DAY, window=REPORTS_WINDOW, now=now)
    if wait:
        hours = math.ceil(wait / 3600)
        raise ReportsRateLimited(
            f"you have made {REPORTS_PER_DAY} reports in the last day, the most a player makes: "
            f"the moderators are reading them; you may report again in {hours} hour{'s' if hours != 1 else ''}",
            retry_after=wait,
        )


def report_make(*, reporter, reason: object, note: object = "", player=None, message: ChatMessage | None = None):
    """``reporter`` reports ``player``, or the chat ``message`` (then its
    author), for ``reason``, in their own words ``note``. Refused: a report of
    oneself, of a message whose author's account is gone, of a closed account,
    a second waiting report of the same thing, and more than
    :data:`REPORTS_PER_DAY` a day."""
    if (player is None) == (message is None):
        raise InvalidInput("report either a player or a chat message", code="report_target")
    reason = require_choice(reason, Reason, "reason")
    note = _note(note)
    if message is not None:
        player = message.author
        if player is None:
            raise ReportRefused("this message's author has deleted their account", code="author_gone")
    if player == reporter:
        raise InvalidInput("you cannot report yourself", code="own_report")
    if not player.is_active:
        raise ReportRefused(f"{player.get_username()}'s account is closed already", code="account_closed")
    now = timezone.now()
    try:
        with transaction.atomic():
            # The reporter's row, locked: two reports at once are counted one after the other.
            get_user_model().objects.select_for_update().filter(pk=reporter.pk).first()
            _check_rate(reporter, now)
            return Report.objects.create(
                reporter=reporter,
                player=player,
                message=message,
                message_text=message.text if message is not None else "",
                reason=reason,
                note=note,
                created_at=now,
            )
    except IntegrityError:
        what = "this message" if message is not None else player.get_username()
        raise ReportRefused(
            f"you have reported {what} already: the moderators will read it", code="reported_already"
        ) from None


def _reason(reason: object) -> str:
    reason = " ".join(reason.split()) if isinstance(reason, str) else ""
    if not reason:
        raise InvalidInput("say why: the player is told the reason", code="reason_missing")
    if len(reason) > REASON_MAX_LENGTH:
        raise InvalidInput(f"a reason is at most {REASON_MAX_LENGTH} characters", code="reason_too_long")
    return reason


def _told(sanction: Sanction) -> str:
    """What the sanctioned player is told."""
    if sanction.kind == SanctionKind.WARN:
        return f"A moderator warned you: {sanction.reason}"
    if sanction.kind == SanctionKind.MUTE:
        return f"A moderator muted you in every chat until {selectors.when(sanction.ends_at)}: {sanction.reason}"
    if sanction.kind == SanctionKind.SUSPEND:
        return f"A moderator suspended your account until {selectors.when(sanction.ends_at)}: {sanction.reason}"
    return f"A moderator closed your account: {sanction.reason}"


def sanction_give(*, player, kind: str, reason: object, by, duration: timedelta | None = None) -> Sanction:
    """A moderator ``by`` sanctions ``player``: a warning, a chat mute or a
    suspension for ``duration``, or closing the account. The player is told.
    Staff accounts are refused: take away their staff status first."""
    kind = require_choice(kind, SanctionKind, "sanction")
    reason = _reason(reason)
    timed = kind in (SanctionKind.MUTE, SanctionKind.SUSPEND)
    if timed and (duration is None or duration <= timedelta(0)):
        raise InvalidInput("a mute or a suspension needs how long it lasts", code="duration_missing")
    if player.is_staff or player.is_superuser:
        raise ReportRefused(
            f"{player.get_username()} is staff: take away their staff status before sanctioning them",
            code="staff_account",
        )
    now = timezone.now()
    with transaction.atomic():
        player = get_user_model().objects.select_for_update().get(pk=player.pk)
        standing = selectors.standing_sanction(player, now) if kind == SanctionKind.CLOSE else None
        if standing is not None and standing.kind == SanctionKind.CLOSE:
            raise ReportRefused(f"{player.get_username()}'s account is closed already", code="account_closed")
        sanction = Sanction.objects.create(
            player=player,
            kind=kind,
            reason=reason,
            ends_at=now + duration if timed else None,
            created_by=by,
            created_at=now,
        )
        # Told first: a suspended or closed account is told nothing after (it is not active).
        notify(user=player, kind=Kind.SANCTION, text=_told(sanction), url=reverse("games:account") + "#standing")
        if kind == SanctionKind.MUTE:
            chat_ban(user=player, until=sanction.ends_at, reason=reason)
        elif kind in (SanctionKind.SUSPEND, SanctionKind.CLOSE) and player.is_active:
            # Sessions, API tokens and sockets stop at once (the accounts' post_save closes the sockets).
            player.is_active = False
            player.save(update_fields=["is_active"])
    return sanction


def _outcome(report: Report) -> str:
    """What a reporter is told of their report."""
    name = report.player.get_username()
    about = f"your report of a message by {name}" if report.message_text else f"your report of {name}"
    if report.decision == Decision.DISMISS:
        return f"A moderator read {about} and took no action"
    return f"A moderator handled {about}: {report.outcome}"


def reports_handle(
    *, report_ids, decision: str, reason: object = "", by, duration: timedelta | None = None
) -> list[Report]:
    """A moderator ``by`` decides on the waiting reports among ``report_ids``:
    dismisses them, or gives each reported player one sanction of the kind
    ``decision``. Reports handled meanwhile by another moderator are left as
    they are. Each reporter is told the outcome; the handled reports."""
    decision = require_choice(decision, Decision, "decision")
    if decision != Decision.DISMISS:
        reason = _reason(reason)
    now = timezone.now()
    with transaction.atomic():
        waiting = list(
            Report.objects.waiting().filter(pk__in=report_ids).select_for_update(of=("self",)).select_related("player")
        )
        by_player: dict[int, list[Report]] = defaultdict(list)
        for report in waiting:
            by_player[report.player_id].append(report)
        for reports in by_player.values():
            sanction = None
            if decision != Decision.DISMISS:
                sanction = sanction_give(
                    player=reports[0].player, kind=decision, reason=reason, by=by, duration=duration
                )
            for report in reports:
                report.decision, report.handled_by, report.handled_at, report.sanction = decision, by, now, sanction
                report.save(update_fields=["decision", "handled_by", "handled_at", "sanction"])
                notify(
                    user=report.reporter,
                    kind=Kind.REPORT_OUTCOME,
                    text=_outcome(report),
                    url=reverse("games:account") + "#reports",
                )
    return waiting


def _restore(player, now) -> None:
    """Give back what no sanction in force takes away any more."""
    if not player.is_active and selectors.standing_sanction(player, now) is None:
        player.is_active = True
        player.save(update_fields=["is_active"])


def sanction_lift(*, sanction: Sanction, by) -> bool:
    """End a sanction early (a moderator's mistake, an appeal granted);
    whether it was in force. The player is told."""
    now = timezone.now()
    with transaction.atomic():
        player = get_user_model().objects.select_for_update().get(pk=sanction.player_id)
        sanction = Sanction.objects.select_for_update().get(pk=sanction.pk)
        if not sanction.in_force(now):
            return False
        sanction.lifted_at, sanction.lifted_by = now, by
        sanction.save(update_fields=["lifted_at", "lifted_by"])
        if sanction.kind == SanctionKind.MUTE:
            chat_ban_lift(user=player)
            other = (
                Sanction.objects.filter(player=player, kind=SanctionKind.MUTE, lifted_at=None, ends_at__gt=now)
                .order_by("-ends_at")
                .first()
            )
            if other is not None:
                chat_ban(user=player, until=other.ends_at, reason=other.reason)
        _restore(player, now)
        notify(
            user=player,
            kind=Kind.SANCTION,
            text=f"A moderator lifted your {sanction.get_kind_display().lower()}",
            url=reverse("games:account") + "#standing",
        )
    return True


def suspensions_end(*, now=None, user=None) -> int:
    """Apply the ends of suspensions that are over (the worker's job; also
    the sign-in's, so nobody waits for the worker): the account opens again
    unless another sanction keeps it closed. How many accounts opened."""
    now = now or timezone.now()
    opened = 0
    for sanction in selectors.ended_suspensions(now, user):
        with transaction.atomic():
            player = get_user_model().objects.select_for_update().get(pk=sanction.player_id)
            if Sanction.objects.filter(pk=sanction.pk, lifted_at=None).update(lifted_at=now) and not player.is_active:
                _restore(player, now)
                opened += player.is_active
    return opened
