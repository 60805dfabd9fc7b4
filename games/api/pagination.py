"""Page-number pagination for every list of the API: 50 a page by default, ``?page_size=`` up to 200."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    """A page past the last one is a 404 ``{"code": "not_found"}``; the schema says so (games.api.schema)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
        return parameters
