"""Page-number pagination for every list of the API: 50 a page by default, ``?page_size=`` up to 200."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class StandardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
