"""Security headers the framework does not set: a Content-Security-Policy that allows only the site's own scripts,
styles and images (no inline script, no CDN), and no framing."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# Third-party pages served from our own static files but written with inline scripts (Swagger UI, the admin's
# popups) get a policy that still allows only our own origin, plus their inline code.
RELAXED = POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)
RELAXED_PREFIXES = ("/api/docs/", "/admin/")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            relaxed = request.path.startswith(RELAXED_PREFIXES)
            response["Content-Security-Policy"] = getattr(settings, "CSP_POLICY", None) or (
                RELAXED if relaxed else POLICY
            )
        return response
