"""The Django admin of the tournaments app: raw data for staff, with the director's main steps as admin actions.

Writes go through the services: a division is started by ``services.start_division``, moved forward by
``services.sync_division``, its standings recomputed by ``services.recompute_standings``. Pairings, rounds,
standings and ratings are computed rows and read-only here; entries and events keep simple editable fields
(names, venue, dates, visibility, directors), which hold no invariant the services rely on.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from common.actor import Actor
from common.errors import ApplicationError
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing, Rating, RatingChange, RatingList, Round, Standing


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "status", "starts_on", "public")
    list_filter = ("status", "public")
    search_fields = ("name", "slug", "venue")
    filter_horizontal = ("directors",)
    readonly_fields = ("status", "created_at")


@admin.register(Division)
class DivisionAdmin(admin.ModelAdmin):
    list_display = ("name", "event", "format", "status", "standings_status")
    list_filter = ("format", "status", "standings_status")
    readonly_fields = (
        "status", "standings_status", "standings_error", "results_version", "standings_version", "started_at",
        "finished_at",
    )  # fmt: skip
    actions = ("start", "sync", "standings")

    def _each(self, request: HttpRequest, queryset: QuerySet[Division], step: Any, done: str) -> None:
        for division in queryset:
            try:
                step(division)
            except ApplicationError as exc:
                self.message_user(request, f"{division}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{division}: {done}", messages.SUCCESS)

    @admin.action(description="Start the selected divisions (seed and draw)")
    def start(self, request: HttpRequest, queryset: QuerySet[Division]) -> None:
        actor = Actor(user=request.user)
        self._each(request, queryset, lambda d: services.start_division(d, actor=actor), "started")

    @admin.action(description="Bring the selected divisions in step with their results")
    def sync(self, request: HttpRequest, queryset: QuerySet[Division]) -> None:
        self._each(request, queryset, lambda d: services.sync_division(d.pk), "in step")

    @admin.action(description="Recompute the standings of the selected divisions")
    def standings(self, request: HttpRequest, queryset: QuerySet[Division]) -> None:
        self._each(request, queryset, lambda d: services.recompute_standings(d.pk), "standings recomputed")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("player", "division", "seed", "rating", "status", "late", "place")
    list_filter = ("status", "late")
    search_fields = ("player__display_name",)
    readonly_fields = ("division", "player", "seed", "status", "late", "place", "checked_in_at", "withdrawn_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # register players through the director's pages or the API (services.register_player)


@admin.register(Round)
class RoundAdmin(ReadOnly):
    list_display = ("division", "bracket", "number", "length", "seed")


@admin.register(Pairing)
class PairingAdmin(ReadOnly):
    list_display = ("key", "division", "entry_a", "entry_b", "status", "winner", "confirmation", "decision")
    list_filter = ("status", "confirmation", "decision")
    search_fields = ("key",)


@admin.register(Standing)
class StandingAdmin(ReadOnly):
    list_display = ("division", "after_round", "rank", "entry", "wins", "losses")


@admin.register(RatingList)
class RatingListAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "k_factor", "computed_at")
    readonly_fields = ("computed_at",)
    filter_horizontal = ("owners",)


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("rating_list", "player", "rating", "experience", "matches")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("rating_list", "order", "player", "before", "after", "won")
