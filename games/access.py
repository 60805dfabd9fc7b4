"""Who may do what to a match (docs/ARCHITECTURE.md, "The rooms of each app").

Writes: the match's two players, each for its own side only (through their account or a per-side entry token),
the match's directors (the user who created it, and whoever a registered director check accepts: tournaments/
registers one for the directors of the event the match belongs to), and staff. Reads: everyone, unless the match
is private. Entry tokens are signed from a per-row nonce; revoking one makes its link useless.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.core import signing
from django.utils import timezone

from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from games.hooks import DIRECTOR_CHECKS
from games.models import EntryToken, Match

_SALT = "games.entry-token"


#: What a link that opens nothing answers (a typo, a forged or a revoked link alike: a guesser learns nothing).
INVALID_LINK = (
    "this entry link is not valid: typed from a slip, check every character, or scan the slip's QR code instead; "
    "otherwise it may have been replaced by a new one"
)


def is_director(user: Any, match: Match) -> bool:
    """Staff, the match's creator, or a director accepted by a registered check (games.hooks.DIRECTOR_CHECKS)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or (match.created_by_id is not None and match.created_by_id == user.pk):
        return True
    return any(check(user, match) for check in DIRECTOR_CHECKS)


def directs_beyond_creation(user: Any, match: Match) -> bool:
    """Staff, or a director accepted by a registered check (the directors of an event the match belongs to): not
    merely the user who created or imported the match."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or any(check(user, match) for check in DIRECTOR_CHECKS)


def sides_of(actor: Actor, match: Match) -> set[int]:
    """The sides ``actor`` may act for as a player."""
    if actor.token is not None:
        return {actor.token.side} if actor.token.match_id == match.pk and actor.token.revoked_at is None else set()
    user = actor.user
    if user is None or not user.is_authenticated:
        return set()
    sides = set()
    for side, player in ((0, match.player1), (1, match.player2)):
        if player.user_id is not None and player.user_id == user.pk:
            sides.add(side)
    return sides


def check_can_act(actor: Actor, match: Match, side: int | None, *, director_only: bool = False) -> None:
    """Raise unless ``actor`` may write to ``match`` for ``side`` (None: an action of no side, directors only).

    :raises ApplicationError: NOT_AUTHENTICATED for nobody; NOT_FOUND for a private match the actor may not even
        read (every route of it answers as its page does, so its existence does not leak); FORBIDDEN for the wrong
        person or side.
    """
    if actor is SYSTEM:
        return
    if not actor.is_authenticated:
        raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, "log in or use your entry link to record actions")
    if actor.token is not None and not EntryToken.objects.filter(pk=actor.token.pk, revoked_at__isnull=True).exists():
        raise ApplicationError(ErrorCode.FORBIDDEN, INVALID_LINK)
    allowed = sides_of(actor, match)
    if side is not None and not director_only and side in allowed:
        return  # a player for his own side: decided without asking the director checks (no query)
    if actor.token is None and is_director(actor.user, match):
        return
    if not may_read(actor, match):
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no match {match.pk}")
    if director_only:
        raise ApplicationError(ErrorCode.FORBIDDEN, "only a director of this match can do that")
    if side is None:
        raise ApplicationError(ErrorCode.FORBIDDEN, "you are not a player or a director of this match")
    if allowed:
        raise ApplicationError(
            ErrorCode.FORBIDDEN, f"you can act only for {match.player(next(iter(allowed))).display_name}"
        )
    raise ApplicationError(ErrorCode.FORBIDDEN, "you are not a player or a director of this match")


def may_read(actor: Actor, match: Match) -> bool:
    """Whether ``actor`` may read ``match``: a public one, or a private one it plays, directs or holds a link of."""
    if actor.token is not None and actor.token.match_id == match.pk:
        return True
    return can_read(actor.user, match)


def can_read(user: Any, match: Match) -> bool:
    if not match.private:
        return True
    return is_director(user, match) or bool(sides_of(Actor(user=user), match))


# -- entry tokens ----------------------------------------------------------------------------------------------------


def token_text(token: EntryToken) -> str:
    """The secret text of an entry link (signed; contains no player data)."""
    return signing.Signer(salt=_SALT).sign(f"{token.match_id}.{token.side}.{token.nonce}")


def new_entry_token(match: Match, side: int) -> EntryToken:
    """Create a fresh entry token for ``side`` (older ones stay valid until revoked)."""
    return EntryToken.objects.create(match=match, side=side, nonce=secrets.token_urlsafe(18))


def revoked_entry_token(match: Match, side: int) -> EntryToken:
    """An unsaved entry link of ``side``, revoked from the start: it opens nothing, but a restored log's rows can
    still say that this side's link entered them."""
    return EntryToken(match=match, side=side, nonce=secrets.token_urlsafe(18), revoked_at=timezone.now())


