"""The Django admin of the games app: a director's view of players, matches, games, the log and entry links.

Writes go through the services (STYLE.md 4.3): a match is created by ``services.start_match``, a player by
``services.create_player``, voiding calls ``services.void_match``, entry links come from ``access.new_entry_token``
and are revoked by ``access.revoke_entry_token``. The action log and the game rows are read-only everywhere (the
log is append-only; games are caches of it), and nothing that holds a log can be deleted here: void a match
instead. A match's set-up (players, length, variant, Crawford rule, entry mode) can be changed only while nothing
has been recorded; whether it is private can be changed at any time.

An entry link's text is a secret: it never appears in a list, only on the link's own page, for staff.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from common.actor import Actor
from common.errors import ApplicationError
from games import access, services
from games.models import Action, EntryToken, Game, Match, Player

#: A match's set-up: editable only while nothing has been recorded (it decides the engine state).
SETUP_FIELDS = ("player1", "player2", "length", "variant", "crawford", "entry_mode")
#: What the services keep up to date (caches and bookkeeping): never edited here.
CACHE_FIELDS = ("status", "score1", "score2", "winner", "seq", "created_by", "created_at", "started_at", "finished_at")
_CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)


def _copy_into(target: Model, source: Model) -> None:
    """Make the admin's unsaved ``target`` the row a service created (the admin goes on with ``target``)."""
    for field in source._meta.concrete_fields:
        setattr(target, field.attname, getattr(source, field.attname))
    target._state.adding = False
    target._state.db = source._state.db


def _unplayed(match: Match) -> bool:
    return match.status == Match.Status.SCHEDULED and match.seq == 0


