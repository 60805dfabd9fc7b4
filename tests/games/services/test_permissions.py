"""Who may write (games.access through the services): players for their own side, per-side entry tokens for their
side of their match, directors (the creator, staff, registered director checks) for either side and corrections;
anonymous actors must authenticate; refusals write nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core import signing

from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from games import access, services
from games.hooks import DIRECTOR_CHECKS
from games.models import Action, EntryToken, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def event_director(django_user_model) -> Iterator[object]:
    """A user whom a registered director check (as tournaments/ registers one) accepts for every match."""
    eve = django_user_model.objects.create_user(username="eve", password=None)

    def check(user, match) -> bool:
        return user.pk == eve.pk

    DIRECTOR_CHECKS.append(check)
    try:
        yield eve
    finally:
        DIRECTOR_CHECKS.remove(check)


def test_the_director_check_is_cleaned_up() -> None:
    # Outside the fixture only the check tournaments/ registers at start-up remains (event directors).
    assert [f"{c.__module__}.{c.__name__}" for c in DIRECTOR_CHECKS] == ["tournaments.access.directs_match"]


@pytest.fixture
def actors(cast, new_match, event_director) -> Callable[[str, Match], Actor]:
    def actor(name: str, match: Match) -> Actor:
        if "token" in name:
            side = int(name[-1])
            if "other" in name:
                other = new_match()
                return Actor(token=access.new_entry_token(other, side))
            token = access.new_entry_token(match, side)
            if "revoked" in name:
                access.revoke_entry_token(token)
            return Actor(token=token)
        return {
            "alice": cast.as_alice,
            "bob": cast.as_bob,
            "director": cast.as_director,
            "staff": cast.as_staff,
            "event director": Actor(user=event_director),
            "stranger": cast.as_stranger,
            "nobody": Actor(),
            "anonymous user": Actor(user=AnonymousUser()),
        }[name]

    return actor


OK = None
NOT_AUTH = (ErrorCode.NOT_AUTHENTICATED, "log in")
NOT_PLAYER = (ErrorCode.FORBIDDEN, "not a player or a director")
ONLY_ALICE = (ErrorCode.FORBIDDEN, "only for Alice")
ONLY_BOB = (ErrorCode.FORBIDDEN, "only for Bob")
DIRECTORS = (ErrorCode.FORBIDDEN, "only a director")
REVOKED = (ErrorCode.FORBIDDEN, "not valid")

# actor -> (expected for side 0, expected for side 1)
PLAYER_MATRIX = {
    "alice": (OK, ONLY_ALICE),
    "bob": (ONLY_BOB, OK),
    "token side 0": (OK, ONLY_ALICE),
    "token side 1": (ONLY_BOB, OK),
    "revoked token side 0": (REVOKED, REVOKED),
    "other match token side 0": (NOT_PLAYER, NOT_PLAYER),
    "director": (OK, OK),
    "staff": (OK, OK),
    "event director": (OK, OK),
    "stranger": (NOT_PLAYER, NOT_PLAYER),
    "nobody": (NOT_AUTH, NOT_AUTH),
    "anonymous user": (NOT_AUTH, NOT_AUTH),
}


@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("who", list(PLAYER_MATRIX))
def test_who_may_act_for_which_side(new_match, actors, refused, who: str, side: int) -> None:
    match = new_match()
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)
    actor = actors(who, match)
    expected = PLAYER_MATRIX[who][side]
    # Either player may offer to resign now, so the engine accepts both sides: only access decides.
    if expected is OK:
        r = services.offer_resignation(match.pk, actor=actor, side=side, kind=1, expected_seq=2)
        assert r.action.side == side and r.match.seq == 3
        assert r.action.entered_by_token == actor.token
        assert r.action.entered_by_user == (actor.user if actor.token is None else None)
    else:
        code, word = expected
        with refused(match, code, word):
            services.offer_resignation(match.pk, actor=actor, side=side, kind=1, expected_seq=2)


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("alice", 0),
        ("bob", 0),
        ("token side 1", 0),
        ("director", 0),
        ("revoked token side 0", REVOKED),
        ("other match token side 0", NOT_PLAYER),
        ("stranger", NOT_PLAYER),
        ("nobody", NOT_AUTH),
    ],
)
def test_either_player_may_enter_the_opening_roll(new_match, actors, refused, who: str, expected) -> None:
    match = new_match()
    actor = actors(who, match)
    if expected == 0:
        r = services.record_opening_roll(match.pk, actor=actor, dice=(5, 2), expected_seq=0)
        assert r.action.side == 0  # the higher die, whoever entered it
    else:
        code, word = expected
        with refused(match, code, word):
            services.record_opening_roll(match.pk, actor=actor, dice=(5, 2), expected_seq=0)


# -- director actions --------------------------------------------------------------------------------------------


def _closed_scoresheet(new_match) -> Match:
    match = new_match(length=1, entry_mode="scoresheet")
    services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, expected_seq=0)
    return match


DIRECTOR_ACTIONS: dict[str, tuple[Callable[..., Match], Callable[[Match, Actor], object]]] = {
    "undo": (
        lambda new_match: _opened(new_match()),
        lambda m, a: services.undo_last_action(m.pk, actor=a, reason="r"),
    ),
    "forfeit": (
        lambda new_match: new_match(),
        lambda m, a: services.forfeit_match(m.pk, actor=a, loser_side=0, reason="no-show"),
    ),
    "void": (
        lambda new_match: new_match(),
        lambda m, a: services.void_match(m.pk, actor=a, reason="r"),
    ),
    "finish": (
        lambda new_match: new_match(length=0),
        lambda m, a: services.finish_match(m.pk, actor=a, reason="closing time"),
    ),
    "replace result": (
        lambda new_match: _one_result(new_match(entry_mode="scoresheet")),
        lambda m, a: services.replace_game_result(m.pk, actor=a, game_number=1, winner=1, kind=1, reason="r"),
    ),
    "reopen": (
        _closed_scoresheet,
        lambda m, a: services.reopen_match(m.pk, actor=a, reason="r"),
    ),
    "game result in a move-by-move match": (
        lambda new_match: new_match(),
        lambda m, a: services.record_game_result(m.pk, actor=a, winner=0, kind=1, expected_seq=0),
    ),
}


def _opened(match: Match) -> Match:
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    return match


def _one_result(match: Match) -> Match:
    services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, expected_seq=0)
    return match


DIRECTOR_MATRIX = {
    "director": OK,
    "staff": OK,
    "event director": OK,
    "alice": DIRECTORS,
    "bob": DIRECTORS,
    "token side 0": DIRECTORS,
    "stranger": DIRECTORS,
    "nobody": NOT_AUTH,
}


@pytest.mark.parametrize("action", list(DIRECTOR_ACTIONS))
@pytest.mark.parametrize("who", list(DIRECTOR_MATRIX))
def test_only_directors_correct_forfeit_void_finish_and_reopen(new_match, actors, refused, who, action) -> None:
    build, call = DIRECTOR_ACTIONS[action]
    match = build(new_match)
    actor = actors(who, match)
    expected = DIRECTOR_MATRIX[who]
    if action == "game result in a move-by-move match" and who in ("alice", "bob", "token side 0"):
        expected = (ErrorCode.ILLEGAL_ACTION, "move by move")  # players pass the access check, then the mode refuses
    if action == "game result in a move-by-move match" and who == "stranger":
        expected = NOT_PLAYER  # either player may enter a result; a stranger is neither
    if expected is OK:
        r = call(match, actor)
        assert r.action.entered_by_user == actor.user
    else:
        code, word = expected
        with refused(match, code, word):
            call(match, actor)


def test_a_registered_director_check_sees_the_match_and_the_user(new_match, cast) -> None:
    seen = []

    def check(user, match) -> bool:
        seen.append((user, match.pk))
        return user.username == "stan"

    match = new_match()
    DIRECTOR_CHECKS.append(check)
    try:
        assert access.is_director(cast.stranger, match)
        services.void_match(match.pk, actor=cast.as_stranger, reason="event cancelled")
    finally:
        DIRECTOR_CHECKS.remove(check)
    assert (cast.stranger, match.pk) in seen
    assert not access.is_director(cast.stranger, match)


def test_director_rules(new_match, cast) -> None:
    match = new_match()
    assert access.is_director(cast.director, match) and access.is_director(cast.staff, match)
    for user in (cast.alice_user, cast.bob_user, cast.stranger, AnonymousUser(), None):
        assert not access.is_director(user, match)
    uncreated = services.start_match(player1=cast.alice, player2=cast.bob, length=3)
    assert not access.is_director(cast.director, uncreated) and access.is_director(cast.staff, uncreated)
    assert access.sides_of(cast.as_alice, match) == {0} and access.sides_of(cast.as_bob, match) == {1}
    assert access.sides_of(cast.as_director, match) == set() and access.sides_of(Actor(), match) == set()


# -- entry tokens ------------------------------------------------------------------------------------------------


def test_an_entry_token_text_is_signed_scoped_and_resolves_to_its_token(new_match) -> None:
    match = new_match()
    t0, t0b, t1 = access.new_entry_token(match, 0), access.new_entry_token(match, 0), access.new_entry_token(match, 1)
    texts = {access.token_text(t) for t in (t0, t0b, t1)}
    assert len(texts) == 3  # a fresh nonce each time
    for token in (t0, t0b, t1):
        text = access.token_text(token)
        assert access.token_text(token) == text  # printable again
        assert access.access_entry_token(text) == token
        assert access.access_entry_token(f"  {text}\n") == token
        assert "Alice" not in text and "Bob" not in text
        assert len(token.nonce) >= 24  # 18 random bytes, URL-safe base64


def _refused_text(text: str) -> None:
    with pytest.raises(ApplicationError) as err:
        access.access_entry_token(text)
    assert err.value.code is ErrorCode.FORBIDDEN and "not valid" in err.value.message


def test_a_tampered_forged_or_revoked_entry_token_is_refused(new_match) -> None:
    match = new_match()
    token = access.new_entry_token(match, 1)
    text = access.token_text(token)
    for i, char in enumerate(text):
        _refused_text(text[:i] + ("A" if char != "A" else "B") + text[i + 1 :])
    _refused_text(text[:-1])
    _refused_text(text.rsplit(":", 1)[0])  # the unsigned value
    _refused_text(f"{match.pk}.1.{token.nonce}:forged")
    _refused_text(signing.Signer(salt="another-salt").sign(f"{match.pk}.1.{token.nonce}"))
    _refused_text(signing.Signer(salt="games.entry-token").sign(f"{match.pk}.0.{token.nonce}"))  # other side
    _refused_text("")
    _refused_text("not a token at all")
    older = access.new_entry_token(match, 1)
    access.revoke_entry_token(token)
    access.revoke_entry_token(token)  # twice is harmless
    _refused_text(text)
    assert access.access_entry_token(access.token_text(older)) == older  # others stay valid until revoked


def test_an_actor_holding_a_revoked_token_is_refused(new_match, refused) -> None:
    match = new_match()
    token = access.new_entry_token(match, 0)
    actor = Actor(token=token)
    services.record_opening_roll(match.pk, actor=actor, dice=(3, 1), expected_seq=0)
    access.revoke_entry_token(token)
    with refused(match, *REVOKED):
        services.record_play(match.pk, actor=actor, side=0, play="8/5 6/5", expected_seq=1)


def test_a_token_revoked_while_its_holder_is_acting_is_refused(new_match, refused) -> None:
    """The service must judge a token by the database, not by the copy the caller loaded before it was revoked."""
    match = new_match()
    token = access.new_entry_token(match, 0)
    actor = Actor(token=token)  # loaded from the link, e.g. at the start of a request
    services.record_opening_roll(match.pk, actor=actor, dice=(3, 1), expected_seq=0)
    access.revoke_entry_token(EntryToken.objects.get(pk=token.pk))  # the director revokes it meanwhile
    with refused(match, *REVOKED):
        services.record_play(match.pk, actor=actor, side=0, play="8/5 6/5", expected_seq=1)


def test_entry_tokens_made_together_are_each_matchs_two_links(new_match, django_assert_num_queries) -> None:
    """``new_entry_tokens`` (the rehearsal makes a batch's links with it): one INSERT for all, each match's pair in
    order, side 0 then side 1, each a link of its side that the services accept and a fresh nonce."""
    first, second = new_match(), new_match()
    with django_assert_num_queries(1):
        made = access.new_entry_tokens([first, second])
    assert [(a.match_id, a.side, b.match_id, b.side) for a, b in made] == [
        (first.pk, 0, first.pk, 1),
        (second.pk, 0, second.pk, 1),
    ]
    tokens = [token for pair in made for token in pair]
    assert len({t.nonce for t in tokens}) == 4 and all(t.pk and t.created_at for t in tokens)
    for token in tokens:
        assert access.access_entry_token(access.token_text(token)) == token
    assert access.new_entry_tokens([]) == []


def test_a_token_for_one_match_cannot_act_on_another(new_match, refused) -> None:
    first, second = new_match(), new_match()
    actor = Actor(token=access.new_entry_token(first, 0))
    with refused(second, *NOT_PLAYER):
        services.record_opening_roll(second.pk, actor=actor, dice=(3, 1), expected_seq=0)
    services.record_opening_roll(first.pk, actor=actor, dice=(3, 1), expected_seq=0)
    services.record_opening_roll(second.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    with refused(second, ErrorCode.FORBIDDEN, "not a player or a director"):
        services.record_play(second.pk, actor=actor, side=0, play="8/5 6/5", expected_seq=1)


def test_entry_token_texts_never_appear_in_the_log(new_match, drive) -> None:
    match = new_match(length=3)
    tokens = (access.new_entry_token(match, 0), access.new_entry_token(match, 1))
    d = drive(match, seed=5, actors=(Actor(token=tokens[0]), Actor(token=tokens[1])))
    d.to_roll_phase()
    d.turns(4)
    d.to_roll_phase()
    d.resign(d.game.on_roll, 1)
    d.accept()
    rows = list(Action.objects.filter(match=match).values())
    assert rows and all(row["entered_by_token_id"] in {t.pk for t in tokens} for row in rows)
    dumped = repr(rows)
    for token in tokens:
        assert access.token_text(token) not in dumped and token.nonce not in dumped
    assert access.token_text(tokens[0]) not in repr(list(Match.objects.filter(pk=match.pk).values()))


def test_actor_descriptions(cast, new_match) -> None:
    match = new_match()
    assert Actor(token=access.new_entry_token(match, 1)).describe() == "entry link for side 1"
    assert cast.as_alice.describe() == "alice"
    assert Actor().describe() == "anonymous" and not Actor().is_authenticated
