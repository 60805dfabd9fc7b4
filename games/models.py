"""Players, matches to N points, their games and the append-only action log.

The log (:class:`Action`) is the source of truth. A match's score, status and engine state, and each game's
result, are caches written in the same transaction as the log row that changed them, and can be rebuilt by
replaying the log through ``engine/`` (``games.services.rebuild_match``). Every write goes through
``games.services`` (docs/ARCHITECTURE.md, "Where things go").

Sides: a match's ``player1`` is side 0 (the left column of a .mat file, gnubg's player 0), ``player2`` side 1.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy, pgettext_lazy

from engine.variants import VARIANTS

#: The most games one match holds: every match to N points fits (at most 2N - 1 = 197 games at 99 points, every
#: game a single), and so does a money session of an evening or a weekend; a longer session is a new match.
MATCH_MAX_GAMES = 200
#: The most actions one match's log holds: 200 games of about 100 actions (the longest real game logs hold about
#: 100; a 17-point match about 1,400). At the limit only a director's closing actions and corrections are taken.
MATCH_MAX_ACTIONS = 20_000


class Player(models.Model):
    """A person who plays. Names need not be unique: club, country and the id tell two players apart."""

    display_name = models.CharField(max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    club = models.CharField(max_length=100, blank=True)
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166 alpha-2 code")
    contact = models.CharField(max_length=200, blank=True, help_text="e-mail or phone; never shown publicly")
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_records",
        help_text="the record this one was found to be the same person as (its rows moved there; hidden from lists)",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["display_name", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(display_name=""), name="player_name_not_empty"),
            models.CheckConstraint(condition=~Q(merged_into=models.F("id")), name="player_not_merged_into_itself"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def name_and_where(self) -> tuple[str, str]:
        """The name and what the pages show beside it, the club and the country (``("Anna Berg", "Oslo BK, NO")``),
        each said once: a namesake told apart by his club in his name ("Pia Ruud (Bergen BG)") is shown as
        ``("Pia Ruud", "Bergen BG, NO")``, not with his club twice."""
        name, where = self.display_name, ", ".join(x for x in (self.club, self.country) if x)
        said = f" ({self.club})"
        if self.club and name.endswith(said) and len(name) > len(said):
            name = name.removesuffix(said)
        return name, where

    @property
    def shown_name(self) -> str:
        """The name with what tells namesakes apart, as the directors' pages and the prints show it:
        ``Pia Ruud (Bergen BG, NO)``."""
        name, where = self.name_and_where
        return f"{name} ({where})" if where else name

    @property
    def label(self) -> str:
        """:attr:`shown_name` with the player's id: ``Anna Berg (Oslo BK, NO) #12``."""
        return f"{self.shown_name} #{self.pk}"


class Match(models.Model):
    """A match to ``length`` points (0 = an unlimited money session) between two players."""

    class Status(models.TextChoices):
        """A match's state, labelled in the words its pages show."""

        SCHEDULED = "scheduled", gettext_lazy("not started")
        IN_PROGRESS = "in_progress", gettext_lazy("in progress")
        FINISHED = "finished", gettext_lazy("finished")
        FORFEITED = "forfeited", gettext_lazy("forfeited")
        VOID = "void", gettext_lazy("void")

    class EntryMode(models.TextChoices):
        MOVES = "moves", "move by move"
        SCORESHEET = "scoresheet", "game results only"

    player1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="matches_as_player1")
    player2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="matches_as_player2")
    length = models.PositiveSmallIntegerField(help_text="points to win; 0 for money play")
    variant = models.CharField(max_length=32, choices=[(v, v) for v in VARIANTS], default="standard")
    crawford = models.BooleanField(default=True, help_text="the Crawford rule is in force")
    casual = models.BooleanField(
        default=False, help_text="no doubling cube and no gammons: every game is worth one point"
    )
    entry_mode = models.CharField(max_length=16, choices=EntryMode.choices, default=EntryMode.MOVES)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    private = models.BooleanField(default=False, help_text="hidden from spectators")
    score1 = models.PositiveIntegerField(default=0)
    score2 = models.PositiveIntegerField(default=0)
    # The winner's and the creator's indexes leave out the matches without one (every match not over; every match
    # of a draw): a round robin's start writes 100,000 matches and more.
    winner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_won", db_index=False
    )
    seq = models.PositiveIntegerField(default=0, help_text="sequence number of the last action in the log")
    state = models.TextField(blank=True, help_text="engine snapshot after the last action (a cache)")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=200, blank=True, help_text="where an imported match came from")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(condition=~Q(player1=models.F("player2")), name="match_two_players"),
            models.CheckConstraint(condition=Q(length__lte=99), name="match_length_at_most_99"),
        ]
        indexes = [
            models.Index(fields=["status"]),
            models.Index(fields=["winner"], condition=Q(winner__isnull=False), name="match_winner"),
            models.Index(fields=["created_by"], condition=Q(created_by__isnull=False), name="match_created_by"),
        ]

    def __str__(self) -> str:
        length = "money" if self.length == 0 else f"{self.length}-point"
        return f"{self.player1} vs {self.player2} ({length} #{self.pk})"

    def player(self, side: int) -> Player:
        return self.player1 if side == 0 else self.player2

    @property
    def score(self) -> tuple[int, int]:
        return self.score1, self.score2


