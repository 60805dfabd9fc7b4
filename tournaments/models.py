"""Events, divisions, entries, rounds, pairings (bracket slots included), standings and ratings.

Terms
- An **event** is what a club runs on a date (a weekend tournament, a club night). Its directors are users with
  rights over this event only; a private event is hidden from spectators, and so are its matches.
- A **division** is a flight or side event within an event (Championship, Intermediate, a jackpot, a last chance
  run as its own division...). It has one format and the settings the draw, the matches and the standings need.
- An **entry** is a player in a division: seed, declared rating, status.
- A **round** groups the pairings played together: Swiss and round-robin rounds, and each round of each bracket
  (main, consolation, last chance) of an elimination division.
- A **pairing** is one board of a round. In an elimination division every slot of the bracket is a pairing from
  the draw on, with its two *sources* (a seed, the winner or loser of another pairing, an entry place) and the
  explanation of each; its players are filled in as the sources resolve. A pairing creates a games match when both
  players are known. A bye is a pairing with one player. Its *board* is its number within the round.
- A **table** is a table of the venue: the event's, one numbering for all its divisions. A pairing holds a table
  only while it is ready or being played (tournaments/services/tables.py assigns them); byes, waiting slots and
  finished matches hold none, and no two pairings ever hold the same table (a unique constraint).
- A **club** runs events week after week: its directors, its **roster** (one record per person: registering in a
  club's event finds the roster's player, tournaments/names.py) and its rating list, which its events are rated on.
- **Standings** rows are a cache computed by a task from confirmed results; **ratings** rows are a cache of a
  rating list recomputed from its history in match order.

The truth is the match log in games/ plus the director decisions recorded on pairings; everything else here
(pairing players, standings, ratings) is recomputed from them by the services in tournaments/services/.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.variants import VARIANTS
from games.models import Match, Player

FORMATS = (
    "single",
    "main-consolation",
    "progressive-consolation",
    "main-consolation-lastchance",
    "double-elimination",
    "swiss",
    "round-robin",
    "swiss-knockout",
)
ELIMINATION_FORMATS = FORMATS[:5]
#: The formats paired round by round as a Swiss (the Swiss into a knockout, before its knockout is drawn).
SWISS_FORMATS = ("swiss", "swiss-knockout")
#: The sizes of the knockout a Swiss into a knockout sends its top players into.
KNOCKOUT_SIZES = (4, 8, 16, 32)


class RatingList(models.Model):
    """A club's or organisation's rating list: FIBS ratings recomputed from the rated matches of its events."""

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100, unique=True)
    start = models.FloatField(default=1500.0, help_text="rating of a new player")
    k_factor = models.FloatField(
        null=True, blank=True, help_text="a fixed K for everyone; empty = FIBS's max(1, 5 - experience/100)"
    )
    owners = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="rating_lists")
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Club(models.Model):
    """A club: its directors, its roster of players (one record per person across its events) and its rating list.
    An event may belong to one (tournaments/services/clubs.py)."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_clubs")
    players = models.ManyToManyField(Player, blank=True, related_name="clubs", help_text="the roster")
    rating_list = models.ForeignKey(
        RatingList, null=True, blank=True, on_delete=models.SET_NULL, related_name="clubs", help_text="its events'"
    )
    public = models.BooleanField(default=True, help_text="its page is public")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def players_apart(self) -> models.QuerySet[Player]:
        """The players of the club's events who are not on its roster, not merged: the players of the matches
        imported into them (an import makes a new player of every name) and any entered before the event was the
        club's. A director links each to the roster's player he is (tournaments/services/merges.py)."""
        imported = ImportedMatch.objects.filter(event__club=self).values("match_id")
        played = Q(matches_as_player1__in=imported) | Q(matches_as_player2__in=imported)
        return (
            Player.objects.filter(played | Q(entries__division__event__club=self), merged_into__isnull=True)
            .exclude(pk__in=self.players.values("pk"))
            .distinct()
        )


