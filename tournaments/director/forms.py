"""The directors' forms: shape, types and ranges only (STYLE.md 4.5).

Whether a setting, an entry or a decision is allowed is the services' call: a refusal comes back as an
``ApplicationError`` whose message the page shows on the form, with what the director typed kept. Forms that name
players or games take their choices from rows the view already loaded, so rendering them costs no query.
"""

from __future__ import annotations

import json
import re
import zoneinfo
from collections.abc import Iterable, Sequence
from typing import Any, cast

from django import forms
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS
from django.core.validators import ProhibitNullCharactersValidator
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from engine.variants import VARIANTS
from games.models import Game, Match
from tournaments.models import KNOCKOUT_SIZES, Club, Division, Entry, Season
from tournaments.services import MAX_TABLES
from tournaments.standings.tiebreakers import Tiebreak

MAX_IMPORT_BYTES = 256 * 1024
MAX_REASON = 2000
DEFAULT_TIEBREAKS = "buchholz, sonneborn-berger, points-diff"
#: The zones the event form offers: UTC and the places (Europe/Oslo, America/New_York...), not the old aliases
#: (US/Eastern, GB, Etc/GMT+1) nor the system's own names (localtime, Factory, posixrules).
ZONE_REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)
TIME_ZONES = ["UTC", *sorted(z for z in zoneinfo.available_timezones() if z.split("/", 1)[0] in ZONE_REGIONS)]


def _site_zone() -> str:
    """The site's TIME_ZONE when it is one the form offers, else UTC."""
    return settings.TIME_ZONE if settings.TIME_ZONE in TIME_ZONES else "UTC"


RESULT_KINDS = [(1, _("single")), (2, _("gammon")), (3, _("backgammon"))]
CUBE_VALUES = [(v, str(v)) for v in (1, 2, 4, 8, 16, 32, 64)]
FORFEIT_KINDS = [
    ("no-show", _("no-show")),
    ("withdrawal", _("withdrawal")),
    ("penalty", _("penalty (points past half the match length)")),
]
OVERRIDE_HELP = _(
    "A correction is refused once a later match that depends on this result has started. Tick this to correct it "
    "anyway (in a bracket, the later matches that depended on it are then voided and played again)."
)


def _date_input() -> forms.DateInput:
    return forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})


