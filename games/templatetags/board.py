"""``{% board subject ... %}``: a backgammon board as inline SVG (games/board_svg.py) in a template.

``subject`` is a :class:`~games.board_svg.BoardScene`, an engine :class:`~engine.game.GameState` (seen by match
side ``viewer``, default 0) or a bare :class:`~engine.position.Position` (the mover at the bottom). Options:
``uid`` (element ids; one per board on a page), ``names`` (a pair, match sides 0 and 1), ``caption`` (the SVG's
title), ``viewer``, ``play`` with ``play_by`` (the last play and the match side that made it).

    {% load board %}
    {% board scene uid="replay" %}
    {% board state names=names viewer=1 caption=title %}
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from engine.game import GameState
from engine.position import Position
from games.board_svg import BoardScene, render_board, scene_from_state

register = template.Library()


@register.simple_tag(name="board")
def board_tag(subject: Any, *, uid: str = "board", viewer: int = 0, **options: Any) -> SafeString:
    """Render ``subject`` as SVG; every text inside is escaped by :func:`render_board`."""
    return mark_safe(render_board(as_scene(subject, viewer=viewer, **options), uid=uid))


def as_scene(subject: Any, *, viewer: int = 0, **options: Any) -> BoardScene:
    """A scene for any of the subjects the tag accepts.

    :raises TypeError: for anything else.
    """
    if isinstance(subject, BoardScene):
        return subject
    names = tuple(options.get("names") or ("", ""))
    caption = options.get("caption", "")
    if isinstance(subject, GameState):
        return scene_from_state(
            subject,
            viewer=viewer,
            names=(str(names[0]), str(names[1])),
            play=options.get("play"),
            play_by=options.get("play_by"),
            caption=caption,
        )
    if isinstance(subject, Position):
        return BoardScene(position=subject, names=(str(names[0]), str(names[1])), caption=caption)
    raise TypeError(f"{{% board %}} draws a BoardScene, a GameState or a Position, not {type(subject).__name__}")
