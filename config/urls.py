"""Root URL configuration, and the answer to a request too large to read (``handler400``)."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import engines
from django.urls import include, path, re_path
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config import views
from config.ratelimit import rate_limited
from games.api.views import ApiNotFound

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("health/", views.health, name="health"),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
    path("play/pairings/", include("tournaments.entry_urls")),
    path("play/", include("games.entry_urls")),
    path("manage/", include("tournaments.director.urls")),
    path(
        "accounts/login/",
        rate_limited("login", limit=settings.LOGIN_ATTEMPTS_PER_15_MIN, window=15 * 60)(LoginView.as_view()),
        name="login",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    # REST API (DRF) and its OpenAPI schema; Swagger UI is served from local static files. (drf-spectacular's
    # ReDoc page is not routed: its template loads Google Fonts from a CDN.)
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("games.api.urls")),
    path("api/", include("tournaments.api.urls")),
    # Keep last: any other /api/.../ URL is a JSON 404.
    re_path(r"^api/[\s\S]*$", ApiNotFound.as_view()),
]


# -- requests Django refuses to read -----------------------------------------------------------------------------------

_REFUSED_PAGE = (
    '{% extends "base.html" %}{% block title %}{{ title }} · bgmatch{% endblock %}'
    "{% block main %}<h1>{{ title }}</h1><p>{{ message }}</p>{% endblock %}"
)


def _too_much(exception: Exception) -> tuple[str, str, str] | None:
    """(code, title, message) for the request-size limits of settings.DATA_UPLOAD_*, else None."""
    if isinstance(exception, RequestDataTooBig):
        size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        message = _(
            "The request is too large: at most %(size)s KB of form fields or JSON (uploaded files aside). "
            "Send less at once, or upload a long list as a file."
        ) % {"size": size}
        return "request_too_large", _("Request too large"), message
    if isinstance(exception, TooManyFilesSent):
        message = _("The request has too many files: send at most %(count)s at once.") % {
            "count": settings.DATA_UPLOAD_MAX_NUMBER_FILES
        }
        return "too_many_files", _("Too many files"), message
    if isinstance(exception, TooManyFieldsSent):
        message = _("The request has too many fields: send at most %(count)s at once.") % {
            "count": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        }
        return "too_many_fields", _("Too many fields"), message
    return None


def request_refused(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's 400 handler: a body over the DATA_UPLOAD_* limits gets a message saying which limit and what to
    do (JSON ``{code, message}`` under /api/, a page elsewhere); any other bad request gets Django's own answer."""
    refused = _too_much(exception) if exception is not None else None
    if refused is None:
        return defaults.bad_request(request, exception)  # type: ignore[arg-type]
    code, title, message = refused
    if request.path.startswith("/api/"):
        return JsonResponse({"code": code, "message": message}, status=400)
    page = engines["django"].from_string(_REFUSED_PAGE).render({"title": title, "message": message}, request)
    return HttpResponse(page, status=400)


handler400 = request_refused
