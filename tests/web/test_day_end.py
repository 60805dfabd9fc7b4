"""The rest of a club day, a Swiss into a knockout run to its end (tests/web/swiss_knockout_day.py): a player enters
his next match from "Your next match", the per-round lengths by the names the pages use, the standings' columns and
legends, the prize column, corrections, and what the pages say once the day is over."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import SYSTEM, Actor
from games import access
from games.models import EntryToken
from tests.tournaments.services.support import director_win
from tests.web.director.support import client_for, text_of
from tests.web.swiss_knockout_day import Day, finish_the_day, swiss_knockout_day

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def day(dora: Any) -> Day:
    """The knockout drawn: Per Foss (1st in the Swiss) plays Ola Dahl in the first semi-final."""
    return swiss_knockout_day(dora)


def phone_with(day: Day, key: str, side: int, client: Client | None = None) -> Client:
    """A phone that opened the entry link of ``side`` of the pairing ``key`` (its newest live link)."""
    match = day.slot(key).match
    token = EntryToken.objects.filter(match=match, side=side, revoked_at__isnull=True).order_by("-pk").first()
    token = token or access.new_entry_token(match, side)
    client = client or Client()
    assert client.get(f"/play/{access.token_text(token)}/").status_code == 302
    return client


def swiss_key_of(day: Day, name: str) -> tuple[str, int]:
    """The key of the player's round-3 Swiss pairing and his side in it."""
    for p in day.refresh().division.pairings.filter(round__bracket="swiss", round__number=3):
        for side, entry in enumerate((p.entry_a, p.entry_b)):
            if entry is not None and entry.player.display_name == name:
                return p.key, side
    raise AssertionError(name)


# -- 20. "Your next match" enters it ---------------------------------------------------------------------------------


def test_the_phone_holding_a_players_earlier_link_enters_his_next_match_in_one_tap(day: Day) -> None:
    key, side = swiss_key_of(day, "Per Foss")
    phone = phone_with(day, key, side)
    semi = day.slot("main-1-0")
    assert semi.entry_a.player.display_name == "Per Foss"
    assert phone.get(reverse("entry:match", args=[semi.match_id])).status_code == 403  # no link of it yet
    page = phone.get(reverse("pairing_entry:next")).content.decode()
    enter = reverse("pairing_entry:enter", args=[semi.pk])
    assert f'action="{enter}"' in page and "Enter this match" in page
    answer = phone.post(enter)
    assert answer.status_code == 303 and answer["Location"] == reverse("entry:match", args=[semi.match_id])
    entry_page = phone.get(answer["Location"])
    assert entry_page.status_code == 200 and "Per Foss" in entry_page.content.decode()
    taken = EntryToken.objects.get(match=semi.match, side=0, revoked_at__isnull=True)
    assert taken.phone  # bound to this phone: the slip's link opens nowhere else now
    other = Client()
    assert other.get(f"/play/{access.token_text(taken)}/")["Location"] == reverse("entry:refused")
    again = phone.get(reverse("pairing_entry:next")).content.decode()
    assert f'href="{reverse("entry:match", args=[semi.match_id])}"' in again  # held now: a plain link


def test_your_next_match_names_the_match_the_opponent_comes_from(day: Day) -> None:
    """A tester saw "No next match yet" for a semi-final's winner while the other semi-final was played: the page
    names his next round and the match his opponent comes from, by its players."""
    key, side = swiss_key_of(day, "Per Foss")
    phone = phone_with(day, key, side)
    semi, other = day.slot("main-1-0"), day.slot("main-1-1")
    director_win(semi, semi.entry_a, day.actor)
    page = " ".join(phone.get(reverse("pairing_entry:next")).content.decode().split())
    names = f"{other.entry_a.player.display_name} v {other.entry_b.player.display_name}"
    assert f"Your next match: Knockout final, against the winner of {names}, once that match is over." in page, page
    assert "No next match yet" not in page


def test_a_phone_not_holding_the_players_earlier_link_is_refused(day: Day) -> None:
    semi = day.slot("main-1-0")
    enter = reverse("pairing_entry:enter", args=[semi.pk])
    assert Client().post(enter).status_code == 403  # no link at all
    key, side = swiss_key_of(day, "Per Foss")
    opponent = phone_with(day, key, 1 - side)  # Per Foss's round-3 opponent, not a player of the semi-final
    refused = opponent.post(enter)
    assert refused.status_code == 403 and "open the entry link on your slip" in refused.content.decode()
    assert not EntryToken.objects.filter(match=semi.match).exclude(phone="").exists()
    assert opponent.get(reverse("entry:match", args=[semi.match_id])).status_code == 403