class Game(models.Model):
    """One game of a match: its starting score, the Crawford flag, and (once over) how it ended."""

    class EndedBy(models.TextChoices):
        """How a game ended, labelled in the words the match and entry pages show (the only table of them)."""

        BEAR_OFF = "bear-off", gettext_lazy("borne off")
        DROP = "drop", gettext_lazy("double dropped")
        RESIGNATION = "resignation", gettext_lazy("resignation accepted")
        SCORESHEET = "scoresheet", gettext_lazy("scoresheet")
        DIRECTOR = "director", gettext_lazy("director's decision")
        CONCESSION = "concession", gettext_lazy("match conceded")

    class Kind(models.IntegerChoices):
        """What a game was won as, labelled as the pages say it."""

        SINGLE = 1, pgettext_lazy("game won as", "single")
        GAMMON = 2, pgettext_lazy("game won as", "gammon")
        BACKGAMMON = 3, pgettext_lazy("game won as", "backgammon")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    start_score1 = models.PositiveIntegerField(default=0)
    start_score2 = models.PositiveIntegerField(default=0)
    crawford = models.BooleanField(default=False, help_text="this is the Crawford game")
    opening_winner = models.PositiveSmallIntegerField(null=True, blank=True, help_text="side that moved first")
    winner_side = models.PositiveSmallIntegerField(null=True, blank=True)
    result_kind = models.PositiveSmallIntegerField(choices=Kind.choices, null=True, blank=True)
    ended_by = models.CharField(max_length=16, choices=EndedBy.choices, blank=True)
    cube_value = models.PositiveIntegerField(default=1)
    cube_owner = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique_per_match"),
            models.CheckConstraint(
                condition=Q(winner_side__in=[0, 1]) | Q(winner_side__isnull=True), name="game_winner_side"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of match {self.match_id}"


class EntryToken(models.Model):
    """A per-side entry link for one match: whoever holds it may act for that side only. Revocable.

    The token text is signed from ``nonce`` with the site's secret key, so a director can print it again at any
    time; revoking clears the row's validity and a new row (new nonce) gives a new link.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entry_tokens")
    side = models.PositiveSmallIntegerField()
    nonce = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    phone = models.CharField(
        max_length=64, blank=True, help_text="the phone (a browser's random id) that opened the link first; only it may"
    )

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(side__in=[0, 1]), name="entry_token_side")]

    def __str__(self) -> str:
        return f"entry link for side {self.side} of match {self.match_id}"


class Action(models.Model):
    """One row of a match's append-only log. Corrections are new rows that name what they undo and why."""

    class Kind(models.TextChoices):
        OPENING_ROLL = "opening-roll"
        ROLL = "roll"
        PLAY = "play"
        CHOOSE_DOUBLE = "choose-double"
        DOUBLE = "double"
        TAKE = "take"
        DROP = "drop"
        RESIGN = "resign"
        ACCEPT_RESIGNATION = "accept-resignation"
        REJECT_RESIGNATION = "reject-resignation"
        GAME_RESULT = "game-result"
        CONCEDE_MATCH = "concede-match"
        PENALTY = "penalty"
        CORRECTION = "correction"
        FORFEIT = "forfeit"
        VOID = "void"
        FINISH = "finish"

    # No index of its own: the (match, seq) and (match, game_number, seq) indexes below both begin with the match.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    game_number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=24, choices=Kind.choices)
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    die1 = models.PositiveSmallIntegerField(null=True, blank=True)
    die2 = models.PositiveSmallIntegerField(null=True, blank=True)
    play = models.CharField(max_length=100, blank=True, help_text="canonical notation (gnubg style)")
    steps = models.CharField(max_length=100, blank=True, help_text="the play as .mat sub-moves, in play order")
    value = models.PositiveIntegerField(
        null=True, blank=True, help_text="cube value offered; result kind; chosen double; result cube value"
    )
    data = models.JSONField(
        default=dict, blank=True, help_text="what else the action says: a result's kind, cube and cause; a replacement"
    )
    position_id = models.CharField(max_length=200, blank=True, help_text="position after the action")
    match_id_after = models.CharField(max_length=12, blank=True, help_text="GNU Backgammon Match ID after it")
    undoes = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by")
    reason = models.TextField(blank=True)
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_by_token = models.ForeignKey(EntryToken, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # NULL (not "") for "no key", so that the partial unique constraint below ignores rows without one.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    request_digest = models.CharField(
        max_length=64, blank=True, help_text="who sent the keyed request and what it asked: a retry must match it"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="action_seq_unique_per_match"),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="action_idempotency_key_unique_per_match",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="action_seq_positive"),
            models.CheckConstraint(
                condition=(Q(die1__gte=1) & Q(die1__lte=6)) | Q(die1__isnull=True), name="action_die1_range"
            ),
            models.CheckConstraint(
                condition=(Q(die2__gte=1) & Q(die2__lte=6)) | Q(die2__isnull=True), name="action_die2_range"
            ),
            models.CheckConstraint(condition=Q(side__in=[0, 1]) | Q(side__isnull=True), name="action_side"),
        ]
        indexes = [
            # The pages read a match's log a game at a time, and its cube history from the cube's rows alone.
            models.Index(fields=["match", "game_number", "seq"], name="action_match_game_seq"),
            models.Index(
                fields=["match", "seq"],
                condition=Q(kind__in=["double", "take", "drop", "correction"]),
                name="action_cube_rows",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} (match {self.match_id})"


class CorrectionRequest(models.Model):
    """A player asks to undo an entry of his that his opponent has since entered past (a take-back is too late):
    the opponent accepts or refuses it on his phone, or a director decides. Accepted, the entry and everything
    after it are undone, each by a correction row of the log (games.services.answer_correction)."""

    class Status(models.TextChoices):
        OPEN = "open", "waiting for an answer"
        ACCEPTED = "accepted"
        REFUSED = "refused"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="correction_requests")
    side = models.PositiveSmallIntegerField(help_text="the side asking")
    undoes = models.ForeignKey(Action, on_delete=models.PROTECT, related_name="+", help_text="his entry to undo")
    reason = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    asked_by_token = models.ForeignKey(EntryToken, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    answered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_by_token = models.ForeignKey(
        EntryToken, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    # The asking form's key: the same form sent again (its answer lost on the way) finds this request, whatever
    # became of it since. NULL (not "") for "no key", as Action.idempotency_key.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=Q(status="open"), name="one_open_correction_request_per_match"
            ),
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="correction_request_idempotency_key_unique_per_match",
            ),
            models.CheckConstraint(condition=Q(side__in=[0, 1]), name="correction_request_side"),
        ]

    def __str__(self) -> str:
        return f"correction asked by side {self.side} of match {self.match_id}"


