"""Two records of one person: a club's director merges them (every row follows, with an audit row) and may undo the
merge (everything goes back exactly); ratings are replayed so the merged record counts each match once."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Q

from common.actor import Actor
from common.errors import ApplicationError
from games.models import Match, MatchAnalysis, Player, PlayerAnalysis
from tests.tournaments.services.support import play_out, snapshot
from tournaments import services
from tournaments.models import Club, Division, Entry, PlayerMerge, Rating, RatingChange
from tournaments.selectors.seasons import season_table
from tournaments.services.merges import link_player, merge_players, undo_merge

pytestmark = pytest.mark.django_db


def night(division_of: Callable[..., Division], club: Club, director: Actor, name: str, day: int) -> Division:
    """A club night: a knockout of four, the better seed winning, played out. On night 2, "P01" is entered as a new
    person (the director said so), so that the club has two records of one man."""
    event = services.create_event(actor=director, name=name, club=club, starts_on=dt.date(2026, 11, day))
    division = division_of("single", 0, event=event, entry_mode="scoresheet", match_length=1)
    for i in range(1, 5):
        services.register_player(
            division, actor=director, name=f"P{i:02d}", rating=2010 - 10 * i, new_player=(day == 12 and i == 1)
        )
    services.start_division(division, actor=director)
    return play_out(division, director)


def references(player: Player) -> dict[str, Any]:
    """Every row that points at ``player``, per table, by id."""

    def ids(qs: Any) -> list[int]:
        return sorted(qs.values_list("pk", flat=True))

    return {
        "entries": ids(Entry.objects.filter(player=player)),
        "player1": ids(Match.objects.filter(player1=player)),
        "player2": ids(Match.objects.filter(player2=player)),
        "won": ids(Match.objects.filter(winner=player)),
        "analyses": ids(PlayerAnalysis.objects.filter(player=player)),
        "rosters": ids(player.clubs.all()),
        "ratings": list(Rating.objects.filter(player=player).values_list("rating_list_id", "rating", "matches")),
        "changes": list(
            RatingChange.objects.filter(player=player).order_by("order").values_list("match_id", "before", "after")
        ),
        "user": Player.objects.get(pk=player.pk).user_id,
    }


@pytest.fixture
def two_records(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable[[], Any]
) -> tuple[Club, Player, Player]:
    club = services.create_club(actor=as_director, name="Oslo BK")
    with committed():
        first = night(division_of, club, as_director, "Night 1", 5)
        second = night(division_of, club, as_director, "Night 2", 12)
    keep = first.entries.get(seed=1).player
    fold = second.entries.get(seed=1).player
    assert keep.pk != fold.pk and keep.display_name == fold.display_name == "P01"
    match = Match.objects.filter(winner=fold).first()
    assert match is not None
    analysis = MatchAnalysis.objects.create(match=match, status=MatchAnalysis.Status.DONE)
    for side, player in enumerate((match.player1, match.player2)):
        PlayerAnalysis.objects.create(
            analysis=analysis, side=side, player=player, unforced_moves=10, chequer_error=0.1,
            close_cube_decisions=1, cube_error=0.0, luck=0.0, pr=5.0,
        )  # fmt: skip
    return club, keep, fold


def test_a_merge_moves_every_row_and_its_undo_puts_them_back(
    two_records: tuple[Club, Player, Player], as_director: Actor, django_user_model: Any
) -> None:
    club, keep, fold = two_records
    fold.user = django_user_model.objects.create_user(username="p01", password=None)
    fold.save()
    everyone = list(Player.objects.all())
    before = {p.pk: references(p) for p in everyone}
    merge = merge_players(club, actor=as_director, keep=keep, fold=fold)

    after = references(keep)
    for key in ("entries", "player1", "player2", "won", "analyses"):
        assert after[key] == sorted(before[keep.pk][key] + before[fold.pk][key]), key
    assert after["user"] == before[fold.pk]["user"]
    assert references(fold) == {
        "entries": [], "player1": [], "player2": [], "won": [], "analyses": [], "rosters": [], "ratings": [],
        "changes": [], "user": None,
    }  # fmt: skip
    fold.refresh_from_db()
    assert fold.merged_into_id == keep.pk
    assert not club.players.filter(pk=fold.pk).exists()
    audit = PlayerMerge.objects.get()
    assert audit.merged_by_id == as_director.user.pk and audit.kept_id == keep.pk and audit.folded_id == fold.pk
    assert audit.moved["entries"] == before[fold.pk]["entries"]

    undo_merge(merge, actor=as_director)
    assert {p.pk: references(p) for p in everyone} == before
    fold.refresh_from_db()
    assert fold.merged_into_id is None
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by_id == as_director.user.pk


def test_after_a_merge_the_rating_counts_each_match_once(
    two_records: tuple[Club, Player, Player], as_director: Actor
) -> None:
    club, keep, fold = two_records
    rows = Rating.objects.filter(rating_list=club.rating_list).select_related("player")
    assert sorted((r.player.display_name, r.matches) for r in rows) == [
        ("P01", 2), ("P01", 2), ("P02", 4), ("P03", 2), ("P04", 2)
    ]  # fmt: skip
    merge_players(club, actor=as_director, keep=keep, fold=fold)
    rows = Rating.objects.filter(rating_list=club.rating_list).select_related("player")
    assert sorted((r.player.display_name, r.matches) for r in rows) == [
        ("P01", 4), ("P02", 4), ("P03", 2), ("P04", 2)
    ]  # fmt: skip
    played = Match.objects.filter(Q(player1=keep) | Q(player2=keep))
    changes = RatingChange.objects.filter(player=keep)
    assert changes.count() == played.count() == 4
    assert sorted(changes.values_list("match_id", flat=True)) == sorted(played.values_list("pk", flat=True))
    assert Rating.objects.get(player=keep).experience == 4  # four 1-point matches


def refused(call: Callable[[], Any], *words: str) -> None:
    before = snapshot(), PlayerMerge.objects.count()
    with pytest.raises(ApplicationError) as refusal:
        call()
    for word in words:
        assert word in str(refusal.value), (word, str(refusal.value))
    assert (snapshot(), PlayerMerge.objects.count()) == before, "nothing stored on a refusal"


def test_refusals_say_why_and_store_nothing(
    two_records: tuple[Club, Player, Player], as_director: Actor, division_of: Callable[..., Division]
) -> None:
    club, keep, fold = two_records
    p02 = Player.objects.get(display_name="P02")
    refused(lambda: merge_players(club, actor=as_director, keep=keep, fold=keep), "himself")
    refused(lambda: merge_players(club, actor=as_director, keep=keep, fold=p02), "both entered in single 0 of Night 1",
            "played or are entered together")  # fmt: skip
    outsider = services.create_event(actor=as_director, name="Elsewhere")
    stranger = division_of("single", 0, event=outsider)
    stranger_entry = services.register_player(stranger, actor=as_director, name="Out Sider")
    refused(
        lambda: merge_players(club, actor=as_director, keep=keep, fold=stranger_entry.player),
        "Out Sider",
        "not on Oslo BK's roster",
    )
    merge = merge_players(club, actor=as_director, keep=keep, fold=fold)
    refused(lambda: merge_players(club, actor=as_director, keep=p02, fold=fold), "already merged into")
    refused(lambda: undo_merge(merge, actor=Actor(user=None)), "log in")
    # A later merge of the kept record: undo it first.
    p05 = services.add_to_roster(club, actor=as_director, name="P05 Later", new_player=True)
    later = merge_players(club, actor=as_director, keep=p05, fold=keep)
    refused(lambda: undo_merge(merge, actor=as_director), "undo the merge of", f"#{later.pk}", "first")
    undo_merge(later, actor=as_director)
    undo_merge(merge, actor=as_director)
    refused(lambda: undo_merge(merge, actor=as_director), "undone already")


def test_linking_takes_only_a_player_apart_from_the_roster_who_was_in_the_clubs_events(
    two_records: tuple[Club, Player, Player], as_director: Actor
) -> None:
    club, keep, fold = two_records
    refused(lambda: link_player(club, actor=as_director, keep=keep, player=fold), "on Oslo BK's roster already",
            "Same person")  # fmt: skip
    nobody = Player.objects.create(display_name="P01")
    refused(lambda: link_player(club, actor=as_director, keep=keep, player=nobody), "none of Oslo BK's events")
    assert list(club.players_apart()) == []


def test_an_undo_gives_back_the_matches_made_for_his_entries_since_the_merge(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable[[], Any]
) -> None:
    club = services.create_club(actor=as_director, name="Oslo BK")
    with committed():
        first = night(division_of, club, as_director, "Night 1", 5)
    event = services.create_event(actor=as_director, name="Night 2", club=club, starts_on=dt.date(2026, 11, 12))
    second = division_of("single", 0, event=event, entry_mode="scoresheet", match_length=1)
    services.register_player(second, actor=as_director, name="P01", rating=2000, new_player=True)
    for i in range(2, 5):
        services.register_player(second, actor=as_director, name=f"P{i:02d}", rating=2010 - 10 * i)
    services.start_division(second, actor=as_director)
    keep, fold = first.entries.get(seed=1).player, second.entries.get(seed=1).player
    merge = merge_players(club, actor=as_director, keep=keep, fold=fold)
    with committed():
        play_out(second, as_director)  # his final is made after the merge, with the kept record
    final = Match.objects.filter(pairing__division=second).order_by("-pk").first()
    assert final is not None and keep.pk in (final.player1_id, final.player2_id)
    undo_merge(merge, actor=as_director)
    played = Match.objects.filter(pairing__division=second)
    assert not played.filter(Q(player1=keep) | Q(player2=keep) | Q(winner=keep)).exists()
    assert played.filter(Q(player1=fold) | Q(player2=fold)).count() == 2 and played.filter(winner=fold).count() == 2


def test_a_merge_and_its_undo_are_followed_by_the_season_table(
    two_records: tuple[Club, Player, Player], as_director: Actor, committed: Callable[[], Any]
) -> None:
    club, keep, fold = two_records
    with committed():  # its points are computed after the commit
        season = services.create_season(
            club, actor=as_director, name="Autumn", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 12, 31),
            table={"per_win": 1, "showing_up": 2},
        )  # fmt: skip

    def rows() -> dict[int, float]:
        return {row.player_id: row.points for row in season_table(season).rows}

    before = rows()
    assert keep.pk in before and fold.pk in before, "two records, two rows"
    with committed():
        merge = merge_players(club, actor=as_director, keep=keep, fold=fold)
    merged = rows()
    assert fold.pk not in merged and merged[keep.pk] == before[keep.pk] + before[fold.pk]
    with committed():
        undo_merge(merge, actor=as_director)
    assert rows() == before


@pytest.mark.parametrize("withdrawn", ["fold", "keep"])
def test_a_duplicate_withdrawn_before_it_played_is_dropped_by_the_merge_and_put_back_by_the_undo(
    two_records: tuple[Club, Player, Player],
    as_director: Actor,
    division_of: Callable[..., Division],
    withdrawn: str,
) -> None:
    club, keep, fold = two_records
    event = services.create_event(actor=as_director, name="Night 3", club=club, starts_on=dt.date(2026, 11, 19))
    third = division_of("single", 0, event=event)
    entries = {key: services.register_player(third, actor=as_director, player=p) for key, p in (("keep", keep),
               ("fold", fold))}  # fmt: skip
    services.withdraw_entry(entries[withdrawn], actor=as_director, reason="entered twice")

    def state() -> tuple[Any, ...]:  # every entry as it is, every player's rows (ratings are replayed: new ids)
        return list(Entry.objects.order_by("pk").values()), {p.pk: references(p) for p in Player.objects.all()}

    before = state()
    merge = merge_players(club, actor=as_director, keep=keep, fold=fold)
    assert list(third.entries.values_list("player_id", "status")) == [(keep.pk, Entry.Status.REGISTERED)]
    assert not Entry.objects.filter(pk=entries[withdrawn].pk).exists()
    undo_merge(merge, actor=as_director)
    assert state() == before, "the undo creates the dropped entry again, as it was"


def test_two_entries_in_one_division_refuse_the_merge_saying_how_to_drop_a_duplicate(
    two_records: tuple[Club, Player, Player], as_director: Actor, division_of: Callable[..., Division]
) -> None:
    club, keep, fold = two_records
    event = services.create_event(actor=as_director, name="Night 3", club=club, starts_on=dt.date(2026, 11, 19))
    third = division_of("single", 0, event=event)
    services.register_player(third, actor=as_director, player=keep)
    duplicate = services.register_player(third, actor=as_director, player=fold)
    how = "If one of the two entries is a duplicate made by mistake, withdraw it"
    refused(lambda: merge_players(club, actor=as_director, keep=keep, fold=fold), "both entered in single 0", how)
    services.withdraw_entry(duplicate, actor=as_director, reason="entered twice")
    Entry.objects.filter(pk=duplicate.pk).update(paid=Entry.Payment.CASH)
    refused(lambda: merge_players(club, actor=as_director, keep=keep, fold=fold), "fees refunded or unmarked")
