"""Filters for gnubg's figures on the pages: luck with its sign, the depth of an analysis."""

from __future__ import annotations

from django import template

from games.analysis.selectors import depth_label

register = template.Library()


@register.filter
def signed_luck(value: float | None) -> str:
    """Luck to two places with its sign: "+0.54" lucky, "-0.31" unlucky, "0.00" neither."""
    if value is None:
        return ""
    text = f"{value:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


@register.filter
def plies(value: int | None) -> str:
    """The depth of an analysis: "0-ply", "2-ply (world class)" (:func:`games.analysis.selectors.depth_label`)."""
    return "" if value is None else depth_label(value)
