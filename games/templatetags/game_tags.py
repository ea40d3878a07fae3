"""How games, players and the engine's numbers read on a page."""

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from games import notation
from games.moderation import selectors as moderation_selectors
from games.play import clocks
from games.play.models import Game, is_bot
from games.play.players import current_player
from games.stats import selectors as stats_selectors

register = template.Library()


@register.filter
def short_evaluation(evaluation) -> str:
    """ "win 3", "draw", "loss 2" or "not solved": what fits inside a cell.

    Words only: the search's raw score means nothing to a player and is never shown.
    """
    if evaluation.outcome in ("win", "loss"):
        return f"{evaluation.outcome} {evaluation.plies}"
    if evaluation.outcome == "draw":
        return "draw"
    return "not solved"


@register.filter
def node_count(count: int, exact: bool = True) -> str:
    """A count of positions: "1,234", or "more than 50,000" where counting stopped early."""
    return f"{count:,}" if exact else f"more than {count:,}"


#: How a review's label reads; the others read as they are.
_LABEL_WORDS = {"unsolved": "not solved"}


@register.filter
def review_label(label: str) -> str:
    """A reviewed move's label in words: "best", "inaccuracy", ..., "not solved"."""
    return _LABEL_WORDS.get(label, label)


@register.filter
def evaluation_of(analysis, cell) -> str:
    evaluation = analysis.get(cell)
    return str(evaluation) if evaluation else ""


@register.filter
def cell_row(cell: int, size: int) -> int:
    return cell // size + 1


@register.filter
def cell_col(cell: int, size: int) -> int:
    return cell % size + 1


@register.filter
def duration(seconds: float) -> str:
    """A search time in the unit that reads best: µs, ms or s."""
    if seconds < 0.001:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


@register.filter
def intcomma_plain(value: int) -> str:
    """1234567 -> "1,234,567" without loading django.contrib.humanize."""
    return f"{value:,}"


@register.filter
def side_for(game, viewer):
    """The side ``viewer`` plays in ``game``, or None. ``viewer`` is a request
    (the person looking: signed in, or a guest by session) or a user (the
    player whose page it is, whoever looks)."""
    if hasattr(viewer, "session"):
        player = current_player(viewer)
        return game.side_of(player.user, player.guest_key)
    return game.side_of(viewer)


@register.filter
def outcome_for_side(game, side):
    """ "won", "lost" or "drawn" for ``side`` (None: not a player, or unfinished)."""
    return game.outcome_for(side)


@register.filter
def opponent_of(game, side: str) -> str:
    return game.opponent_name(side)


@register.filter
def coordinates(size: int) -> dict[str, list[str]]:
    """The letters along a board's bottom (a, b, c...) and the numbers down its
    side, top row first (3, 2, 1 on 3x3): the game notation's coordinates."""
    return {
        "files": [notation.coordinate(col, size)[0] for col in range(size)],
        "ranks": [notation.coordinate(row * size, size)[1:] for row in range(size)],
    }


@register.filter
def board_marks(board) -> str:
    """The board's cells as a string to loop over."""
    return str(board)


@register.filter
def player_name_of(game, side: str) -> str:
    return game.player_name(side)


@register.inclusion_tag("games/_bot_badge.html")
def bot_badge(player, side: str = "") -> dict:
    """The BOT badge after a bot's name, nothing after anyone else's: ``player``
    is a user, or a game and ``side`` the side whose player it is. Free when
    the users were read with their ``bot`` (``Game.objects.with_players()``,
    ``select_related("user__bot")``)."""
    if isinstance(player, Game):
        return {"bot": player.player_is_bot(side)}
    return {"bot": is_bot(player)}


@register.filter
def since(moment) -> str:
    """How long ago: "just now" under a minute, else "5 minutes ago"."""
    if moment is None:
        return ""
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment, depth=1)} ago"


@register.simple_tag
def head_to_head_rows(player):
    """A player's record against each opponent (games.stats.selectors.head_to_head), read by
    templates/games/_head_to_head.html so any page showing a player can include it."""
    return stats_selectors.head_to_head(player)


@register.filter
def clock_time(ms) -> str:
    """A clock's reading from milliseconds left: "4:59", "0:07.3"."""
    return clocks.format_ms(ms)


@register.simple_tag
def admin_summary():
    """The figures the admin index shows staff (games.stats.selectors.admin_summary)."""
    return stats_selectors.admin_summary()


@register.simple_tag
def reports_waiting() -> int:
    """How many players' reports wait for a moderator (the admin index's first line)."""
    return moderation_selectors.waiting_count()