class PlayerMerge(models.Model):
    """A director's "same person": every row of ``folded`` moved to ``kept`` (``moved``: the ids of each table's
    rows that moved, so that an undo puts back exactly those), and ``folded`` marked merged into ``kept``.
    An undone merge keeps its row, with when and by whom it was undone (tournaments/services/merges.py)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="merges")
    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    folded = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    moved = models.JSONField(default=dict, help_text="the ids of the rows that moved, per table")
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=~Q(kept=models.F("folded")), name="merge_two_players")]

    def __str__(self) -> str:
        return f"{self.folded} merged into {self.kept}"


class Season(models.Model):
    """A span of a club's events counted by a points system: the USBGF's master points, BackGames' universal club
    table (``table``: its basis, players or rounds or the higher, the club's own figures if it changed any, and a
    bonus multiplier per event), or the club's own table (``table``: points per match won, optionally times its
    length, per place, for showing up, and a multiplier per event). What each event gives each player is stored
    (:class:`SeasonPoints`), computed by a task from the counted results after each follow-up, so the table follows
    every correction and sums stored rows when it is read (tournaments/selectors/seasons.py)."""

    class System(models.TextChoices):
        USBGF = "usbgf", "USBGF master points"
        BACKGAMES = "backgames", "BackGames' universal club table"
        CLUB = "club", "the club's own table"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100)
    starts_on = models.DateField(help_text="its first day: the club's events starting from it count")
    ends_on = models.DateField(help_text="its last day")
    system = models.CharField(max_length=16, choices=System.choices, default=System.CLUB)
    table = models.JSONField(
        default=dict,
        blank=True,
        help_text='the club\'s own table: {"per_win": 1, "times_length": true, "places": [10, 6, 4, 4], '
        '"showing_up": 2, "multipliers": {"final-night": 2}}',
    )
    qualify = models.PositiveSmallIntegerField(default=0, help_text="the top N qualify for the playoff (0: no line)")
    created_at = models.DateTimeField(auto_now_add=True)
    points_computed_at = models.DateTimeField(
        null=True, blank=True, help_text="when every event's points were last computed whole (none: to compute)"
    )

    class Meta:
        ordering = ["club", "-starts_on", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_unique_per_club"),
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="season_ends_after_it_starts"),
        ]

    def __str__(self) -> str:
        return f"{self.club} / {self.name}"


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", gettext_lazy("in preparation")
        REGISTRATION = "registration", gettext_lazy("registration open")
        RUNNING = "running", gettext_lazy("running")
        FINISHED = "finished", gettext_lazy("finished")

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    venue = models.CharField(max_length=200, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    public = models.BooleanField(default=True, help_text="spectators can follow it")
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_events")
    rating_list = models.ForeignKey(RatingList, null=True, blank=True, on_delete=models.SET_NULL, related_name="events")
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="events", help_text="the club running it"
    )
    tables_given = models.BooleanField(
        default=False, help_text="the director gave the venue's tables; otherwise there are as many as needed"
    )
    analyse_imported = models.BooleanField(
        default=False, help_text="GNU Backgammon analyses each match imported into the event as it is imported"
    )
    points_weight = models.FloatField(
        default=1.0, help_text="master points: the event's weight (1.0 a main event, less for a club night)"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(starts_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="event_ends_after_it_starts",
            ),
            models.CheckConstraint(condition=Q(points_weight__gt=0), name="event_points_weight_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class SeasonPoints(models.Model):
    """What one event of a season gave one player (his divisions of the event together), by the season's system: a
    cache that the task after each follow-up rewrites for the event (tournaments/services/seasons.py), so that the
    season's table sums these rows instead of reading every event's results."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="points")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="season_points")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_points")
    points = models.FloatField()
    match_wins = models.PositiveIntegerField(default=0, help_text="over the board")
    showed_up = models.BooleanField(default=True, help_text="he took part in the event")
    place_first = models.PositiveIntegerField(null=True, blank=True, help_text="his best place (none: none yet)")
    place_last = models.PositiveIntegerField(null=True, blank=True, help_text="the last place he shares it to")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "event", "player"], name="season_points_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.season} / {self.event_id} / {self.player_id}: {self.points}"


