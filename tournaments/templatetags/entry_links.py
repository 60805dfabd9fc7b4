"""``{% entry_link link %}``: a player's entry link on a director's page, as the whole address in text to copy (it
wraps in its box: ``.entry-link`` in static/css/site.css), never as a hyperlink. Opening an entry link binds it to the
browser that opens it (:func:`games.access.claim_entry_token`): a director's click would lock the player's phone
out ("already open on another phone"). The director hands links out on printed slips with QR codes, or enters for
the players from the match's own "Enter for the players"."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def entry_link(context: Any, link: str) -> SafeString:
    """``<code class="entry-link">``: the link (a path: made absolute for the page's request) as text."""
    request = context.get("request")
    url = request.build_absolute_uri(link) if request is not None else link
    return format_html('<code class="entry-link">{}</code>', url)
