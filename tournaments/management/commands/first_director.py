"""``python manage.py first_director``: the first director's account of a new site (``make venue`` calls it).

When an account that may direct every event (a superuser) already exists, it says so and changes nothing. Otherwise
it makes one with Django's own ``createsuperuser``: from ``DJANGO_SUPERUSER_USERNAME`` / ``DJANGO_SUPERUSER_PASSWORD``
/ ``DJANGO_SUPERUSER_EMAIL`` when they are set (no prompt), else by asking on the terminal.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create the first director account (a superuser) unless one exists: from DJANGO_SUPERUSER_* or a prompt."

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        existing = list(
            users.filter(is_superuser=True, is_active=True).order_by("pk").values_list("username", flat=True)
        )
        if existing:
            self.stdout.write(f"director account: {', '.join(existing)} (unchanged)")
            return
        if os.environ.get("DJANGO_SUPERUSER_USERNAME"):
            if not os.environ.get("DJANGO_SUPERUSER_PASSWORD"):
                raise CommandError("DJANGO_SUPERUSER_USERNAME is set without DJANGO_SUPERUSER_PASSWORD: set both")
            username = os.environ["DJANGO_SUPERUSER_USERNAME"]
            if users.filter(username=username).exists():
                raise CommandError(
                    f"an account {username!r} exists but may not direct every event: make it a superuser in the "
                    "admin, or choose another DJANGO_SUPERUSER_USERNAME"
                )
            email = os.environ.get("DJANGO_SUPERUSER_EMAIL", "")  # optional
            call_command("createsuperuser", interactive=False, email=email, verbosity=0)
            self.stdout.write(f"director account: {username} (created)")
            return
        if not sys.stdin.isatty():
            raise CommandError(
                "no director account yet and no terminal to ask on: set DJANGO_SUPERUSER_USERNAME, "
                "DJANGO_SUPERUSER_PASSWORD (and DJANGO_SUPERUSER_EMAIL) for the first director"
            )
        self.stdout.write("No director account yet: create the first one (it may direct every event).")
        call_command("createsuperuser", interactive=True)