def test_enter_this_match_keeps_the_one_phone_binding(day: Day) -> None:
    semi = day.slot("main-1-0")
    slip = phone_with(day, "main-1-0", 0)  # the printed slip opened on another phone first
    key, side = swiss_key_of(day, "Per Foss")
    phone = phone_with(day, key, side)
    refused = phone.post(reverse("pairing_entry:enter", args=[semi.pk]))
    assert refused.status_code == 403 and "already open on another phone" in refused.content.decode()
    assert phone.get(reverse("entry:match", args=[semi.match_id])).status_code == 403
    assert slip.get(reverse("entry:match", args=[semi.match_id])).status_code == 200


# -- 22. per-round lengths by the names the pages use ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "stored"),
    [
        ("knockout:final=3", {"main:final": 3}),
        ("Knockout final=3, knockout:semi-final=2", {"main:final": 3, "main:semi-final": 2}),
        ("knockout round 1=2", {"main:1": 2}),
        ("main:final=3", {"main:final": 3}),  # the stored names still work
    ],
)
def test_the_division_form_takes_the_knockouts_rounds_by_their_names_on_the_pages(
    dora: Any, rules: str, stored: dict[str, int]
) -> None:
    from tournaments import services
    from tournaments.models import Division

    event = services.create_event(actor=Actor(user=dora), name="Club day")
    form = {
        "action": "create-division",
        "create-division-name": "Open",
        "create-division-format": "swiss-knockout",
        "create-division-match_length": "1",
        "create-division-round_lengths": rules,
        "create-division-variant": "standard",
        "create-division-entry_mode": "scoresheet",
        "create-division-seeding": "rating",
        "create-division-rounds_planned": "3",
        "create-division-knockout_size": "4",
        "create-division-last_chance_places": "0",
    }
    answer = client_for(dora).post(f"/manage/{event.slug}/", form)
    assert answer.status_code == 302, text_of(answer)[-3000:]
    assert Division.objects.get(event=event).round_lengths == stored


def test_two_names_of_one_round_are_refused_with_the_reason(dora: Any) -> None:
    from common.errors import ApplicationError
    from tournaments import services

    event = services.create_event(actor=Actor(user=dora), name="Club day")
    settings = services.DivisionSettings(
        name="Open",
        format="swiss-knockout",
        rounds_planned=3,
        knockout_size=4,
        match_length=1,
        round_lengths={"knockout:final": 3, "main:final": 5},
    )
    with pytest.raises(ApplicationError, match="name the same round: keep one"):
        services.create_division(event, actor=Actor(user=dora), settings=settings)


def test_the_knockouts_final_is_played_to_its_length_and_the_header_says_so(day: Day) -> None:
    assert day.slot("main-2-0").length == 3 and day.slot("main-1-0").length == 1
    public = text_of(Client().get(f"/events/{day.event.slug}/{day.division.slug}/"))
    head = public[public.index('class="meta"') : public.index("</p>", public.index('class="meta"'))]
    assert "1-point matches; Knockout final: 3 points" in " ".join(head.split()), head
    event_page = " ".join(text_of(Client().get(f"/events/{day.event.slug}/")).split())
    assert "1-point matches; Knockout final: 3 points" in event_page


def test_a_semi_final_rule_sets_the_length_of_the_round_before_the_final() -> None:
    from tournaments.core import round_length
    from tournaments.models import Division

    division = Division(match_length=1, round_lengths={"main:semi-final": 2, "main:final": 3})
    assert round_length(division, "main", 2, semi_final=True) == 2
    assert round_length(division, "main", 3, final=True) == 3
    assert round_length(division, "main", 1) == 1


# -- 23. the final standings' columns and legend ---------------------------------------------------------------------


def standings_rows(html: str) -> dict[str, dict[str, str]]:
    """Each player's cells of the standings table, by column header: {"Per Foss": {"Pts for": "6", ...}}."""
    table = html[html.index('<table class="standings') : html.index("</table>", html.index('<table class="standings'))]
    heads = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th scope=\"col\"[^>]*>(.*?)</th>", table)]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table[table.index("<tbody>") :], flags=re.S):
        cells = [re.sub(r"<[^>]+>", " ", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)]
        cells = [" ".join(c.split()) for c in cells]
        rows[re.findall(r'class="who">([^<]+)<', row)[0]] = dict(zip(heads, cells, strict=False))
    return rows


