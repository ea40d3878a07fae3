"""The Jinja2 environment of the templates in templates/jinja2/ (settings.TEMPLATES).

One template is Jinja2's: the game panel (templates/jinja2/games/_game.html),
which the game page includes and every move made from the page gets back.
Django's template language spent more CPU on it than the whole rest of a form
move; Jinja2 compiles it to Python and renders it in about a quarter of the
time (docs/benchmarks.md, issue 19). Every other page stays a Django template.

The panel reads as a Django template would: the same filters by the same
names (games/templatetags/), ``url()`` for ``{% url %}``, dates in the current
time zone, and a missing value (``clock.deadline`` of a game without a clock)
is nothing rather than an error. Partials it shares with Django templates
(a result badge, a search's figures, a lesson) are not written twice: the
panel renders them with ``dtl()``.
"""

from __future__ import annotations

from django.template import defaultfilters
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from jinja2 import ChainableUndefined, Environment, pass_context

from games.templatetags import analysis_tags, game_tags
from games.templatetags.game_tags import url


def date(value, format_string: str) -> str:
    """Django's ``date`` filter, in the current time zone as Django templates show dates."""
    return defaultfilters.date(template_localtime(value), format_string)


@pass_context
def dtl(context, template_name: str, **extra):
    """The Django template ``template_name``, rendered with everything the
    panel has (and ``extra``) for the same request."""
    return mark_safe(render_to_string(template_name, {**context.get_all(), **extra}, context.get("request")))


class DictFirst(Environment):
    """``cell.mark`` looks in a dict first, as Django templates do. Jinja2
    tries the attribute first: for the panel's cells and moves (dicts) that
    was an AttributeError raised and caught for every value shown."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    # The filters of games/templatetags/, as Django templates know them.
    env = DictFirst(**{**options, "undefined": ChainableUndefined})
    for library in (game_tags.register, analysis_tags.register):
        env.filters.update(library.filters)
    env.filters["date"] = date
    env.globals.update(url=url, dtl=dtl)
    return env