class Table(models.Model):
    """A table of the venue (the event's), numbered from 1; a name ("Feature table") is shown instead of the number.
    A table held back gets no match but by the director's hand."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60, blank=True, help_text='shown instead of "Table N", e.g. "Feature table"')
    held = models.BooleanField(default=False, help_text="held back: a match is sent to it by hand only")

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="table_number_unique_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_1"),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """How people name it: its name, or "Table N"."""
        return self.name or _("Table %(number)s") % {"number": self.number}


class DivisionManager(models.Manager["Division"]):
    """Divisions read with ``followups_due``: whether a result of theirs waits for its follow-up (a pairing flagged
    in its match's transaction, which may not write the division's row: the lock order), so that
    :attr:`Division.standings_state` says pending from the result's commit on, in the statement that reads them."""

    def get_queryset(self) -> models.QuerySet[Division]:
        due = Pairing.objects.filter(division=models.OuterRef("pk")).exclude(followup="")
        return super().get_queryset().annotate(followups_due=models.Exists(due))


class Division(models.Model):
    class ForfeitRule(models.TextChoices):
        LEFT_OUT = "left-out", "left out of points for and against and of Buchholz"
        AS_PLAYED = "as-played", "counted as the match recorded (its points and its opponent)"

    class Format(models.TextChoices):
        SINGLE = "single", gettext_lazy("single elimination")
        MAIN_CONSOLATION = "main-consolation", gettext_lazy("main draw with a consolation")
        PROGRESSIVE = "progressive-consolation", gettext_lazy("main draw with a progressive consolation")
        LAST_CHANCE = "main-consolation-lastchance", gettext_lazy("main draw, consolation and last chance")
        DOUBLE = "double-elimination", gettext_lazy("double elimination")
        SWISS = "swiss", gettext_lazy("Swiss")
        ROUND_ROBIN = "round-robin", gettext_lazy("round robin")
        SWISS_KNOCKOUT = "swiss-knockout", gettext_lazy("Swiss into a knockout")

    class Seeding(models.TextChoices):
        RATING = "rating", "by rating"
        MANUAL = "manual", "set by the director"
        RANDOM = "random", "random (the seed of the draw is recorded)"

    class Status(models.TextChoices):
        REGISTRATION = "registration", gettext_lazy("registration open")
        RUNNING = "running", gettext_lazy("in play")
        FINISHED = "finished", gettext_lazy("finished")

    class Level(models.TextChoices):
        OPEN = "open", "open (advanced)"
        INTERMEDIATE = "intermediate"
        NOVICE = "novice"

    class Work(models.TextChoices):
        CURRENT = "current", gettext_lazy("up to date")
        PENDING = "pending", gettext_lazy("pending (being computed)")
        FAILED = "failed", gettext_lazy("failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100)
    format = models.CharField(max_length=32, choices=Format.choices)
    match_length = models.PositiveSmallIntegerField(default=7, help_text="points, unless a round rule says otherwise")
    round_lengths = models.JSONField(
        default=dict,
        blank=True,
        help_text='per-round lengths: {"main:final": 11, "main:1": 5, "consolation": 5, "swiss:5": 9}',
    )
    crawford = models.BooleanField(default=True)
    casual = models.BooleanField(
        default=False,
        help_text="beginners' rules: no doubling cube and no gammons, every game worth one point to whoever bears off "
        "first",
    )
    variant = models.CharField(max_length=32, choices=[(v, v) for v in VARIANTS], default="standard")
    entry_mode = models.CharField(max_length=16, choices=Match.EntryMode.choices, default=Match.EntryMode.MOVES)
    clock = models.CharField(max_length=100, blank=True, help_text='for the pairing sheet: "2 min/point + 12 s delay"')
    seeding = models.CharField(max_length=16, choices=Seeding.choices, default=Seeding.RATING)
    draw_seed = models.BigIntegerField(null=True, blank=True, help_text="random seed of the draw, shown to all")
    tiebreaks = models.JSONField(default=list, blank=True, help_text="tie-break codes in order (Swiss, round robin)")
    forfeit_tiebreaks = models.CharField(
        max_length=16,
        choices=ForfeitRule.choices,
        default=ForfeitRule.LEFT_OUT,
        help_text="how a forfeit counts in the tie-breaks (it is always a match win for the player awarded it)",
    )
    rounds_planned = models.PositiveSmallIntegerField(default=0, help_text="Swiss: rounds to play")
    knockout_size = models.PositiveSmallIntegerField(
        default=0, help_text="Swiss into a knockout: the top players (4, 8, 16 or 32) who go into the knockout"
    )
    knockout_seeds = models.JSONField(
        default=list,
        blank=True,
        help_text="Swiss into a knockout: the entries of the knockout, seed 1 first, drawn from the Swiss standings "
        "once the Swiss rounds are over (empty before)",
    )
    double_round_robin = models.BooleanField(default=False)
    drop_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="main rounds whose losers drop into the consolation (empty: the default)"
    )
    last_chance_drop_rounds = models.PositiveSmallIntegerField(default=1)
    walkover_as_bye = models.BooleanField(
        default=False,
        help_text="formats with a consolation: a main round-1 walkover (a forfeit, nothing played) counts like a bye "
        "for entry into the consolation, so its winner who loses his first match played enters it",
    )
    last_chance_places = models.PositiveSmallIntegerField(default=0, help_text="places for late entries/buy-backs")
    last_chance_closed = models.BooleanField(default=False)
    grand_final_reset = models.BooleanField(default=True)
    auto_pair = models.BooleanField(default=False, help_text="Swiss: pair the next round when all results are in")
    analyse_each_game = models.BooleanField(
        default=False, help_text="GNU Backgammon analyses each game of a match as it ends, not only the finished match"
    )
    payouts = models.JSONField(
        default=dict,
        blank=True,
        help_text='the payout table: {"mode": "percent", "pool": "1000", "ties": "split", "published": false, '
        '"flights": {"main": ["50", "30", "20"]}} (tournaments/services/payouts.py)',
    )
    entry_fee = models.DecimalField(
        max_digits=9, decimal_places=2, default=Decimal(0), help_text="what each player pays to enter (0: free)"
    )
    side_pool_fee = models.DecimalField(
        max_digits=9, decimal_places=2, default=Decimal(0), help_text="an optional side pool's fee (0: no side pool)"
    )
    side_pool_prizes = models.JSONField(
        default=list,
        blank=True,
        help_text="the side pool's percentages by rank among its players, best first (empty: all to the best)",
    )
    house_share = models.DecimalField(
        max_digits=5, decimal_places=2, default=Decimal(0), help_text="percent of the entry fees paid the club keeps"
    )
    added_money = models.DecimalField(
        max_digits=9, decimal_places=2, default=Decimal(0), help_text="money the club or a sponsor adds to the pool"
    )
    points_weight = models.FloatField(
        default=1.0, help_text="master points: the division's weight (USBGF: 1.0 open, 0.7 intermediate, 0.5 novice)"
    )
    points_places = models.PositiveSmallIntegerField(
        default=4, help_text="master points: how many places earn placement points"
    )
    level = models.CharField(
        max_length=16,
        choices=Level.choices,
        default=Level.OPEN,
        help_text="its players' level: BackGames' universal club table has a column for each",
    )
    rating_under = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="open only to players rated under this on the event's rating list"
    )
    rating_from = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="open only to players rated this or more on the event's rating list"
    )
    points_under = models.FloatField(
        null=True, blank=True, help_text="open only to players with fewer points than this in points_season"
    )
    points_season = models.ForeignKey(
        "Season",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="capped_divisions",
        help_text="the season whose points points_under counts",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    standings_status = models.CharField(max_length=16, choices=Work.choices, default=Work.CURRENT)
    standings_error = models.TextField(blank=True)
    results_version = models.PositiveIntegerField(default=0, help_text="bumped by every result or correction")
    standings_version = models.PositiveIntegerField(default=0, help_text="results_version the standings reflect")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = DivisionManager()

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "slug"], name="division_slug_unique_per_event"),
            models.CheckConstraint(condition=Q(format__in=FORMATS), name="division_format_known"),
            models.CheckConstraint(
                condition=Q(match_length__gte=1) & Q(match_length__lte=99), name="division_length_1_99"
            ),
            models.CheckConstraint(
                condition=Q(entry_fee__gte=0) & Q(side_pool_fee__gte=0) & Q(added_money__gte=0),
                name="division_money_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(house_share__gte=0) & Q(house_share__lte=100), name="division_house_share_percent"
            ),
            models.CheckConstraint(
                condition=Q(points_weight__gt=0) & Q(points_places__gte=1), name="division_points_settings"
            ),
            models.CheckConstraint(
                condition=Q(points_under__isnull=True, points_season__isnull=True)
                | Q(points_under__gt=0, points_season__isnull=False),
                name="division_points_cap_names_its_season",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} / {self.name}"

    @property
    def standings_state(self) -> str:
        """The standings as a reader sees them: ``standings_status``, or pending while a result of the division waits
        for its follow-up (``followups_due``, read with the division by its manager)."""
        if self.standings_status == self.Work.CURRENT and getattr(self, "followups_due", False):
            return self.Work.PENDING
        return self.standings_status

    @property
    def standings_state_words(self) -> str:
        """:attr:`standings_state` in the pages' words (its choice's label: "pending (being computed)")."""
        return str(self.Work(self.standings_state).label)

    @property
    def is_elimination(self) -> bool:
        return self.format in ELIMINATION_FORMATS

    @property
    def is_swiss_knockout(self) -> bool:
        return self.format == self.Format.SWISS_KNOCKOUT

    @property
    def knockout_drawn(self) -> bool:
        """A Swiss into a knockout whose knockout is drawn (its Swiss rounds are over)."""
        return self.is_swiss_knockout and bool(self.knockout_seeds)

    @property
    def in_swiss_phase(self) -> bool:
        """Paired round by round as a Swiss now: a Swiss, or a Swiss into a knockout before its knockout."""
        return self.format in SWISS_FORMATS and not self.knockout_drawn

    @property
    def has_bracket(self) -> bool:
        """Played (now) as a bracket: an elimination format, or a Swiss into a knockout once its knockout is drawn."""
        return self.is_elimination or self.knockout_drawn

    @property
    def phase(self) -> str:
        """ "swiss" or "knockout" for a Swiss into a knockout, "" for every other format."""
        if not self.is_swiss_knockout:
            return ""
        return "knockout" if self.knockout_seeds else "swiss"


