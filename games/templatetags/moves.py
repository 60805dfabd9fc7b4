"""``{% move_items entries match_id current %}``: the items of a match's move list, one ``<li>`` per entry.

Each item links to the page with the board after that entry (``?at=<seq>#replay``, which works without
JavaScript) and carries ``id="move-<seq>"`` so that a poll can drop or follow it; ``current`` (an entry or None) is
marked ``aria-current="step"``. Written in Python rather than as an included template: a long match has
thousands of items, and the page and its polls share this one definition.

    {% load moves %}
    <ol class="moves">{% move_items entries data.match.pk entry %}</ol>
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.models import Decision
from games.spectator import MoveLine

register = template.Library()


@register.simple_tag(name="move_items")
def move_items(
    entries: Iterable[MoveLine],
    match_id: int,
    current: MoveLine | None = None,
    marks: Mapping[int, Decision] | None = None,
) -> SafeString:
    """The ``<li>`` items of ``entries``; every text in them is escaped. ``marks``: gnubg's marked decisions by
    entry seq, shown after the entry's text."""
    page = reverse("games:match", args=[match_id])
    current_seq = current.seq if isinstance(current, MoveLine) else None
    marks = marks or {}
    return format_html_join(
        "",
        '<li id="move-{0}"><a href="{1}?at={0}#replay" data-seq="{0}"{2}>{3}{4}{5}</a></li>',
        (
            (
                entry.seq,
                page,
                mark_safe(' aria-current="step"') if entry.seq == current_seq else "",
                format_html('<span class="who">{}</span> ', entry.name) if entry.name else "",
                entry.text,
                _mark(marks.get(entry.seq)),
            )
            for entry in entries
        ),
    )


def _mark(decision: Decision | None) -> SafeString | str:
    if decision is None:
        return ""
    words = [w for w in (decision.mark, decision.cube_mark and f"cube {decision.cube_mark}") if w]
    css = (decision.mark or decision.cube_mark).replace(" ", "-")
    return format_html(' <span class="mark mark-{}">{}</span>', css, ", ".join(words))
