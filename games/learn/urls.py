"""The learning pages' addresses, in the ``games`` namespace like every page."""

urlpatterns: list = []