def test_the_final_standings_points_difference_is_points_for_less_against_and_the_legends_say_so(
    day: Day, dora: Any
) -> None:
    finish_the_day(day)
    public = html.unescape(text_of(Client().get(f"/events/{day.event.slug}/{day.division.slug}/")))
    rows = standings_rows(public)
    assert rows["Per Foss"]["Pts for"] == "7" and rows["Per Foss"]["Pts against"] == "0"  # 3 Swiss, 1 + 3 knockout
    for name, cells in rows.items():
        assert int(cells["+/-"]) == int(cells["Pts for"]) - int(cells["Pts against"]), (name, cells)
    assert "points won minus points lost, over all the player's matches" in public
    assert "Pts for, Pts against and +/- count every match, the knockout's included" in public
    printed = html.unescape(
        text_of(client_for(dora).get(f"/manage/{day.event.slug}/{day.division.slug}/final-standings/"))
    )
    assert "Points difference: points won minus points lost, over all the player's matches" in printed
    assert "Buchholz: the sum of the opponents' scores" in printed
    assert "the knockout's included" in printed


# -- 24. no empty prize column in the Swiss ---------------------------------------------------------------------------


def standings_part(page: str) -> str:
    """The public division page's standings section: from its id to the section after it (the bracket, or the
    rounds; the current round comes before the standings)."""
    start = page.index('id="standings"')
    return page[start : min(i for i in (page.find('id="bracket"', start), page.find('id="rounds"', start)) if i > 0)]


def test_the_swiss_of_a_swiss_into_a_knockout_shows_no_empty_prize_column(dora: Any) -> None:
    swiss = swiss_knockout_day(dora, swiss_rounds_played=2)
    public = html.unescape(text_of(Client().get(f"/events/{swiss.event.slug}/{swiss.division.slug}/")))
    standings = standings_part(public)
    assert "the prizes are those of the places as they stand now" not in standings
    assert '<th scope="col" class="prize">' not in standings
    assert "The prizes go to the places of the final standings, decided by the knockout" in standings
    finish_the_day(swiss_knockout_day(dora))
    over = text_of(Client().get("/events/club-day-2/open/"))  # the second event of the test
    assert standings_rows(over)["Per Foss"]["Prize"] == "400.00"


# -- 26. the rest of the day -----------------------------------------------------------------------------------------


def test_the_old_phone_after_give_a_new_link_is_told_at_its_next_poll(day: Day, dora: Any) -> None:
    semi = day.slot("main-1-0")
    old_phone = phone_with(day, "main-1-0", 0)
    live = reverse("entry:live", args=[semi.match_id])
    assert 'hx-trigger="every 3s"' in old_phone.get(live).content.decode()
    form = {"action": "new-link", "new-link-side": "0"}
    manage = f"/manage/{day.event.slug}/{day.division.slug}/match/{semi.key}/"
    assert client_for(dora).post(manage, form).status_code == 302
    told = old_phone.get(live)
    assert told.status_code == 200  # swapped in by the poll, which leaves a 4xx answer unshown
    page = told.content.decode()
    assert "The director gave a new entry link for your side of this match" in page
    assert "<form" not in page and "hx-trigger" not in page
    assert (
        "The director gave a new entry link"
        in old_phone.get(reverse("entry:match", args=[semi.match_id])).content.decode()
    )
    assert Client().get(live).status_code == 403  # a phone that never held a link of it learns nothing


def test_your_next_match_at_the_end_gives_the_place_and_the_prize(day: Day) -> None:
    key, side = swiss_key_of(day, "Ane Moe")
    phone = phone_with(day, key, side)
    finish_the_day(day)
    page = " ".join(phone.get(reverse("pairing_entry:next")).content.decode().split())
    assert "Open is over: you finished 2nd, and your prize is 200.00." in page


def test_the_venue_displays_now_playing_shows_the_match_length_with_the_score(day: Day) -> None:
    day.win_round("main")  # the semi-finals: the final (3 points) is called
    display = " ".join(text_of(Client().get(f"/display/{day.event.slug}/")).split())
    # Called and not started yet: the row says so, where a match being played shows its score.
    called = '<span class="display-waits">called</span> <span class="display-length">to 3</span>'
    assert f'<td class="display-score">{called}</td>' in display