class ReadOnlyAdminMixin:
    """No adding, changing or deleting through the admin: the rows are a log or caches of it."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# -- players -----------------------------------------------------------------------------------------------------


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "club", "country", "user", "created_at")
    list_filter = ("country",)
    search_fields = ("display_name", "club")
    raw_id_fields = ("user",)
    readonly_fields = ("created_at", "updated_at")

    def get_fields(self, request: HttpRequest, obj: Player | None = None) -> tuple[str, ...]:
        fields: tuple[str, ...] = ("display_name", "club", "country", "user")
        if request.user.is_staff:  # contact details: staff only (the admin is staff-only anyway)
            fields = (*fields, "contact")
        return fields if obj is None else (*fields, "created_at", "updated_at")

    def save_model(self, request: HttpRequest, obj: Player, form: ModelForm, change: bool) -> None:
        if change:
            obj.save()
            return
        data = form.cleaned_data
        created = services.create_player(
            display_name=data["display_name"],
            club=data.get("club", ""),
            country=data.get("country", ""),
            contact=data.get("contact", ""),
            user=data.get("user"),
        )
        _copy_into(obj, created)


# -- matches -------------------------------------------------------------------------------------------------------


#: How many of a match's latest actions its change page shows; the whole log is the action list, paged.
RECENT_ACTIONS = 50
_LOG_COLUMNS = ("seq", "game", "kind", "side", "dice", "play", "value", "undoes", "reason", "entered by")


def recent_log(match: Match) -> SafeString:
    """The latest RECENT_ACTIONS actions of ``match`` as a table (one query), and a link to the whole log."""
    rows = list(
        Action.objects.filter(match=match)
        .select_related("undoes", "entered_by_user", "entered_by_token")
        .order_by("-seq")[:RECENT_ACTIONS]
    )
    log_url = reverse("admin:games_action_changelist") + f"?match__id__exact={match.pk}"
    cells = (
        (
            a.seq,
            a.game_number,
            a.get_kind_display(),
            "" if a.side is None else a.side,
            _dice(a),
            a.play,
            "" if a.value is None else a.value,
            f"#{a.undoes.seq}" if a.undoes is not None else "",
            a.reason,
            _entered_by(a),
        )
        for a in reversed(rows)
    )
    body = format_html_join(
        "", "<tr>{}</tr>", ((format_html_join("", "<td>{}</td>", ((c,) for c in row)),) for row in cells)
    )
    head = format_html_join("", "<th>{}</th>", ((name,) for name in _LOG_COLUMNS))
    shown = f"the last {len(rows)} of {match.seq} actions" if match.seq > len(rows) else f"all {len(rows)} actions"
    return format_html(
        '<p>{} (<a href="{}">the whole log, paged</a>)</p><table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>',
        shown,
        log_url,
        head,
        body,
    )


class GameInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Game
    fields = ("number", "start_score1", "start_score2", "crawford", "winner_side", "result_kind", "ended_by", "points")
    readonly_fields = fields
    ordering = ("number",)
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "players",
        "length_label",
        "variant",
        "status",
        "score",
        "entry_mode",
        "private",
        "created_at",
    )
    list_display_links = ("id", "players")
    list_filter = ("status", "variant", "entry_mode", "private")
    list_select_related = ("player1", "player2")
    search_fields = ("player1__display_name", "player2__display_name", "player1__club", "player2__club", "source")
    autocomplete_fields = ("player1", "player2")
    date_hierarchy = "created_at"
    actions = ("void_selected", "create_entry_links")

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> tuple[str, ...]:
        if obj is None:
            return (*SETUP_FIELDS, "private", "source")
        return (*SETUP_FIELDS, "private", *CACHE_FIELDS, "source", "action_log")

    def get_readonly_fields(self, request: HttpRequest, obj: Match | None = None) -> tuple[str, ...]:
        if obj is None:
            return ()
        if _unplayed(obj):
            return (*CACHE_FIELDS, "source", "action_log")
        return (*SETUP_FIELDS, *CACHE_FIELDS, "source", "action_log")

    def get_inlines(self, request: HttpRequest, obj: Match | None) -> list[type[admin.options.InlineModelAdmin]]:
        return [] if obj is None else [GameInline]

    @admin.display(description="action log")
    def action_log(self, obj: Match) -> SafeString:
        return recent_log(obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log is kept: void a match instead

    @admin.display(description="players", ordering="player1__display_name")
    def players(self, obj: Match) -> str:
        return f"{obj.player1} vs {obj.player2}"

    @admin.display(description="length", ordering="length")
    def length_label(self, obj: Match) -> str:
        return "money" if obj.length == 0 else str(obj.length)

    @admin.display(description="score")
    def score(self, obj: Match) -> str:
        return f"{obj.score1}-{obj.score2}"

    def save_model(self, request: HttpRequest, obj: Match, form: ModelForm, change: bool) -> None:
        data = form.cleaned_data
        if not change:
            created = services.start_match(
                player1=data["player1"],
                player2=data["player2"],
                length=data["length"],
                variant=data["variant"],
                crawford=data["crawford"],
                entry_mode=data["entry_mode"],
                private=data["private"],
                source=data.get("source", ""),
                created_by=request.user,
            )
            _copy_into(obj, created)
            return
        refused = _save_settings(request, obj.pk, {name: data[name] for name in form.changed_data if name in data})
        if refused:
            self.message_user(request, refused, messages.WARNING)

    @admin.action(description="Void selected matches", permissions=["change"])
    def void_selected(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        actor = Actor(user=request.user)
        reason = f"voided in the admin by {request.user.get_username()}"
        voided, refused = 0, []
        for match_id in queryset.order_by("pk").values_list("pk", flat=True):
            try:
                services.void_match(match_id, actor=actor, reason=reason)
            except ApplicationError as exc:
                refused.append(f"#{match_id}: {exc.message}")
            else:
                voided += 1
        self.message_user(request, f"{voided} match{'es' if voided != 1 else ''} voided.", messages.SUCCESS)
        if refused:
            self.message_user(request, "Not voided: " + "; ".join(refused), messages.WARNING)

    @admin.action(description="Create entry links (for each side without a live one)", permissions=["change"])
    def create_entry_links(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        created, skipped = 0, []
        for match in queryset.order_by("pk"):
            if match.status in _CLOSED:
                skipped.append(f"#{match.pk} is {match.get_status_display().lower()}")
                continue
            live = set(match.entry_tokens.filter(revoked_at__isnull=True).values_list("side", flat=True))
            for side in (0, 1):
                if side not in live:
                    access.new_entry_token(match, side)
                    created += 1
        self.message_user(
            request, f"{created} entry link{'s' if created != 1 else ''} created (see Entry tokens).", messages.SUCCESS
        )
        if skipped:
            self.message_user(request, "No links for closed matches: " + "; ".join(skipped), messages.WARNING)


def _save_settings(request: HttpRequest, match_id: int, changes: dict[str, Any]) -> str | None:
    """Save what the admin form changed through ``services.update_match_setup``; returns why not, or None."""
    if not changes:
        return None
    try:
        services.update_match_setup(match_id, actor=Actor(user=request.user), changes=changes)
    except ApplicationError as exc:
        return exc.message
    return None


# -- games and the log ---------------------------------------------------------------------------------------------


@admin.register(Game)
class GameAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = (
        "match",
        "number",
        "start_score",
        "crawford",
        "winner_side",
        "result_kind",
        "ended_by",
        "cube_value",
        "points",
    )
    list_filter = ("result_kind", "ended_by", "crawford")
    list_select_related = ("match__player1", "match__player2")
    search_fields = ("=match__id", "match__player1__display_name", "match__player2__display_name")

    @admin.display(description="score before")
    def start_score(self, obj: Game) -> str:
        return f"{obj.start_score1}-{obj.start_score2}"


@admin.register(Action)
class ActionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The append-only log: read-only, no adding, no deleting (corrections are new rows, made by services)."""

    list_display = ("match", "seq", "game_number", "kind", "side", "dice", "play", "reason", "created_at")
    list_filter = ("kind",)
    list_select_related = ("match__player1", "match__player2")
    search_fields = ("=match__id", "match__player1__display_name", "match__player2__display_name")
    show_full_result_count = False

    @admin.display(description="dice")
    def dice(self, obj: Action) -> str:
        return _dice(obj)


