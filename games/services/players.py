"""Players: made with their names checked."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from games.errors import ApplicationError, ErrorCode
from games.models import (
    Player,
)


def create_player(
    *, display_name: str, club: str = "", country: str = "", contact: str = "", user: Any = None
) -> Player:
    player = _new_player(display_name=display_name, club=club, country=country, contact=contact, user=user)
    player.save(force_insert=True)
    return player


def _new_player(*, display_name: str, club: str = "", country: str = "", contact: str = "", user: Any = None) -> Player:
    """A validated, unsaved player (what :func:`create_player` stores)."""
    for text, what in ((display_name, "a player's name"), (club, "a club's name"), (contact, "the contact")):
        _check_plain(text, what)
    name = " ".join(display_name.split())
    if not name:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a player needs a name")
    if len(name) > 100:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a player's name has at most 100 characters")
    if len(club.strip()) > 100:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a club's name has at most 100 characters")
    if len(country.strip()) not in (0, 2) or (not country.strip().isalpha() and country.strip()):
        raise ApplicationError(ErrorCode.INVALID_INPUT, "the country is a two-letter code such as NO or GB")
    if len(contact.strip()) > 200:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "the contact has at most 200 characters")
    return Player(
        display_name=name, club=club.strip(), country=country.strip().upper(), contact=contact.strip(), user=user
    )


#: Control characters no name holds (tabs and line breaks aside, which become spaces): NUL, escapes, DEL.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _check_plain(text: str, what: str) -> None:
    """Refuse a control character (PostgreSQL cannot store a NUL; the others are damage or mischief)."""
    control = _CONTROL.search(text)
    if control:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT,
            f"{what} contains the control character U+{ord(control.group()):04X} at position {control.start() + 1}: "
            "remove it",
        )


def _players_named(pairs: Sequence[tuple[str, str]], *, by_name: bool = True) -> list[tuple[Player, Player]]:
    """For each pair of names, in order, the players: for each name the one player with exactly this name, or a
    new one (two namesakes: a new player, never a guess); the same name twice is two players. A player made for
    an earlier pair counts for the later ones, as if the pairs were stored one after the other. One query for the
    players there are, one INSERT for the new ones. Not ``by_name``: no player is looked up, so each name is a new
    player (one made for an earlier pair of the same call still counts for the later ones)."""
    wanted = [tuple(" ".join(name.split()) for name in names) for names in pairs]
    found: dict[str, list[Player]] = {}
    looked_up = {text for texts in wanted for text in texts} if by_name else set()
    for player in Player.objects.filter(display_name__in=looked_up).order_by("id"):
        found.setdefault(player.display_name, []).append(player)
    new: list[Player] = []

    def made(name: str) -> Player:
        player = _new_player(display_name=name or "Unknown player")
        found.setdefault(player.display_name, []).append(player)
        new.append(player)
        return player

    chosen = []
    for names, texts in zip(pairs, wanted, strict=True):
        pair = []
        for name, text in zip(names, texts, strict=True):
            same = found.get(text, [])
            pair.append(same[0] if len(same) == 1 else made(name))
        if pair[0] is pair[1]:
            pair[1] = made(names[1])
        chosen.append((pair[0], pair[1]))
    Player.objects.bulk_create(new)
    return chosen
