"""The tree explorer's small board pictures, written in one go: a drawn tree
has hundreds of them, too many for a template loop per cell."""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()

_CELL = {
    "X": '<span class="tree-mini__cell tree-mini__cell--x{}">X</span>',
    "O": '<span class="tree-mini__cell tree-mini__cell--o{}">O</span>',
    ".": '<span class="tree-mini__cell{}"></span>',
}


@register.filter
def tree_mini(node) -> str:
    """A node's position as a picture, the last move ringed. Hidden from screen
    readers: the node's label says the move. Only the fixed strings above and
    the marks X, O and . go in, so nothing needs escaping."""
    cells = "".join(
        _CELL[mark].format(" tree-mini__cell--last" if index == node.move else "")
        for index, mark in enumerate(node.position)
    )
    return mark_safe(f'<span class="tree-mini tree-mini--{len(node.position)}" aria-hidden="true">{cells}</span>')