def test_one_kind_of_seed_badge_on_the_division_page_once_the_knockout_is_drawn(day: Day) -> None:
    public = text_of(Client().get(f"/events/{day.event.slug}/{day.division.slug}/"))
    standings = standings_part(public)
    assert 'class="seed"' not in standings  # the registration seeds: not beside the knockout's
    bracket = public[public.index('id="bracket"') : public.index('id="rounds"')]
    assert 'class="seed"' in bracket and "The number beside a player is his knockout seed" in bracket
    swiss = swiss_knockout_day(day.director, swiss_rounds_played=2)
    during = text_of(Client().get(f"/events/{swiss.event.slug}/{swiss.division.slug}/"))
    assert 'class="seed"' in standings_part(during)


def test_the_payouts_csv_header_is_in_the_style_of_the_other_csvs(day: Day, dora: Any) -> None:
    finish_the_day(day)
    csv_text = client_for(dora).get(f"/manage/{day.event.slug}/{day.division.slug}/payouts.csv").content.decode()
    assert csv_text.splitlines()[0] == "rank,player,place,prize"
    assert csv_text.splitlines()[1] == "1,Per Foss,1,400.00"


def test_after_the_end_the_directors_page_opens_no_round_and_gives_each_player_his_place(day: Day, dora: Any) -> None:
    finish_the_day(day)
    page = text_of(client_for(dora).get(f"/manage/{day.event.slug}/{day.division.slug}/"))
    assert '<details class="round" open>' not in page
    players = page[page.index('id="players-list"') :]
    assert "Eliminated" not in players and "eliminated" not in players
    found = re.findall(
        r'<span class="player">([^<]+)</span></th>\s*<td[^>]*>[^<]*</td>\s*<td data-label="Status">([^<:]+)</td>',
        players,
    )
    rows = dict(found)
    assert rows["Per Foss"] == "champion" and rows["Ane Moe"] == "finished 2nd", rows  # lower case, as every status
    assert rows["Kari Lund"] == "shared 3rd-4th place" and rows["Even Sand"] == "finished 8th", rows


# -- 25. after a correction ------------------------------------------------------------------------------------------


def correct_round_2_board_1(day: Day, *, override: bool) -> Any:
    """The director corrects the first board of round 2: its one game won by the other player."""
    import games.services
    from tournaments import services

    board = day.division.pairings.get(round__bracket="swiss", round__number=2, board=1)
    match = board.match
    loser_side = 1 if board.winner_id == board.entry_a_id else 0
    games.services.replace_game_result(
        match.pk,
        actor=day.actor,
        game_number=1,
        winner=loser_side,
        kind=1,
        cube_value=1,
        reason="the wrong winner was entered",
        expected_seq=match.seq,
        override=override,
    )
    services.sync_division(day.division.pk)
    services.recompute_standings(day.division.pk)
    return day.division.pairings.get(pk=board.pk)


def test_an_override_correction_is_said_on_the_division_page_its_round_pages_and_the_results_csv(dora: Any) -> None:
    import games.services

    day = swiss_knockout_day(dora, swiss_rounds_played=2)
    started = day.division.pairings.filter(round__number=3, round__bracket="swiss").order_by("board").first()
    games.services.record_opening_roll(started.match_id, actor=SYSTEM, dice=(3, 1), expected_seq=started.match.seq)
    corrected = correct_round_2_board_1(day, override=True)
    assert corrected.decision == "director"
    public = html.unescape(text_of(Client().get(f"/events/{day.event.slug}/{day.division.slug}/")))
    assert (
        "Corrected results" in public and "the director corrected the result (the wrong winner was entered)" in public
    )
    round_3 = html.unescape(text_of(Client().get(f"/events/{day.event.slug}/{day.division.slug}/rounds/swiss/3/")))
    assert "before a correction)" in round_3, round_3[round_3.index('id="round"') :][:3000]
    director = html.unescape(text_of(client_for(dora).get(f"/manage/{day.event.slug}/{day.division.slug}/")))
    assert "the director corrected the result (the wrong winner was entered)" in director
    csv_text = Client().get(f"/events/{day.event.slug}/{day.division.slug}/results.csv").content.decode()
    line = next(row for row in csv_text.splitlines() if row.startswith(f"2,swiss,{corrected.board},"))
    assert ",director," in line, line


def test_the_match_page_of_a_correction_before_the_next_round_points_to_pair_it_again(dora: Any) -> None:
    day = swiss_knockout_day(dora, swiss_rounds_played=2)
    corrected = correct_round_2_board_1(day, override=False)
    page = text_of(client_for(dora).get(f"/manage/{day.event.slug}/{day.division.slug}/match/{corrected.key}/"))
    assert 'id="repair-pointer"' in page and f"/manage/{day.event.slug}/{day.division.slug}/#repair-offer" in page
    assert "Pair the current round again" in page