def new_entry_tokens(matches: Iterable[Match]) -> list[tuple[EntryToken, EntryToken]]:
    """:func:`new_entry_token` for both sides of every match of ``matches``, in one INSERT: each match's pair of
    tokens (side 0, side 1), in the order of ``matches``."""
    tokens = [EntryToken(match=m, side=side, nonce=secrets.token_urlsafe(18)) for m in matches for side in (0, 1)]
    EntryToken.objects.bulk_create(tokens)
    return list(zip(tokens[::2], tokens[1::2], strict=True))


def revoke_entry_token(token: EntryToken) -> None:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])


def claim_entry_token(token: EntryToken, phone: str) -> None:
    """Bind a link to the phone that opens it first (``phone``: a random id its browser keeps): an entry link
    belongs to one phone at a time. Another phone is refused; the director reissues the link
    (:func:`reissue_entry_token`) for a player who changed phones.

    :raises ApplicationError: FORBIDDEN when another phone holds the link.
    """
    if token.phone == phone:
        return
    if not token.phone:
        EntryToken.objects.filter(pk=token.pk, phone="").update(phone=phone)
        token.refresh_from_db(fields=["phone"])
        if token.phone == phone:
            return
    raise ApplicationError(
        ErrorCode.FORBIDDEN,
        "This entry link is already open on another phone. Ask the director for a new link: it signs the other "
        "phone out.",
    )


def take_entry_token(match: Match, side: int, *, phone: str, held: Iterable[EntryToken]) -> EntryToken:
    """The entry link of ``side`` of ``match`` for the phone ``phone`` that holds a live link of an earlier match of
    the same player (``held``: the links its browser keeps): his next match is entered from "Your next match" in
    one tap, without a new slip. The side's newest live link is taken (the one its slip prints; one is made if the
    side has none) and bound to this phone as :func:`claim_entry_token` binds an opened link: a link another phone
    holds stays refused, and the printed slip opens only on the phone that took it.

    :raises ApplicationError: FORBIDDEN when the phone holds no live link of the side's player bound to it, or
        another phone holds the side's link.
    """
    player_id = match.player1_id if side == 0 else match.player2_id
    earlier = [
        t
        for t in held
        if t.revoked_at is None
        and t.phone
        and t.phone == phone
        and (t.match.player1_id if t.side == 0 else t.match.player2_id) == player_id
    ]
    if not earlier:
        raise ApplicationError(
            ErrorCode.FORBIDDEN,
            "This phone holds no entry link of this player: open the entry link on your slip (scan its QR code).",
        )
    token = EntryToken.objects.filter(match=match, side=side, revoked_at__isnull=True).order_by("-pk").first()
    if token is None:
        token = new_entry_token(match, side)
    claim_entry_token(token, phone)
    return token


def reissue_entry_token(match: Match, side: int) -> EntryToken:
    """A new entry link for ``side`` in one step: every live link of that side is revoked (the phones holding them
    are signed out) and a fresh one is made."""
    EntryToken.objects.filter(match=match, side=side, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return new_entry_token(match, side)


def access_api_entry_token(text: str) -> EntryToken:
    """The live token of an ``X-Entry-Token`` header: as :func:`access_entry_token`, and refused once a phone has
    opened the link (:func:`claim_entry_token`), so that whoever photographs a slip cannot play for its player
    through the API. An app gets a link of its own from the director and never opens it in a browser.

    :raises ApplicationError: FORBIDDEN, as :func:`access_entry_token`, or for a link a phone holds.
    """
    token = access_entry_token(text)
    if token.phone:
        raise ApplicationError(
            ErrorCode.FORBIDDEN,
            "this entry link is open on a phone, so it cannot be sent as X-Entry-Token: an app needs an entry link "
            "of its own (ask the director for a new one and do not open it in a browser)",
        )
    return token


def access_entry_token(text: str) -> EntryToken:
    """The live token a link's text stands for.

    :raises ApplicationError: FORBIDDEN for a forged, malformed or revoked token (the same message for all, so a
        guesser learns nothing).
    """
    refused = ApplicationError(ErrorCode.FORBIDDEN, INVALID_LINK)
    try:
        value = signing.Signer(salt=_SALT).unsign(text.strip())
        match_id, side, nonce = value.split(".", 2)
    except (signing.BadSignature, ValueError):
        raise refused from None
    token = EntryToken.objects.filter(nonce=nonce, match_id=int(match_id), side=int(side)).first()
    if token is None or token.revoked_at is not None:
        raise refused
    return token