class MatchAnalysis(models.Model):
    """GNU Backgammon's analysis of a match (games/analysis): its state, and once done, what it found.

    ``match_seq`` is the log's sequence number that was analysed: a correction moves the match past it, and the
    analysis is redone. ``status`` ``unavailable`` means it cannot be done here (gnubg missing, a variant gnubg
    does not play), ``failed`` that gnubg crashed or hung on every attempt; ``error`` says which.

    ``format_version`` is the version of the way the figures were computed and stored (:data:`FORMAT_VERSION`); an
    analysis done in an older one is out of date: it counts nowhere and is redone (games.analysis.service).
    """

    #: The version of the stored figures. 1: before the versions were numbered, with the cube decisions' equities
    #: as gnubg's match winning chances and a player's cube error gnubg's average per decision; 2: the cube
    #: equities normalised at the decision's score and cube, the cube error gnubg's total, and the cube decision
    #: before each play stored with it; 3: each decision's evaluation kept as an SGF file carries it (the two best
    #: plays and the one played with their probabilities, the cube decision's probabilities and equities). Bump it
    #: whenever what is stored of gnubg's answer changes.
    FORMAT_VERSION = 3

    class Status(models.TextChoices):
        PENDING = "pending"
        DONE = "done"
        FAILED = "failed"
        UNAVAILABLE = "unavailable"

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    plies = models.PositiveSmallIntegerField(default=0)
    engine = models.CharField(max_length=100, blank=True, help_text="the gnubg version that analysed it")
    match_seq = models.PositiveIntegerField(default=0, help_text="the log's seq that was analysed")
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    requested_at = models.DateTimeField(auto_now_add=True)
    requested_plies = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="while pending: the depth asked for (a new request replaces it)"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    seconds = models.FloatField(null=True, blank=True, help_text="how long gnubg took")
    format_version = models.PositiveSmallIntegerField(
        default=1, help_text="the version of the stored figures (FORMAT_VERSION when up to date)"
    )

    class Meta:
        verbose_name_plural = "match analyses"
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status})"