class Entry(models.Model):
    class Payment(models.TextChoices):
        CASH = "cash"
        TRANSFER = "transfer"

    class Status(models.TextChoices):
        REGISTERED = "registered", gettext_lazy("registered")
        CHECKED_IN = "checked_in", gettext_lazy("checked in")
        WITHDRAWN = "withdrawn", gettext_lazy("withdrawn")
        ELIMINATED = "eliminated", gettext_lazy("eliminated")

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True, help_text="declared rating used for seeding")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERED)
    late = models.BooleanField(default=False, help_text="entered after the division started")
    place = models.CharField(max_length=40, blank=True, help_text="the last-chance place a buy-back or late entry took")
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawal_reason = models.TextField(blank=True)
    paid = models.CharField(
        max_length=16, choices=Payment.choices, blank=True, help_text="how the entry fee was paid (empty: not paid)"
    )
    side_pool = models.CharField(
        max_length=16,
        choices=Payment.choices,
        blank=True,
        help_text="how the side pool fee was paid (empty: not in it)",
    )
    paid_at = models.DateTimeField(null=True, blank=True)
    refunded = models.BooleanField(default=False, help_text="withdrawn before the start and given the fees back")
    cap_override = models.TextField(
        blank=True,
        help_text="why the director entered him although the division's rating or points cap would refuse him "
        "(empty: within the cap, or no cap)",
    )

    class Meta:
        ordering = ["division", "seed", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["division", "player"], name="entry_player_once_per_division"),
            models.UniqueConstraint(
                fields=["division", "seed"], condition=Q(seed__isnull=False), name="entry_seed_unique_per_division"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.division}"


