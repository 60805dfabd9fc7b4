"""One truth for the words of a status: the label of each model choice is the word the pages show for it, so the
admin, the API schema's enum descriptions and ``get_FOO_display()`` say what the pages say (tournaments/pages/words.py
keeps no second table). The words are pinned here as the pages have shown them."""

from __future__ import annotations

from django.db import models
from django.utils.text import capfirst

from tournaments.models import Division, Entry, Event, Pairing, Playoff, Round
from tournaments.pages import format_words
from tournaments.pages.words import bracket_words
from tournaments.selectors.playoffs import TieView
from tournaments.standings.playoffs import Tie
from tournaments.templatetags.event_pages import other_lengths, status_words

EVENT_STATUS = {
    Event.Status.DRAFT: "in preparation",
    Event.Status.REGISTRATION: "registration open",
    Event.Status.RUNNING: "running",
    Event.Status.FINISHED: "finished",
}
DIVISION_STATUS = {
    Division.Status.REGISTRATION: "registration open",
    Division.Status.RUNNING: "in play",
    Division.Status.FINISHED: "finished",
}
ENTRY_STATUS = {
    Entry.Status.REGISTERED: "registered",
    Entry.Status.CHECKED_IN: "checked in",
    Entry.Status.WITHDRAWN: "withdrawn",
    Entry.Status.ELIMINATED: "eliminated",
}
PAIRING_STATUS = {
    Pairing.Status.WAITING: "waiting for earlier results",
    Pairing.Status.READY: "ready to play",
    Pairing.Status.PLAYING: "playing",
    Pairing.Status.FINISHED: "finished",
    Pairing.Status.BYE: "bye",
    Pairing.Status.EMPTY: "not needed",
    Pairing.Status.SKIPPED: "not needed",
}
DECISION = {
    Pairing.Decision.FORFEIT_NO_SHOW: "forfeit (no-show)",
    Pairing.Decision.FORFEIT_WITHDRAWAL: "forfeit (withdrawal)",
    Pairing.Decision.FORFEIT_PENALTY: "forfeit (penalty points past half the match length)",
    Pairing.Decision.DIRECTOR: "decided by the director",
    Pairing.Decision.DOUBLE_FORFEIT: "double forfeit (both players withdrew): nobody wins",
}
FORMAT = {
    Division.Format.SINGLE: "single elimination",
    Division.Format.MAIN_CONSOLATION: "main draw with a consolation",
    Division.Format.PROGRESSIVE: "main draw with a progressive consolation",
    Division.Format.LAST_CHANCE: "main draw, consolation and last chance",
    Division.Format.DOUBLE: "double elimination",
    Division.Format.SWISS: "Swiss",
    Division.Format.ROUND_ROBIN: "round robin",
    Division.Format.SWISS_KNOCKOUT: "Swiss into a knockout",
}
#: A bracket's heading on the pages, capitalised from its label.
BRACKET_HEADING = {
    Round.Bracket.MAIN: "Main draw",
    Round.Bracket.CONSOLATION: "Consolation",
    Round.Bracket.LAST_CHANCE: "Last chance",
    Round.Bracket.SWISS: "Swiss",
    Round.Bracket.ROUND_ROBIN: "Round robin",
}
#: A division's standings as the director's pages say them (templates/director/_standings_status.html).
STANDINGS_WORK = {
    Division.Work.CURRENT: "up to date",
    Division.Work.PENDING: "pending (being computed)",
    Division.Work.FAILED: "failed",
}
PLAYOFF_KIND = {
    Playoff.Kind.PLACES: "places that pay differently",
    Playoff.Kind.CUT: "the knockout's cut line",
    Playoff.Kind.FIRST: "first place",
}


def labels(choices: type[models.TextChoices]) -> dict[str, str]:
    return {choice.value: str(choice.label) for choice in choices}


def test_every_status_label_is_the_word_the_pages_show() -> None:
    assert labels(Event.Status) == EVENT_STATUS
    assert labels(Division.Status) == DIVISION_STATUS
    assert labels(Entry.Status) == ENTRY_STATUS
    assert labels(Pairing.Status) == PAIRING_STATUS
    assert labels(Division.Work) == STANDINGS_WORK
    for status, words in EVENT_STATUS.items():
        assert status_words(Event(status=status)) == words
    for status, words in DIVISION_STATUS.items():
        assert status_words(Division(status=status)) == words
    for status, words in ENTRY_STATUS.items():
        assert status_words(Entry(status=status)) == words


def test_every_decision_format_and_playoff_label_is_the_word_the_pages_show() -> None:
    assert {k: v for k, v in labels(Pairing.Decision).items() if k} == DECISION
    assert labels(Division.Format) == FORMAT
    assert labels(Playoff.Kind) == PLAYOFF_KIND
    for fmt, words in FORMAT.items():
        if fmt != Division.Format.SWISS_KNOCKOUT:  # its header says its rounds and its cut instead
            assert format_words(Division(format=fmt)) == words
    for kind, words in PLAYOFF_KIND.items():
        assert TieView(Tie(kind=kind, place=1, players=(1, 2)), ["A", "B"], None).kind_words == words


def test_a_bracket_heading_is_its_label_capitalised() -> None:
    for bracket, heading in BRACKET_HEADING.items():
        assert capfirst(str(Round.Bracket(bracket).label)) == heading
        assert str(bracket_words(Division(format=Division.Format.SWISS), bracket)) == heading


def test_the_summary_of_lengths_names_the_brackets_from_their_labels() -> None:
    """The director's summary of round lengths shortens the main draw to "main" and names the other brackets by
    their labels, as it always has."""
    division = Division(
        format=Division.Format.LAST_CHANCE,
        match_length=7,
        round_lengths={"main:final": 9, "consolation": 5, "last-chance:2": 3, "main:1": 7},
    )
    assert other_lengths(division) == "main final: 9 points, consolation: 5 points, last chance round 2: 3 points"
