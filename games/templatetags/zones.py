"""``event|zone_of``: the time zone an event's pages show their times in, for ``{% timezone %}``.

    {% load tz zones %}
    {% timezone event|zone_of %}... {{ pairing.called_at|time:"H:i" }} ...{% endtimezone %}

The event's own zone (its ``time_zone``, an IANA name); the site's zone (``TIME_ZONE``) for a page without an event
or an event whose zone is unknown. base.html wraps every page in it, and each live part rendered alone wraps itself.
"""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

from django import template
from django.utils import timezone

register = template.Library()


@register.filter
def zone_of(event: Any) -> datetime.tzinfo:
    name = getattr(event, "time_zone", "") or ""
    if name:
        try:
            return zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
    return timezone.get_default_timezone()