class Round(models.Model):
    class Bracket(models.TextChoices):
        MAIN = "main", gettext_lazy("main draw")
        CONSOLATION = "consolation", gettext_lazy("consolation")
        LAST_CHANCE = "last-chance", gettext_lazy("last chance")
        SWISS = "swiss", gettext_lazy("Swiss")
        ROUND_ROBIN = "round-robin", gettext_lazy("round robin")

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="rounds")
    bracket = models.CharField(max_length=16, choices=Bracket.choices)
    number = models.PositiveSmallIntegerField()
    length = models.PositiveSmallIntegerField(help_text="match length of this round")
    seed = models.BigIntegerField(null=True, blank=True, help_text="random seed used to pair it, if any")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["division", "bracket", "number"]
        constraints = [
            models.UniqueConstraint(fields=["division", "bracket", "number"], name="round_unique_per_bracket"),
        ]

    def __str__(self) -> str:
        return f"{self.division} {self.bracket} round {self.number}"


class PairingQuerySet(models.QuerySet["Pairing"]):
    def of_match(self, match: Match | int) -> PairingQuerySet:
        """The pairing of ``match`` (or its id): one at most, ordered by its key. Pairing's own ordering follows its
        round's, its division's and its event's, which would join three tables to a statement the entry page's every
        poll and a match's ending run."""
        return self.filter(match_id=match if isinstance(match, int) else match.pk).order_by("pk")