def _dice(obj: Action) -> str:
    return f"{obj.die1}{obj.die2}" if obj.die1 is not None and obj.die2 is not None else ""


def _entered_by(obj: Action) -> str:
    if obj.entered_by_user is not None:
        return str(obj.entered_by_user)
    if obj.entered_by_token is not None:
        return f"entry link, side {obj.entered_by_token.side}"
    return ""


# -- entry links ----------------------------------------------------------------------------------------------------


class LiveFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "live"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "live"), ("no", "revoked")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[EntryToken]) -> QuerySet[EntryToken]:
        if self.value() == "yes":
            return queryset.filter(revoked_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(revoked_at__isnull=False)
        return queryset


@admin.register(EntryToken)
class EntryTokenAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Entry links are made by the match action "Create entry links"; here they are listed (never with their
    text), shown one by one (with the text, for staff, to print it) and revoked."""

    list_display = ("id", "match", "side", "player", "created_at", "revoked_at", "live")
    list_filter = (LiveFilter, "side")
    list_select_related = ("match__player1", "match__player2")
    search_fields = ("=match__id", "match__player1__display_name", "match__player2__display_name")
    actions = ("revoke",)

    def get_fields(self, request: HttpRequest, obj: EntryToken | None = None) -> tuple[str, ...]:
        fields: tuple[str, ...] = ("match", "side", "player", "created_at", "revoked_at")
        if obj is not None and request.user.is_staff:
            fields = (*fields, "link_text")
        return fields

    def get_readonly_fields(self, request: HttpRequest, obj: EntryToken | None = None) -> tuple[str, ...]:
        return self.get_fields(request, obj)

    @admin.display(description="player")
    def player(self, obj: EntryToken) -> str:
        return str(obj.match.player(obj.side))

    @admin.display(description="live", boolean=True)
    def live(self, obj: EntryToken) -> bool:
        return obj.revoked_at is None

    @admin.display(description="entry link text")
    def link_text(self, obj: EntryToken) -> str:
        if obj.revoked_at is not None:
            return "(revoked: this link no longer works)"
        return access.token_text(obj)

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.change_entrytoken")

    @admin.action(description="Revoke selected entry links", permissions=["revoke"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[EntryToken]) -> None:
        revoked = 0
        for token in queryset.filter(revoked_at__isnull=True):
            access.revoke_entry_token(token)
            revoked += 1
        self.message_user(request, f"{revoked} entry link{'s' if revoked != 1 else ''} revoked.", messages.SUCCESS)
