"""Page-number pagination for every list of the API: 50 a page by default, ``?page_size=`` up to 200."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from common.api.fields import QueryIntegerField, QueryParams

MAX_PAGE_SIZE = 200


class PageQuery(QueryParams):
    page = QueryIntegerField(min_value=1, required=False)
    page_size = QueryIntegerField(min_value=1, required=False)


class StandardPagination(PageNumberPagination):
    """``page`` and ``page_size`` are checked like any query parameter: an empty, malformed or zero value is a 400
    ``invalid_input`` naming it (DRF would quietly use the default page size); a page size over 200 is read as 200.
    A page past the last one is a 404 ``{"code": "not_found"}``; the schema says so (games.api.schema)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    last_page_strings = ()

    def _query(self, request: Request) -> dict[str, Any]:
        query = PageQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return dict(query.validated_data)

    def get_page_size(self, request: Request) -> int:
        return min(self._query(request).get("page_size", self.page_size), self.max_page_size)

    def get_page_number(self, request: Request, paginator: Any) -> int:
        return self._query(request).get("page", 1)

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """DRF's, with ``next`` and ``previous`` nullable the OpenAPI 3.1 way (DRF writes 3.0's ``nullable``)."""
        paginated = super().get_paginated_response_schema(schema)
        for link in ("next", "previous"):
            prop = paginated["properties"][link]
            if prop.pop("nullable", False):
                prop["type"] = [prop["type"], "null"]
        return paginated

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                most = self.max_page_size
                parameter["description"] = f"results a page (default {self.page_size}; over {most} reads as {most})"
        return parameters