class Pairing(models.Model):
    """One board of a round: a Swiss/round-robin pairing, or a bracket slot (players filled in as it resolves)."""

    class Status(models.TextChoices):
        WAITING = "waiting", gettext_lazy("waiting for earlier results")
        READY = "ready", gettext_lazy("ready to play")
        PLAYING = "playing", gettext_lazy("playing")
        FINISHED = "finished", gettext_lazy("finished")
        BYE = "bye", gettext_lazy("bye")
        EMPTY = "empty", gettext_lazy("not needed")  # no players: both sides empty
        SKIPPED = "skipped", gettext_lazy("not needed")

    class Confirmation(models.TextChoices):
        NOT_NEEDED = "", gettext_lazy("not needed")
        AWAITING = "awaiting", gettext_lazy("waiting for the opponent's confirmation")
        CONFIRMED = "confirmed", gettext_lazy("confirmed")
        DISPUTED = "disputed", gettext_lazy("disputed: a director decides")

    class Decision(models.TextChoices):
        NONE = ""
        FORFEIT_NO_SHOW = "forfeit-no-show", gettext_lazy("forfeit (no-show)")
        FORFEIT_WITHDRAWAL = "forfeit-withdrawal", gettext_lazy("forfeit (withdrawal)")
        FORFEIT_PENALTY = "forfeit-penalty", gettext_lazy("forfeit (penalty points past half the match length)")
        DIRECTOR = "director", gettext_lazy("decided by the director")
        DOUBLE_FORFEIT = "double-forfeit", gettext_lazy("double forfeit (both players withdrew): nobody wins")

    class Followup(models.TextChoices):
        """What the division's follow-up (its sync) still has to do after a result the pairing already shows: the
        result was written here in its match's transaction (tournaments/services/sync.py, ``show_match_result``);
        what depends on it (the next slot or round, tables, standings, ratings) follows from the sync, which clears
        this. A pairing left due is a follow-up that never ran: ``reconcile`` finds it."""

        NONE = "", "nothing due"
        RESULT = "result", "a result to follow up"
        CORRECTION = "correction", "a corrected result to follow up"

    # The indexes of the round, the division and the table are those of the constraints below, which begin with
    # their columns (a round robin's start writes 250,000 rows of pairings and matches: every index costs).
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings", db_index=False)
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="pairings", db_index=False)
    key = models.CharField(max_length=40, help_text="stable id within the division, e.g. main-2-3 or swiss-4-1")
    board = models.PositiveSmallIntegerField(help_text="its number within the round, from 1")
    table = models.ForeignKey(
        Table,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="pairings",
        db_index=False,
        help_text="the venue's table it plays at (while ready or being played)",
    )
    called_at = models.DateTimeField(null=True, blank=True, help_text="when its players were called to its table")
    played_at = models.CharField(
        max_length=70, blank=True, help_text='the table it was played at ("Table 2"), kept once the table is freed'
    )
    entry_a = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    entry_b = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    source_a = models.CharField(max_length=400, blank=True, help_text="why side A holds this player")
    source_b = models.CharField(max_length=400, blank=True)
    reason = models.CharField(max_length=300, blank=True, help_text="why this pairing was made")
    conditional = models.BooleanField(default=False, help_text="played only if needed (grand-final reset)")
    length = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="pairing")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+", db_index=False)
    score_a = models.PositiveIntegerField(default=0)
    score_b = models.PositiveIntegerField(default=0)
    confirmation = models.CharField(max_length=16, choices=Confirmation.choices, blank=True, default="")
    confirmation_side = models.PositiveSmallIntegerField(null=True, blank=True, help_text="side asked to confirm")
    dispute = models.TextField(blank=True)
    decision = models.CharField(max_length=24, choices=Decision.choices, blank=True, default="")
    decision_reason = models.TextField(blank=True)
    penalty_a = models.PositiveSmallIntegerField(default=0, help_text="penalty points given against side A")
    penalty_b = models.PositiveSmallIntegerField(default=0)
    swapped_reason = models.TextField(blank=True)
    followup = models.CharField(max_length=12, choices=Followup.choices, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    objects = PairingQuerySet.as_manager()

    class Meta:
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["division", "key"], name="pairing_key_unique_per_division"),
            models.UniqueConstraint(fields=["round", "board"], name="pairing_board_unique_per_round"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(table__isnull=False), name="pairing_one_match_per_table"
            ),
            models.CheckConstraint(
                condition=Q(entry_a__isnull=True) | Q(entry_b__isnull=True) | ~Q(entry_a=models.F("entry_b")),
                name="pairing_two_entries",
            ),
        ]
        indexes = [
            models.Index(fields=["division", "status"]),
            # Only the pairings decided have a winner: the others are left out of its index.
            models.Index(fields=["winner"], condition=Q(winner__isnull=False), name="pairing_winner"),
            # Only the pairings whose follow-up is due: what reconcile scans for a follow-up that never ran.
            models.Index(fields=["followup"], condition=~Q(followup=""), name="pairing_followup_due"),
        ]

    def __str__(self) -> str:
        return f"{self.division} {self.key}"

    @property
    def is_bye(self) -> bool:
        return self.status == self.Status.BYE

    @property
    def table_label(self) -> str:
        """Its table as people name it ("Table 7", "Feature table"), or "" while it holds none."""
        return "" if self.table is None else self.table.label

    @property
    def where_played(self) -> str:
        """Its table while it holds one, else the table it was played at ("" if none)."""
        return self.table_label or self.played_at

    @property
    def place_label(self) -> str:
        """Where to find it: its table while it holds one (or the one it was played at), else its match number in
        the round ("Match 3")."""
        return self.where_played or _("Match %(number)s") % {"number": self.board}


