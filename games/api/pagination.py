"""Pages of 20, by number only."""

from __future__ import annotations

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    """DRF's page numbers, read as the schema says: ``?page=`` is an integer.

    DRF would also take an empty ``?page=`` as page 1 and ``?page=last``; here
    both are a 404 like any other page that is not there.
    """

    last_page_strings = ()

    def get_page_number(self, request, paginator):
        return request.query_params.get(self.page_query_param, 1)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1  # pages count from 1
        return parameters


class LeaderboardPagination(PageNumberPagination):
    """The leaderboard's pages hold 50 players, as on the site."""

    page_size = 50