class PlayerAnalysis(models.Model):
    """One player's figures in a match's analysis, as gnubg reports them (errors and luck normalised, EMG).

    ``pr`` = 500 x (chequer_error + cube_error) / (unforced_moves + close_cube_decisions), 0 without decisions.
    """

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="players")
    side = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="analyses")
    unforced_moves = models.PositiveIntegerField()
    chequer_error = models.FloatField()
    close_cube_decisions = models.PositiveIntegerField()
    cube_error = models.FloatField()
    luck = models.FloatField()
    pr = models.FloatField()

    class Meta:
        ordering = ["analysis", "side"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "side"], name="player_analysis_one_per_side"),
            models.CheckConstraint(condition=Q(side__in=[0, 1]), name="player_analysis_side"),
        ]

    def __str__(self) -> str:
        return f"PR {self.pr:.2f} of {self.player_id} in match analysis {self.analysis_id}"

    @property
    def decisions(self) -> int:
        return self.unforced_moves + self.close_cube_decisions


class Decision(models.Model):
    """One analysed decision: a chequer play (``move``) or a cube action (``double``, ``take``, ``drop``).

    ``turn`` counts gnubg's records within the game from 0; ``move_number`` counts the chequer plays of the game
    from 1 (the n-th play of the game's log). Equities are gnubg's normalised ones (EMG), from the decider's side.
    A cube action's ``best`` is the right cube action ("double, take"); a chequer play carries the cube decision
    before it (not doubling) in ``cube_equity_lost`` and ``cube_best``.
    """

    class Kind(models.TextChoices):
        MOVE = "move"
        DOUBLE = "double"
        TAKE = "take"
        DROP = "drop"

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="decisions")
    game_number = models.PositiveSmallIntegerField()
    turn = models.PositiveIntegerField()
    move_number = models.PositiveIntegerField(null=True, blank=True)
    side = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    die1 = models.PositiveSmallIntegerField(null=True, blank=True)
    die2 = models.PositiveSmallIntegerField(null=True, blank=True)
    played = models.CharField(max_length=100, blank=True)
    best = models.CharField(max_length=100, blank=True)
    played_equity = models.FloatField(null=True, blank=True)
    best_equity = models.FloatField(null=True, blank=True)
    equity_lost = models.FloatField(default=0.0)
    mark = models.CharField(max_length=16, blank=True, help_text="gnubg's mark of the play: doubtful, bad, very bad")
    cube_mark = models.CharField(max_length=16, blank=True, help_text="gnubg's mark of the cube decision before it")
    cube_equity_lost = models.FloatField(default=0.0, help_text="the equity the cube decision before the play lost")
    cube_best = models.CharField(max_length=32, blank=True, help_text="the right cube action before the play")
    luck = models.FloatField(null=True, blank=True, help_text="the luck of the roll")
    luck_mark = models.CharField(max_length=16, blank=True)
    evaluation = models.JSONField(
        default=dict,
        blank=True,
        help_text="gnubg's evaluation as an SGF file carries it: the candidate plays (best, played) with their "
        "probabilities and equities, and the cube decision's probabilities and cubeful equities",
    )

    class Meta:
        ordering = ["analysis", "game_number", "turn"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "game_number", "turn"], name="decision_unique_turn"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.turn} of game {self.game_number} ({self.mark or 'unmarked'})"
