"""Root URL configuration (the 400 and 500 handlers are in config/views.py)."""

from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import TemplateView

from common.audience import shared
from config import accounts, views
from games.api.views import ApiNotFound, DocsPage, SchemaApi

urlpatterns = [
    path("", shared(TemplateView.as_view(template_name="home.html")), name="home"),
    path("health/", views.health, name="health"),
    path("health/workers/", views.health_workers, name="health-workers"),
    accounts.admin_login,  # the admin's login under the site's login limit
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
    path("play/pairings/", include("tournaments.entry_urls")),
    path("play/", include("games.entry_urls")),
    path("manage/", include("tournaments.director.urls")),
    path("accounts/", include(accounts)),
    # REST API (DRF) and its OpenAPI schema; Swagger UI is served from local static files. (drf-spectacular's
    # ReDoc page is not routed: its template loads Google Fonts from a CDN.)
    path("api/schema/", SchemaApi.as_view(), name="api-schema"),
    path("api/docs/", DocsPage.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("games.api.urls")),
    path("api/", include("tournaments.api.urls")),
    # Keep last: any other /api/.../ URL is a JSON 404.
    re_path(r"^api/[\s\S]*$", ApiNotFound.as_view()),
]


handler400 = views.request_refused
handler500 = views.server_error
