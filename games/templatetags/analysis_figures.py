"""Filters for gnubg's figures on the pages: luck with its sign, the depth of an analysis, and a caution beside a
PR drawn from too few decisions."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.utils.translation import ngettext

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


@register.filter
def few_decisions(row: Any) -> str:
    """ "from 12 decisions: too few to judge a player by" when a player's figures in a match come from fewer
    decisions than a PR table asks for (``ANALYSIS_MIN_DECISIONS``), else ""."""
    decisions = row.unforced_moves + row.close_cube_decisions
    if decisions >= settings.ANALYSIS_MIN_DECISIONS:
        return ""
    return ngettext(
        "from %(n)d decision: too few to judge a player by",
        "from %(n)d decisions: too few to judge a player by",
        decisions,
    ) % {"n": decisions}