def _reason(label: Any = None, help_text: Any = "") -> forms.CharField:
    return forms.CharField(
        label=label or _("Reason"),
        max_length=MAX_REASON,
        help_text=help_text or _("Kept with the decision; players and directors can read it."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        validators=[ProhibitNullCharactersValidator()],
    )


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=[(tz, tz) for tz in TIME_ZONES], initial=_site_zone)
    # Today by default (a club night is tonight's): an event left without dates says "dates to be announced".
    starts_on = forms.DateField(label=_("First day"), required=False, widget=_date_input(), initial=timezone.localdate)
    ends_on = forms.DateField(label=_("Last day"), required=False, widget=_date_input())
    public = forms.BooleanField(
        label=_("Public"), required=False, initial=True, help_text=_("Spectators can follow it without logging in.")
    )
    analyse_imported = forms.BooleanField(
        label=_("Analyse imported matches"),
        required=False,
        help_text=_("GNU Backgammon analyses each .mat match imported into the event as it is imported."),
    )
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Club.objects.none(),
        required=False,
        help_text=_("A club night: its players come from the club's roster and it is rated on the club's list."),
    )

    def __init__(self, *args: Any, clubs: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if clubs is None or not clubs.exists():
            del self.fields["club"]  # a director of no club sees the form as before
        else:
            cast(forms.ModelChoiceField, self.fields["club"]).queryset = clubs


def _rating_cap(label: Any, help_text: Any) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, min_value=1, max_value=9999, help_text=help_text)


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, help_text=_("Championship, Intermediate, Jackpot..."))
    format = forms.ChoiceField(label=_("Format"), choices=Division.Format.choices, initial=Division.Format.SWISS)
    match_length = forms.IntegerField(label=_("Match length (points)"), min_value=1, max_value=99, initial=7)
    round_lengths = forms.CharField(
        label=_("Per-round lengths"),
        required=False,
        max_length=1000,
        help_text=_(
            "Optional, comma-separated: <code>main:final=11, main:1=5, consolation=5, swiss:5=9</code>; a Swiss "
            "into a knockout's rounds by their names on the pages: <code>knockout:semi-final=5, knockout:final=7"
            "</code>. A round without a rule is played to the match length."
        ),
    )
    crawford = forms.BooleanField(label=_("Crawford rule"), required=False, initial=True)
    casual = forms.BooleanField(
        label=_("Casual (beginners)"),
        required=False,
        help_text=_("No doubling cube and no gammons: whoever bears off first wins the game, worth one point."),
    )
    variant = forms.ChoiceField(label=_("Variant"), choices=[(v, v) for v in VARIANTS], initial="standard")
    entry_mode = forms.ChoiceField(
        label=_("Entry mode"),
        choices=Match.EntryMode.choices,
        initial=Match.EntryMode.MOVES,
        help_text=_("Move by move from the players' phones, or each game's result from a scoresheet."),
    )
    clock = forms.CharField(
        label=_("Clock"), required=False, max_length=100, help_text=_("For the pairing sheet: 2 min/point + 12 s")
    )
    seeding = forms.ChoiceField(
        label=_("Seeding"),
        choices=Division.Seeding.choices,
        initial=Division.Seeding.RATING,
        help_text=_(
            "By rating: a player with no rating (given, or on the event's list) is seeded as 1500, where "
            "every rating starts."
        ),
    )
    tiebreaks = forms.CharField(
        label=_("Tie-breaks, in order"),
        required=False,
        max_length=200,
        initial=DEFAULT_TIEBREAKS,
    )
    forfeit_tiebreaks = forms.ChoiceField(
        label=_("Forfeits in the tie-breaks"),
        choices=Division.ForfeitRule.choices,
        initial=Division.ForfeitRule.LEFT_OUT,
        required=False,
        help_text=_("A forfeit is always a match win for the player awarded it; this says how it counts in the rest."),
    )
    rounds_planned = forms.IntegerField(
        label=_("Swiss rounds"),
        min_value=0,
        max_value=99,
        initial=5,
        help_text=_("Swiss, and Swiss into a knockout: the Swiss rounds to play."),
    )
    knockout_size = forms.TypedChoiceField(
        label=_("Knockout size"),
        choices=[(0, _("no knockout")), *((n, _("top %(n)s") % {"n": n}) for n in KNOCKOUT_SIZES)],
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,  # type: ignore[arg-type]  # an int field: no choice means no knockout
        help_text=_(
            "Swiss into a knockout only: after the Swiss rounds the top players of the standings go into a single "
            "elimination seeded by them (1 v 8, 2 v 7...); a tie at the cut line is broken by the tie-breaks."
        ),
    )
    drop_rounds = forms.IntegerField(
        label=_("Drop rounds"),
        required=False,
        min_value=1,
        max_value=20,
        help_text=_("Elimination with a consolation: the main rounds whose losers drop in (empty: the default)."),
    )
    walkover_as_bye = forms.BooleanField(
        label=_("A round-1 walkover counts like a bye"),
        required=False,
        help_text=_(
            "Elimination with a consolation: a player given his main round-1 match by forfeit (nothing played) who "
            "loses his next match lost his first match played, and enters the consolation like a seed with a bye."
        ),
    )
    last_chance_places = forms.IntegerField(
        label=_("Last-chance places"),
        min_value=0,
        max_value=64,
        initial=0,
        help_text=_("Main, consolation and last chance only: places for late entries and buy-backs."),
    )
    analyse_each_game = forms.BooleanField(
        label=_("Analyse each game"),
        required=False,
        help_text=_(
            "GNU Backgammon analyses each game of a match as it ends (move-by-move matches), not only the match."
        ),
    )
    auto_pair = forms.BooleanField(
        label=_("Pair automatically"),
        required=False,
        help_text=_("Swiss: pair the next round as soon as every result of the current one counts."),
    )
    level = forms.ChoiceField(
        label=_("Level"),
        choices=Division.Level.choices,
        initial=Division.Level.OPEN,
        required=False,
        help_text=_("Its players' level: BackGames' universal club table counts each level's points by its column."),
    )
    rating_under = _rating_cap(
        _("Open to ratings under"),
        _("Such as 1600 for an intermediate division, on the event's rating list (empty: no cap)."),
    )
    rating_from = _rating_cap(
        _("Open to ratings from"), _("Players rated this or more on the event's rating list (empty: no floor).")
    )
    points_under = forms.FloatField(
        label=_("Open to fewer points than"),
        required=False,
        min_value=0.01,
        max_value=1_000_000,
        help_text=_("Players with fewer points than this in the season named below (empty: no points cap)."),
    )
    points_season = forms.ChoiceField(label=_("Points of the season"), required=False, choices=[("", "—")])

    def __init__(self, *args: Any, seasons: Iterable[Season] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice(self, "points_season").choices = [("", "—"), *((s.slug, s.name) for s in seasons)]

    def clean_level(self) -> str:
        return self.cleaned_data.get("level") or Division.Level.OPEN
        codes = ", ".join(t.value for t in Tiebreak)
        self.fields["tiebreaks"].help_text = _("Swiss and round robin; comma-separated codes from: %(codes)s.") % {
            "codes": codes
        }

    def clean_round_lengths(self) -> dict[str, int]:
        text = self.cleaned_data["round_lengths"].strip()
        rules: dict[str, int] = {}
        for part in filter(None, (p.strip() for p in re.split(r"[,;\n]", text))):
            key, sep, value = part.partition("=")
            if not sep or not key.strip() or not value.strip().isdigit():
                raise forms.ValidationError(
                    _("%(part)s: write each rule as round=points, e.g. main:final=11") % {"part": part}
                )
            rules[key.strip()] = int(value)
        return rules

    def clean_forfeit_tiebreaks(self) -> str:
        return self.cleaned_data["forfeit_tiebreaks"] or Division.ForfeitRule.LEFT_OUT

    def clean_tiebreaks(self) -> list[str]:
        return [code.strip() for code in re.split(r"[,\s]+", self.cleaned_data["tiebreaks"]) if code.strip()]


class DirectorForm(forms.Form):
    username = forms.CharField(
        label=_("Username"), max_length=150, help_text=_("The user must already have an account on this site.")
    )


class EmptyForm(forms.Form):
    """A button: the action and its target are the whole request."""


class _WhoIsIt(forms.Form):
    """A form naming one player that, in a club, a name close to the roster's refuses: once refused it offers the
    roster's candidates and a new player (``choice``: the roster player's number, or "new")."""

    choice = forms.CharField(label=_("Who is it?"), required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["choice"] = self.fields.pop("choice")  # asked last, under the name

    def clean_choice(self) -> str:
        choice = self.cleaned_data.get("choice", "").strip()
        if choice and choice != "new" and not choice.isdigit():
            raise forms.ValidationError(_("Choose one of the players offered, or a new player."))
        return choice

    def refused(self, code: str, extra: dict[str, Any]) -> None:
        """A name close to the club's roster: offer its candidates and a new player, for the director to choose."""
        if code != "player_to_choose":
            return
        name = " ".join(str(self.data.get(self.add_prefix("name"), "")).split())
        offered = [(str(c["id"]), str(c["label"])) for c in extra.get("candidates", [])]
        offered.append(("new", _("A new player: %(name)s") % {"name": name}))
        self.fields["choice"].widget = forms.RadioSelect(choices=offered)
        entered = entered_note(name, extra.get("entered", []))
        if entered:
            self.fields["choice"].help_text = entered


def entered_note(name: str, entered: list[dict[str, Any]]) -> str:
    """What "Who is it?" says of the players close to ``name`` who are entered already (not offered to choose)."""
    if not entered:
        return ""
    return _("%(name)s may be %(players)s, already entered: if so, leave %(name)s out.") % {
        "name": name,
        "players": _(" or ").join(str(c["name"]) for c in entered),
    }


class RegisterForm(_WhoIsIt):
    name = forms.CharField(label=_("Name"), max_length=100)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    country = forms.CharField(  # not 2 long: a browser cut "Sweden" to "Sw" as typed; the service says SE
        label=_("Country"), max_length=60, required=False, help_text=_("Two-letter code, such as NO or GB.")
    )
    rating = forms.FloatField(label=_("Rating"), required=False, min_value=0)
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=1)
    place = forms.CharField(
        label=_("Last-chance place"),
        max_length=40,
        required=False,
        help_text=_("Once the division has started: the free place a late entry or a buy-back takes."),
    )

    cap_override = forms.CharField(
        label=_("Enter him anyway, because"),
        max_length=500,
        required=False,
        help_text=_(
            "This division is open by rating or points: a player outside its cap is refused with the reason, "
            "unless you give yours for the exception here (it is kept with his entry)."
        ),
    )

    def __init__(
        self,
        *args: Any,
        last_chance: bool = False,
        capped: bool = False,
        roster: Sequence[str] = (),
        listed: bool = False,
        **kwargs: Any,
    ) -> None:
        """``roster``: the names of the club's roster suggested as the name is typed; ``listed``: the event is rated
        on a rating list, which gives the rating a declared one only stands in for."""
        super().__init__(*args, **kwargs)
        if not last_chance:
            del self.fields["place"]
        if not capped:
            del self.fields["cap_override"]
        if roster:
            self.fields["name"].widget = SuggestingInput(suggestions=roster, key=f"{self.prefix or 'register'}-roster")
            self.fields["name"].help_text = _("Names of the club's roster are suggested as you type.")
        if listed:
            self.fields["rating"].label = _("Rating for seeding (only if not on the club's list)")
            self.fields["rating"].help_text = _(
                "The club's rating list gives the rating of its players; give one only for a player it does not "
                "rate yet (a rating typed here seeds him instead of the list's)."
            )


class SuggestingInput(forms.TextInput):
    """A text field with suggestions: an HTML datalist the browser offers as the director types."""

    def __init__(self, *, suggestions: Sequence[str], key: str) -> None:
        super().__init__(attrs={"list": key, "autocomplete": "off"})
        self.suggestions, self.key = list(suggestions), key

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        field = super().render(name, value, attrs, renderer)
        options = "".join(format_html('<option value="{}">', s) for s in self.suggestions)
        return mark_safe(f'{field}<datalist id="{escape(self.key)}">{options}</datalist>')  # each part escaped


class ImportForm(forms.Form):
    text = forms.CharField(
        label=_("Paste the list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "One player a line, <code>name,club,country,rating,seed</code> in this order (only name is required; "
            "the others may be left off), or under a header row naming the columns in any order. A comma ends the "
            "name: write <code>Lars Nes</code>, not <code>Nes, Lars</code> (that is Nes of the club Lars). "
            "All or nothing: if any line is wrong, nobody is registered and the bad lines are listed."
        ),
    )
    file = forms.FileField(label=_("…or upload a CSV file"), required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_IMPORT_BYTES:
                raise forms.ValidationError(_("The file is larger than 256 KB: split the list."))
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text: save it as CSV (UTF-8).")) from None
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Paste a list or choose a file."))
        if len(data["text"].encode("utf-8")) > MAX_IMPORT_BYTES:
            raise forms.ValidationError(_("The list is larger than 256 KB: split it."))
        if "\x00" in data["text"]:
            raise forms.ValidationError(_("The list contains a null character."))
        data["choices"] = self._choices()
        return data

    #: Once a line's name close to the club's roster was refused: "Who is it?" for that line, sent back with the list.
    _LINE = re.compile(r"^line-(\d+)$")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key in self.data:
            found = self._LINE.match(key.removeprefix(f"{self.prefix}-") if self.prefix else key)
            if found:
                self.fields[found.group(0)] = forms.CharField(required=False, widget=forms.HiddenInput)

    def _choices(self) -> dict[int, str]:
        """Each line's choice (the roster player's number, or "new"); a line left unchosen is asked again."""
        chosen: dict[int, str] = {}
        for name, value in self.cleaned_data.items():
            found = self._LINE.match(name)
            if not found or not value:
                continue
            if value != "new" and not value.isdigit():
                raise forms.ValidationError(_("Choose one of the players offered, or a new player."))
            chosen[int(found.group(1))] = value
        return chosen

    #: A refusal's problems, one a line (the page lists them under the refusal's lead, said once).
    problems: tuple[str, ...] = ()

    def refused(self, code: str, extra: dict[str, Any]) -> None:
        """A refusal listing its lines' problems: the lead as the form's error, the problems as a list. Names
        close to the club's roster: for each line, its candidates and a new player, for the director to choose
        (the other lines are kept as they were pasted)."""
        if extra.get("problems"):
            self.problems = tuple(str(problem) for problem in extra["problems"])
            self.errors[NON_FIELD_ERRORS] = self.error_class([str(extra["lead"])])
        if code != "player_to_choose":
            return
        for line in extra.get("lines", []):
            offered = [(str(c["id"]), str(c["label"])) for c in line["candidates"]]
            offered.append(("new", _("A new player: %(name)s") % {"name": " ".join(str(line["name"]).split())}))
            label = _("Who is it? Line %(line)s: %(name)s") % {"line": line["line"], "name": line["name"]}
            self.fields[f"line-{line['line']}"] = forms.ChoiceField(
                label=label,
                choices=offered,
                required=False,
                widget=forms.RadioSelect,
                help_text=entered_note(" ".join(str(line["name"]).split()), line.get("entered", [])),
            )


class RosterAddForm(_WhoIsIt):
    """One player put on a club's roster (services.rosters.add_roster_player)."""

    name = forms.CharField(label=_("Name"), max_length=100)
    club = forms.CharField(label=_("Club or town"), max_length=100, required=False)
    country = forms.CharField(
        label=_("Country"), max_length=60, required=False, help_text=_("Two-letter code, such as NO or GB.")
    )


class RosterImportForm(ImportForm):
    """A list of players put on a club's roster (services.rosters.import_roster): the list a division's registration
    reads, without what a roster does not keep (a rating, a seed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["text"].help_text = _(
            "One player a line: <code>name</code>, or <code>name,club or town,country</code> (such as "
            "<code>Pia Ruud,Bergen BG,NO</code>), as a division's list takes them. A comma ends the name: write "
            "<code>Lars Nes</code>, not <code>Nes, Lars</code> (that is Nes of the club Lars). All or nothing: if "
            "any line is wrong, nobody is added and the bad lines are listed."
        )


class CheckInForm(forms.Form):
    present = forms.TypedChoiceField(
        choices=[("1", _("present")), ("0", _("not present"))], coerce=lambda v: v == "1", widget=forms.HiddenInput
    )
    cap_override = forms.CharField(
        label=_("Check him in anyway, because"),
        max_length=500,
        required=False,
        help_text=_("A player now outside the division's cap: your reason for the exception."),
    )


class CheckInAllForm(forms.Form):
    """The players listed (filtered) on the division page, checked in at once."""

    entries = forms.TypedMultipleChoiceField(coerce=int, required=False)

    def __init__(self, *args: Any, entries: Iterable[Entry] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice(self, "entries").choices = [(e.pk, e.player.display_name) for e in entries]


class ClubForm(forms.Form):
    """A new club (services.clubs.create_club): its director is who creates it."""

    name = forms.CharField(label=_("Club name"), max_length=200)
    public = forms.BooleanField(
        label=_("Public"), required=False, initial=True, help_text=_("Its page, its season and its rating list.")
    )


def _for(*systems: str) -> dict[str, str]:
    """The widget's attributes that say which points systems a field of the season form is for (static/js/director.js
    hides it for the others)."""
    return {"data-for-system": " ".join(systems)}


class SeasonForm(forms.Form):
    """A new season of a club (services.clubs.create_season): its span, its points system and its table: the club's
    own figures, or what BackGames' universal club table is read by. The fields of a system not chosen are hidden
    on the page and ignored here."""

    #: The fields of the club's own table, and of BackGames' universal club table.
    CLUB_FIELDS = ("per_win", "times_length", "places", "showing_up")
    UNIVERSAL_FIELDS = ("basis",)

    name = forms.CharField(label=_("Season name"), max_length=100, help_text=_("Such as “Autumn 2026”."))
    starts_on = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    system = forms.ChoiceField(
        label=_("Points system"),
        choices=Season.System.choices,
        initial=Season.System.CLUB,
        help_text=_(
            "The club's own table uses the figures below; BackGames' universal club table its figures by each "
            "division's level; the USBGF's master points need none."
        ),
    )
    per_win = forms.FloatField(
        label=_("Points per match won"),
        min_value=0,
        max_value=10_000,
        initial=1,
        widget=forms.NumberInput(_for("club")),
    )
    times_length = forms.BooleanField(
        label=_("Times the match's length"),
        required=False,
        help_text=_("A 5-point match won is worth 5 times more."),
        widget=forms.CheckboxInput(_for("club")),
    )
    places = forms.CharField(
        label=_("Points per place"),
        required=False,
        max_length=500,
        help_text=_("Place 1 first, separated by commas, such as 10, 6, 4, 4 (empty: none)."),
        widget=forms.TextInput(_for("club")),
    )
    showing_up = forms.FloatField(
        label=_("Points for playing a night"),
        min_value=0,
        max_value=10_000,
        initial=0,
        required=False,
        widget=forms.NumberInput(_for("club")),
    )
    basis = forms.ChoiceField(
        label=_("Read the universal table by"),
        choices=[
            ("players", _("the field's size")),
            ("rounds", _("the rounds played")),
            ("higher", _("whichever of the two gives more")),
        ],
        initial="players",
        required=False,
        widget=forms.Select(attrs=_for("backgames")),
    )
    qualify = forms.IntegerField(
        label=_("Playoff line"),
        min_value=0,
        max_value=1000,
        initial=0,
        required=False,
        help_text=_("The top N qualify for the club's playoff (0: no line)."),
    )

    def clean_places(self) -> list[float]:
        text = self.cleaned_data["places"].strip()
        if not text:
            return []
        try:
            return [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(
                _("Give the points of each place as numbers separated by commas, such as 10, 6, 4, 4.")
            ) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        ignored = {
            Season.System.CLUB: self.UNIVERSAL_FIELDS,
            Season.System.BACKGAMES: self.CLUB_FIELDS,
        }.get(data.get("system", ""), self.CLUB_FIELDS + self.UNIVERSAL_FIELDS)
        for name in ignored:  # the fields of another system: hidden on the page, whatever they hold is not read
            self.errors.pop(name, None)
            data.pop(name, None)
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            self.add_error("ends_on", _("The last day comes before the first: give a last day on or after it."))
        return data

    @staticmethod
    def table_of(data: dict[str, Any]) -> dict[str, Any]:
        """The season's table, from the form's cleaned data, as services.clubs.create_season takes it: the club's
        own, BackGames' basis, or none (USBGF)."""
        if data["system"] == Season.System.BACKGAMES:
            return {"basis": data.get("basis") or "players"}
        if data["system"] != Season.System.CLUB:
            return {}
        return {
            "per_win": data["per_win"],
            "times_length": data["times_length"],
            "places": data["places"],
            "showing_up": data["showing_up"] or 0,
        }


class ClubDirectorForm(forms.Form):
    """Another director of the club (services.clubs.add_club_director), by the name he logs in with."""

    username = forms.CharField(
        label=_("Username"), max_length=150, help_text=_("He must have an account already; he logs in with this name.")
    )


class MergeForm(forms.Form):
    """Two records of one person (services.merges.merge_players): the roster's player kept, the one folded into him.
    Sent first without ``confirm``: the page shows what moves and asks again."""

    keep = forms.TypedChoiceField(
        label=_("Same person: keep the record of"), coerce=int, help_text=_("The record that stays.")
    )
    fold = forms.TypedChoiceField(
        label=_("and fold into it the record of"),
        coerce=int,
        help_text=_(
            "The same person's other record: his entries, matches, analyses and ratings move to the record kept; "
            "an undo puts them back."
        ),
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, roster: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, p.label) for p in roster]
        cast(forms.TypedChoiceField, self.fields["keep"]).choices = choices
        cast(forms.TypedChoiceField, self.fields["fold"]).choices = choices


class LinkForm(forms.Form):
    """The roster's player a player of the club's events is (services.merges.link_player)."""

    keep = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class WithdrawForm(forms.Form):
    reason = _reason(help_text=_("Kept with the entry. A match of his not yet finished is forfeited."))
    refund = forms.BooleanField(
        label=_("Refund his fees"),
        required=False,
        help_text=_("What he paid goes back to him and counts in no pool (before the start only)."),
    )

    def __init__(self, *args: Any, refundable: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not refundable:
            del self.fields["refund"]


class PayForm(forms.Form):
    """A payment marked at the door: how the entry fee (``fee``) or the side pool fee (``side``) was paid; empty
    takes the mark back. A field not sent leaves its mark as it is."""

    # Which ways of paying there are is the service's to say (services.money.mark_paid), in its words.
    fee = forms.CharField(required=False, max_length=16, widget=forms.HiddenInput)
    side = forms.CharField(required=False, max_length=16, widget=forms.HiddenInput)


class MoneyForm(forms.Form):
    """A division's fees (services.money.set_fees checks them and says what to change)."""

    entry_fee = forms.CharField(label=_("Entry fee"), required=False, max_length=20, help_text=_("0 or empty: free."))
    house_share = forms.CharField(
        label=_("House share (%)"),
        required=False,
        max_length=20,
        help_text=_("The part of the entry fees paid that the club keeps; 0 returns them all."),
    )
    added_money = forms.CharField(
        label=_("Added money"), required=False, max_length=20, help_text=_("Given by the club or a sponsor.")
    )
    side_pool_fee = forms.CharField(
        label=_("Side pool fee"),
        required=False,
        max_length=20,
        help_text=_("An optional second fee; the side pool is returned whole to those in it. 0 or empty: none."),
    )
    side_pool_prizes = forms.CharField(
        label=_("Side pool pays (%)"),
        required=False,
        max_length=200,
        help_text=_("By rank among its players, best first, separated by commas: 70, 30. Empty: all to the best."),
    )

    def clean_side_pool_prizes(self) -> list[str]:
        text = self.cleaned_data.get("side_pool_prizes") or ""
        return [part.strip().removesuffix("%").strip() for part in text.split(",") if part.strip()]


class PlayerDetailsForm(forms.Form):
    """A registered player's name, club and country, corrected (the players' list's "Correct")."""

    name = forms.CharField(
        label=_("Name"), max_length=100, error_messages={"required": _("A player needs a name: type it.")}
    )
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    country = forms.CharField(
        label=_("Country"), max_length=60, required=False, help_text=_("Two-letter code, such as NO or GB.")
    )


class SeedForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=1, help_text=_("Empty: no seed."))


class PairRoundForm(forms.Form):
    allow_rematches = forms.BooleanField(
        label=_("Allow the fewest rematches"),
        required=False,
        help_text=_("Only when no pairing without a rematch exists: the pairing with the fewest rematches is made."),
    )


class PlayoffForm(forms.Form):
    length = forms.IntegerField(
        label=_("Match length (points)"),
        min_value=1,
        max_value=25,
        initial=1,
        help_text=_("1 by default: one game decides it."),
    )


class SwissRoundsForm(forms.Form):
    rounds = forms.IntegerField(label=_("Rounds to play"), min_value=1, max_value=99)


class StartForm(forms.Form):
    only_checked_in = forms.BooleanField(
        label=_("Only checked-in players"),
        required=False,
        help_text=_("Players who have not checked in are withdrawn. Unticked, everyone registered plays."),
    )


def _choice(form: forms.Form, name: str) -> forms.ChoiceField:
    return cast(forms.ChoiceField, form.fields[name])


def entry_choices(entries: Iterable[Entry]) -> list[tuple[str, str]]:
    """Players to choose from, named as people name them: "Anna Berg (Oslo BK, NO, seed 3)", never by an id."""
    return [(str(e.pk), entry_label(e)) for e in entries]


def entry_label(entry: Entry) -> str:
    name, where = entry.player.name_and_where  # the club said once (games.models.Player.name_and_where)
    extra = [where] if where else []
    if entry.seed is not None:
        extra.append(_("seed %(seed)s") % {"seed": entry.seed})
    return f"{name} ({', '.join(extra)})" if extra else name


class SwapForm(forms.Form):
    first = forms.ChoiceField(label=_("First player"))
    second = forms.ChoiceField(label=_("Second player"))
    reason = _reason()
    allow_rematch = forms.BooleanField(
        label=_("Even if it makes a rematch"),
        required=False,
        help_text=_("A Swiss swap that pairs two players who have met is refused, naming them, unless this is ticked."),
    )

    def __init__(self, *args: Any, entries: Iterable[Entry] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *entry_choices(entries)]
        _choice(self, "first").choices = _choice(self, "second").choices = choices


class ForfeitForm(forms.Form):
    """A forfeit: ``sides`` are (value, label) choices of the players who may forfeit (on a match's page its two
    entries; on the division page every player of an open match, as "pairing key:entry id")."""

    loser = forms.ChoiceField(label=_("Player who forfeits"))
    kind = forms.ChoiceField(label=_("Kind"), choices=FORFEIT_KINDS)
    reason = _reason(help_text=_("Shown on the pairing and kept in the match log."))

    def __init__(self, *args: Any, sides: Iterable[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice(self, "loser").choices = [("", "—"), *sides]


class PlayoffForfeitForm(ForfeitForm):
    """A forfeit of a playoff's match: a no-show or a withdrawal (penalty points are a round's pairing's)."""

    kind = forms.ChoiceField(label=_("Kind"), choices=FORFEIT_KINDS[:2])


class PenaltyForm(forms.Form):
    """Penalty points against one player of a match (``sides``: its two entries)."""

    against = forms.ChoiceField(label=_("Against"))
    points = forms.IntegerField(label=_("Points"), min_value=1, max_value=99, initial=1)
    reason = _reason(help_text=_("Kept in the match log."))

    def __init__(self, *args: Any, sides: Iterable[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice(self, "against").choices = [("", "—"), *sides]
        self.fields["points"].help_text = _(
            "Awarded to the opponent between games. Once a player's penalties pass half the match length, the match "
            "is forfeited to the opponent instead."
        )


class _Correction(forms.Form):
    expected_seq = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    reason = _reason(help_text=_("Kept in the match log."))
    override = forms.BooleanField(label=_("Override"), required=False, help_text=OVERRIDE_HELP)


class ReplaceResultForm(_Correction):
    """A game's result replaced. ``games``: the games played (with a winner), the first one chosen; each field
    starts at what the chosen game recorded (so changing only how it was won keeps its winner), and the game
    select carries every game's recorded values for static/js/director.js to follow another game chosen."""

    game_number = forms.TypedChoiceField(label=_("Game"), coerce=int)
    winner = forms.TypedChoiceField(label=_("Winner"), coerce=int)
    kind = forms.TypedChoiceField(label=_("Won as"), choices=RESULT_KINDS, coerce=int, initial=1)
    cube_value = forms.TypedChoiceField(label=_("Cube"), choices=CUBE_VALUES, coerce=int, initial=1)
    field_order = ("game_number", "winner", "kind", "cube_value", "reason", "override", "expected_seq")

    def __init__(
        self,
        *args: Any,
        games: Iterable[Game] = (),
        names: tuple[str, str] = ("", ""),
        casual: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        recorded = {g.number: (g.winner_side, g.result_kind or 1, g.cube_value) for g in games}
        _choice(self, "game_number").choices = [(n, _("game %(n)s") % {"n": n}) for n in recorded]
        _choice(self, "winner").choices = [(0, names[0]), (1, names[1])]
        if recorded:
            first = next(iter(recorded.values()))
            for name, value in zip(("winner", "kind", "cube_value"), first, strict=True):
                self.fields[name].initial = value
            self.fields["game_number"].widget.attrs["data-recorded"] = json.dumps(recorded)
        if casual:  # one point a game: nothing to choose (a gammon or a cube sent anyway is the engine's to refuse)
            for name in ("kind", "cube_value"):
                self.fields[name].widget = forms.HiddenInput()


class ReopenForm(_Correction):
    pass


class UndoForm(_Correction):
    pass


class NewLinkForm(forms.Form):
    """A new entry link for one side of a match: the old one stops working (its phone is signed out)."""

    side = forms.TypedChoiceField(label=_("For"), coerce=int)

    def __init__(self, *args: Any, names: tuple[str, str] = ("", ""), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choice(self, "side").choices = [(0, names[0]), (1, names[1])]


class TablesForm(forms.Form):
    """The venue's tables: a count, or one table a line (a name, or nothing for a table known by its number);
    empty for as many as needed. ``cleaned_data["names"]``: the names in order, or None."""

    tables = forms.CharField(
        label=_("The venue's tables"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "A number (20 tables), or one table a line in order: a name such as “Feature table”, or a number for a "
            "table known by its number. Leave it empty for as many tables as there are matches to play."
        ),
        validators=[ProhibitNullCharactersValidator()],
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text = (data.get("tables") or "").strip()
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if not lines:
            data["names"] = None
        elif len(lines) == 1 and lines[0].isdigit():
            count = int(lines[0])
            if not 1 <= count <= MAX_TABLES:
                raise forms.ValidationError(_("Give 1 to %(max)s tables.") % {"max": MAX_TABLES})
            data["names"] = [""] * count
        else:
            if len(lines) > MAX_TABLES:
                raise forms.ValidationError(_("Give 1 to %(max)s tables.") % {"max": MAX_TABLES})
            too_long = [line for line in lines if len(line) > 60]
            if too_long:
                raise forms.ValidationError(
                    _("A table's name has at most 60 characters: %(name)s") % {"name": too_long[0]}
                )
            data["names"] = ["" if line == str(n) else line for n, line in enumerate(lines, start=1)]
        return data


class TableNumberForm(forms.Form):
    table = forms.IntegerField(label=_("Table number"), min_value=1, max_value=32767)


PAYOUT_FLIGHT_FIELDS = {"main": "main", "consolation": "consolation", "last-chance": "last_chance"}


class PayoutsForm(forms.Form):
    """The payout table: prizes per flight as comma-separated numbers, place 1 first (only the division's flights,
    ``flights``, are shown). Whether the numbers add up is the service's call."""

    mode = forms.ChoiceField(
        label=_("Prizes are"),
        choices=[("percent", _("percentages of the prize pool")), ("amount", _("fixed amounts"))],
    )
    pool = forms.DecimalField(
        label=_("Prize pool"),
        required=False,
        min_value=0,
        max_digits=12,
        decimal_places=2,
        help_text=_("Needed for percentages."),
    )
    ties = forms.ChoiceField(
        label=_("A shared place (such as 5-8)"),
        choices=[
            ("split", _("splits the prizes of the places it spans evenly")),
            ("best", _("pays each player the prize of its best place")),
        ],
    )
    main = forms.CharField(
        label=_("Main flight"),
        required=False,
        max_length=2000,
        help_text=_("Place 1 first, separated by commas: 50, 30, 20. Leave empty to pay nothing."),
    )
    consolation = forms.CharField(label=_("Consolation"), required=False, max_length=2000)
    last_chance = forms.CharField(label=_("Last chance"), required=False, max_length=2000)
    one_prize = forms.BooleanField(
        label=_("One prize per player"),
        required=False,
        help_text=_("A player placed in the prizes of several flights is paid only the largest of them."),
    )
    published = forms.BooleanField(
        label=_("Publish"), required=False, help_text=_("Show the payouts on the public standings.")
    )

    def __init__(self, *args: Any, flights: Iterable[str] = ("main",), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shown = {PAYOUT_FLIGHT_FIELDS[flight] for flight in flights}
        for name in PAYOUT_FLIGHT_FIELDS.values():
            if name not in shown:
                del self.fields[name]
        if len(shown) < 2:
            del self.fields["one_prize"]  # one flight: one prize per player already