class ImportedMatch(models.Model):
    """A .mat match imported into an event (``import_matches --event``), outside its divisions' pairings."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="imported_matches")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]

    def __str__(self) -> str:
        return f"{self.event} imported match {self.match_id}"


class Standing(models.Model):
    """One row of a division's standings after ``after_round`` rounds (Swiss and round robin keep one table per
    round; an elimination division keeps one table, ``after_round`` 0). Recomputed from scratch by a task."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="standings")
    after_round = models.PositiveSmallIntegerField(default=0)
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    points_for = models.PositiveIntegerField(default=0)
    points_against = models.PositiveIntegerField(default=0)
    tiebreaks = models.JSONField(default=dict)
    places = models.JSONField(
        default=dict, blank=True, help_text='elimination: the place in each flight, {"main": "5-8", "consolation": "1"}'
    )
    results_version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["division", "-after_round", "rank", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["division", "after_round", "entry"], name="standing_once_per_entry_round"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entry}"


class Rating(models.Model):
    """A player's current rating on a rating list (cache; recomputed from the list's history)."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField()
    experience = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["rating_list", "-rating"]
        constraints = [models.UniqueConstraint(fields=["rating_list", "player"], name="rating_once_per_list")]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.2f}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating (cache; recomputed with the list)."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="changes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    order = models.PositiveIntegerField(help_text="position of the match in the list's history")
    before = models.FloatField()
    after = models.FloatField()
    experience_before = models.PositiveIntegerField()
    won = models.BooleanField()

    class Meta:
        ordering = ["rating_list", "order", "player"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "match", "player"], name="rating_change_once_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.before:.2f} -> {self.after:.2f}"

    @property
    def delta(self) -> float:
        return self.after - self.before


class PlayoffQuerySet(models.QuerySet["Playoff"]):
    def of_match(self, match: Match | int) -> PlayoffQuerySet:
        """The playoff whose first or final match is ``match`` (or its id): one at most, ordered by its key (not by
        its division's ordering, which would join the division and the event)."""
        match_id = match if isinstance(match, int) else match.pk
        return self.filter(Q(first_match_id=match_id) | Q(final_match_id=match_id)).order_by("pk")


class Playoff(models.Model):
    """A playoff the director ordered to settle a tie that matters (tournaments/standings/playoffs.py): two or three
    tied players play real matches, and its order settles the tie in the standings the division's table
    ``after_round`` (the Swiss table a cut is drawn from, or a Swiss's or round robin's final table).

    ``entries``: the tied players' entry ids in the tie's order (by seed); ``first_match`` is a three-player
    stepladder's first match (the two lower ones), ``final_match`` the match that decides first place of the group
    (a three-player playoff's is made once its first match is won). ``order``: once finished, the entry ids in the
    order the playoff placed them."""

    class Kind(models.TextChoices):
        PLACES = "places", "places that pay differently"
        CUT = "cut", "the knockout's cut line"
        FIRST = "first", "first place"

    class Status(models.TextChoices):
        ORDERED = "ordered", "ordered, to be played"
        FINISHED = "finished", "played: the tie is settled"

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="playoffs")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    place = models.PositiveIntegerField(help_text="the first place the tie spans")
    after_round = models.PositiveSmallIntegerField(help_text="the standings table whose tie it settles")
    entries = models.JSONField(default=list, help_text="the tied entries' ids, in the tie's order")
    length = models.PositiveSmallIntegerField(default=1, help_text="the playoff's match length")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ORDERED)
    order = models.JSONField(default=list, blank=True, help_text="once finished: the entries in the settled order")
    first_match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="playoff_first"
    )
    final_match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="playoff_final"
    )
    # Each match's result as it counts (as a pairing's, ``Pairing.confirmation``): a scoresheet result entered by
    # one player waits for the other side's confirmation (``*_confirmation_side``: the side asked) or a director's.
    first_confirmation = models.CharField(
        max_length=16, choices=Pairing.Confirmation.choices, default=Pairing.Confirmation.NOT_NEEDED, blank=True
    )
    first_confirmation_side = models.PositiveSmallIntegerField(null=True, blank=True)
    final_confirmation = models.CharField(
        max_length=16, choices=Pairing.Confirmation.choices, default=Pairing.Confirmation.NOT_NEEDED, blank=True
    )
    final_confirmation_side = models.PositiveSmallIntegerField(null=True, blank=True)
    dispute_text = models.TextField(blank=True, help_text="what the player asked to confirm said is wrong")
    # A match's result a director corrected (a game's result replaced, a final result changed) stands by his
    # decision, as a pairing's ``Pairing.Decision.DIRECTOR``: his reason, shown on the pages ("": not corrected).
    first_correction = models.TextField(blank=True, help_text="the director's reason, once he corrected its result")
    final_correction = models.TextField(blank=True, help_text="the director's reason, once he corrected its result")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = PlayoffQuerySet.as_manager()

    class Meta:
        ordering = ["division", "id"]

    def __str__(self) -> str:
        return f"{self.division} playoff for {self.kind} at {self.place}"

    def which(self, match_id: int) -> str:
        """``"first"`` or ``"final"``: which of the playoff's matches ``match_id`` is (the prefix of its fields)."""
        if match_id == self.first_match_id:
            return "first"
        if match_id == self.final_match_id:
            return "final"
        raise ValueError(f"match {match_id} is not a match of playoff {self.pk}")

    def correction_of(self, match_id: int) -> str:
        """The director's reason for correcting the playoff's match ``match_id``'s result ("": not corrected)."""
        return str(getattr(self, f"{self.which(match_id)}_correction"))

    def confirmation_of(self, match_id: int) -> tuple[str, int | None]:
        """The confirmation of the playoff's match ``match_id`` and the side asked."""
        which = self.which(match_id)
        return getattr(self, f"{which}_confirmation"), getattr(self, f"{which}_confirmation_side")
