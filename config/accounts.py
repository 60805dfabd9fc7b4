"""The account doors under /accounts/ and the admin's login: where passwords are guessed, every door counts against
one limit.

- ``/accounts/login/`` and ``/admin/login/`` share the "login" rate limit (``LOGIN_ATTEMPTS_PER_15_MIN`` per client
  address): a guesser turned away by one is turned away by the other.
- Password reset sends an e-mail, so it exists only when e-mail is configured (``EMAIL_HOST``): otherwise its pages
  are a 404 and the login page offers no link to it. When it exists, ``PASSWORD_RESETS_PER_HOUR`` requests per
  address are let through.
- Logging out and changing one's password are Django's own views. The reset e-mail's link names ``PUBLIC_URL`` when
  it is set (whatever address the request came in on).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth
from django.http import Http404, HttpRequest, HttpResponseBase
from django.urls import URLPattern, path

from common.ratelimit import rate_limited

LOGIN_WINDOW = 15 * 60


def login_limited(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """``view`` under the shared login limit (the same counter for every login form)."""
    return rate_limited("login", limit=settings.LOGIN_ATTEMPTS_PER_15_MIN, window=LOGIN_WINDOW)(view)


def with_email(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """``view`` when e-mail is configured (read at each request), else a 404."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.PASSWORD_RESET_ENABLED:
            raise Http404("password reset is off: no e-mail is configured")
        return view(request, *args, **kwargs)

    return wrapper


class PasswordResetView(auth.PasswordResetView):
    """Django's, with the e-mail's link on the public address when ``PUBLIC_URL`` is set."""

    @property
    def extra_email_context(self) -> dict[str, str] | None:  # type: ignore[override]
        if not settings.PUBLIC_URL:
            return None
        public = urlsplit(settings.PUBLIC_URL)
        return {"protocol": public.scheme, "domain": public.netloc}


reset_limited = rate_limited("password-reset", limit=settings.PASSWORD_RESETS_PER_HOUR, window=60 * 60)

#: Before ``admin.site.urls`` in the root URLconf, so that the admin's login is this one.
admin_login = path("admin/login/", login_limited(admin.site.login), name="admin-login")

urlpatterns: list[URLPattern] = [
    path("login/", login_limited(auth.LoginView.as_view()), name="login"),
    path("logout/", auth.LogoutView.as_view(), name="logout"),
    path("password_change/", auth.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password_reset/", with_email(reset_limited(PasswordResetView.as_view())), name="password_reset"),
    path("password_reset/done/", with_email(auth.PasswordResetDoneView.as_view()), name="password_reset_done"),
    path(
        "reset/<uidb64>/<token>/",
        with_email(auth.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path("reset/done/", with_email(auth.PasswordResetCompleteView.as_view()), name="password_reset_complete"),
]
