"""Players: made with their names checked, and two records of one person folded into one (and back)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

import pycountry
from django.db import transaction
from django.db.models import Q

from common.errors import ApplicationError, ErrorCode
from games.models import Match, Player, PlayerAnalysis


def create_player(
    *, display_name: str, club: str = "", country: str = "", contact: str = "", user: Any = None
) -> Player:
    player = _new_player(display_name=display_name, club=club, country=country, contact=contact, user=user)
    player.save(force_insert=True)
    return player


def correct_player(player_id: int, *, display_name: str, club: str, country: str) -> Player:
    """Correct a player's name, club and country (checked as a new player's are: a country is its two-letter code);
    his contact and his account are kept. Every page, print and export shows the new name from then on.

    :raises ApplicationError: what is wrong with a value (nothing written); CONFLICT for a record merged into
        another (the other is the one to correct)."""
    checked = _new_player(display_name=display_name, club=club, country=country)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if player.merged_into_id is not None:
            raise ApplicationError(
                ErrorCode.CONFLICT, f"{player.display_name} was merged into another record: correct that one"
            )
        player.display_name, player.club, player.country = checked.display_name, checked.club, checked.country
        player.save(update_fields=["display_name", "club", "country", "updated_at"])
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
    problem = country_problem(country)
    if problem is not None:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{problem} (or leave the country empty)")
    if len(contact.strip()) > 200:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "the contact has at most 200 characters")
    return Player(
        display_name=name, club=club.strip(), country=country.strip().upper(), contact=contact.strip(), user=user
    )


#: Codes ISO 3166-1 leaves to its users that federations and the EU use for a country: Kosovo.
_USER_ASSIGNED = frozenset({"XK"})
#: Codes ISO 3166-1 reserves, not assigns, and what they stand for.
_RESERVED = {"UK": "GB"}


def country_problem(text: str) -> str | None:
    """What is wrong with ``text`` as a player's country (None: nothing, or no country): it must be an ISO 3166-1
    two-letter code, in any case; a country's name or three-letter code is answered with its two-letter code."""
    text = text.strip()
    if not text or (len(text) == 2 and (text.upper() in _USER_ASSIGNED or pycountry.countries.get(alpha_2=text))):
        return None
    try:
        country = pycountry.countries.lookup(_RESERVED.get(text.upper(), text))
    except LookupError:
        return f"country {text!r} is not a country's two-letter code (ISO 3166), such as NO, GB or SE"
    return f"country {text!r} is not a two-letter code: {country.alpha_2} for {country.name}"


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


# -- two records of one person -------------------------------------------------------------------------------------

#: The games rows that point at a player, as a merge moves them: (key in the audit, model, field).
PLAYER_REFERENCES: tuple[tuple[str, Any, str], ...] = (
    ("matches_as_player1", Match, "player1"),
    ("matches_as_player2", Match, "player2"),
    ("matches_won", Match, "winner"),
    ("analyses", PlayerAnalysis, "player"),
)


def fold_player(keep: Player, fold: Player) -> dict[str, list[int]]:
    """Move every games row of ``fold`` (his matches as either player and as winner, his analysed figures, his
    account) to ``keep`` and mark ``fold`` merged into ``keep``; returns the ids that moved per table, for
    :func:`unfold_player`. Called by the app that owns the merge, inside its transaction.

    :raises ApplicationError: the two are one record, one is already merged, they played each other, or both have
        an account.
    """
    if keep.pk == fold.pk:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"{keep.label} cannot be merged with himself: choose two players"
        )
    keep, fold = _lock_players(keep.pk, fold.pk)
    for player in (keep, fold):
        if player.merged_into_id is not None:
            raise ApplicationError(
                ErrorCode.CONFLICT, f"{player.label} is already merged into #{player.merged_into_id}: merge that one"
            )
    played = Match.objects.filter(Q(player1=keep, player2=fold) | Q(player1=fold, player2=keep)).values_list(
        "pk", flat=True
    )[:1]
    if played:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{keep.label} and {fold.label} played each other (match #{played[0]}): they are two people",
        )
    if keep.user_id is not None and fold.user_id is not None:
        raise ApplicationError(
            ErrorCode.CONFLICT, f"{keep.label} and {fold.label} each have an account: two accounts are two people"
        )
    moved: dict[str, list[int]] = {}
    for key, model, field in PLAYER_REFERENCES:
        rows = model.objects.filter(**{field: fold})
        moved[key] = sorted(rows.values_list("pk", flat=True))
        rows.update(**{field: keep})
    moved["user"] = [fold.user_id] if fold.user_id is not None else []
    if fold.user_id is not None:
        Player.objects.filter(pk=fold.pk).update(user=None)
        Player.objects.filter(pk=keep.pk).update(user_id=fold.user_id)
    Player.objects.filter(pk=fold.pk).update(merged_into=keep)
    return moved


def unfold_player(keep: Player, fold: Player, moved: dict[str, list[int]], *, made_since: Collection[int] = ()) -> None:
    """Undo :func:`fold_player`: the rows it moved (``moved``) go back to ``fold``, which is a record of its own
    again. ``keep`` never played ``fold``, so in a match that moved, and in ``made_since`` (matches the caller knows
    were made for ``fold``'s side after the merge: a bracket's next match of an entry that moved), every place of
    ``keep`` is ``fold``'s (a winner written since the merge too), and so are his analysed figures there. Inside
    the caller's transaction."""
    keep, fold = _lock_players(keep.pk, fold.pk)
    if fold.merged_into_id != keep.pk:
        raise ApplicationError(ErrorCode.CONFLICT, f"{fold.label} is not merged into {keep.label}")
    matches = {*made_since}.union(*(moved.get(key, []) for key, model, _ in PLAYER_REFERENCES if model is Match))
    for field in ("player1", "player2", "winner"):
        Match.objects.filter(pk__in=matches, **{field: keep}).update(**{field: fold})
    figures = Q(pk__in=moved.get("analyses", [])) | Q(analysis__match_id__in=matches)
    PlayerAnalysis.objects.filter(figures, player=keep).update(player=fold)
    user = moved.get("user", [])
    Player.objects.filter(pk=fold.pk).update(merged_into=None)
    if user:  # the account goes back to the record it came with
        Player.objects.filter(pk=keep.pk, user_id=user[0]).update(user=None)
        Player.objects.filter(pk=fold.pk).update(user_id=user[0])


def _lock_players(*ids: int) -> tuple[Player, Player]:
    """The two players' rows, locked in id order (two merges of the same players wait for each other)."""
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    return locked[ids[0]], locked[ids[1]]
