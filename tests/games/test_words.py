"""One truth for the games' words: the labels of a match's status, of how a game ended and of what it was won as are
the words the match page and the entry page show (games/spectator.py and games/entry.py keep no second table), so the
admin, the API schema's enum descriptions and ``get_FOO_display()`` say what the pages say."""

from __future__ import annotations

from games.models import Game, Match
from games.spectator import game_lines

MATCH_STATUS = {
    Match.Status.SCHEDULED: "not started",
    Match.Status.IN_PROGRESS: "in progress",
    Match.Status.FINISHED: "finished",
    Match.Status.FORFEITED: "forfeited",
    Match.Status.VOID: "void",
}
ENDED_BY = {
    Game.EndedBy.BEAR_OFF: "borne off",
    Game.EndedBy.DROP: "double dropped",
    Game.EndedBy.RESIGNATION: "resignation accepted",
    Game.EndedBy.SCORESHEET: "scoresheet",
    Game.EndedBy.DIRECTOR: "director's decision",
    Game.EndedBy.CONCESSION: "match conceded",
}
WON_AS = {Game.Kind.SINGLE: "single", Game.Kind.GAMMON: "gammon", Game.Kind.BACKGAMMON: "backgammon"}


def test_every_label_is_the_pages_word() -> None:
    for choices, words in ((Match.Status, MATCH_STATUS), (Game.EndedBy, ENDED_BY), (Game.Kind, WON_AS)):
        assert {choice: str(choice.label) for choice in choices} == words


def test_the_games_table_shows_the_labels() -> None:
    match = Match(length=5)
    games = [
        Game(match=match, number=n, winner_side=n % 2, result_kind=kind, ended_by=ended, points=kind)
        for n, (kind, ended) in enumerate(zip(WON_AS, ENDED_BY, strict=False), start=1)
    ]
    lines = game_lines(match, games, ("Ann", "Bob"))
    assert [(line.result, line.ended_by) for line in lines] == [
        ("single", "borne off"), ("gammon", "double dropped"), ("backgammon", "resignation accepted"),
    ]  # fmt: skip
