"""Template filters of the money pages: an amount held in cents, written as the payouts write it."""

from __future__ import annotations

from django import template

from tournaments.standings.payouts import cents_text

register = template.Library()


@register.filter
def cents(value: int | None) -> str:
    """``1234`` as ``12.34`` (negative amounts with a minus sign); nothing as an empty text."""
    if value is None:
        return ""
    return f"-{cents_text(-value)}" if value < 0 else cents_text(value)
