"""Template tags of the public event pages: the lines of a bracket and the home page's current events.

The bracket (templates/tournaments/_bracket.html) is HTML: one column per round, each a list of equal-height
match boxes spread evenly over the column's height (``justify-content: space-around`` in static/css/events.css),
so box ``i`` of ``n`` is centred at ``(2i + 1) / 2n`` of the height whatever that height is. Between two columns
:func:`bracket_lines` draws an SVG whose coordinates are those fractions (a 100 x 1000 view box stretched over the
gap, strokes kept at their width by ``vector-effect``): an elbow from each match to the match its winner goes to.
No inline style: the SVG carries coordinates only, its look is in the stylesheet.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Case, F, IntegerField, Q, Value, When
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from tournaments.models import Event
from tournaments.selectors import events_visible_to
from tournaments.selectors.playoffs import EVENT_NOT_OVER, playoff_to_play

register = template.Library()

#: Height of the connectors' view box (its width is 100).
VIEW_HEIGHT = 1000


def centre(index: int, count: int) -> float:
    """Where box ``index`` of ``count`` spread evenly over the height is centred, in view-box units."""
    return (2 * index + 1) * VIEW_HEIGHT / (2 * count)


@register.simple_tag
def bracket_lines(column: Any) -> SafeString:
    """The lines from ``column.previous`` boxes of the previous column into ``column``'s boxes.

    ``column.links`` lists ``(index before, index here, decided)``; a decided link (its match is over) is drawn
    as the winner's path."""
    count = len(column.boards)
    paths = format_html_join(
        "",
        '<path class="{}" d="M0 {} H50 V{} H100"/>',
        (
            ("bracket-line decided" if decided else "bracket-line", f"{centre(i, column.previous):.1f}",
             f"{centre(j, count):.1f}")
            for i, j, decided in column.links
            if column.previous and count
        ),
    )  # fmt: skip
    return format_html(
        '<div class="bracket-lines" aria-hidden="true">'
        '<svg viewBox="0 0 100 {}" preserveAspectRatio="none" focusable="false">{}</svg></div>',
        VIEW_HEIGHT,
        paths,
    )


@register.simple_tag(takes_context=True)
def current_events(context: Any, limit: int = 10) -> dict[str, list[Event]]:
    """The running and the upcoming events the visitor may see (one query), for the home page. A finished event
    whose playoff for a tie is still to be played is not over: it is running (marked ``playoff_to_play``)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    order = Case(When(EVENT_NOT_OVER, then=Value(0)), default=Value(1), output_field=IntegerField())
    events: list[Event] = list(
        events_visible_to(user)
        .annotate(playoff_to_play=playoff_to_play("division__event"))
        .filter(EVENT_NOT_OVER | Q(status=Event.Status.REGISTRATION))
        .annotate(running_first=order)
        .order_by("running_first", F("starts_on").asc(nulls_last=True), "name")[: 2 * limit]
    )
    running = [e for e in events if e.status != Event.Status.REGISTRATION][:limit]
    upcoming = [e for e in events if e.status == Event.Status.REGISTRATION][:limit]
    return {"running": running, "upcoming": upcoming}
