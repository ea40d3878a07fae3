"""The learning pages' addresses, in the ``games`` namespace like every page."""

from django.urls import path

from games.learn import tree

urlpatterns: list = []

# The search, step by step: the tree explorer, and fatalist against depth-aware scores.
urlpatterns += [
    path("learn/tree/", tree.tree, name="tree"),
    path("learn/tree/scoring/", tree.tree_scoring, name="tree_scoring"),
]
