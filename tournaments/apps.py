"""Events around the matches: divisions, entries, rounds, pairings and brackets, standings and ratings."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Plug into games/ through its hooks (games/hooks.py): event directors direct their matches; a match's
        result shows on its pairing in the same transaction, which enqueues its division's follow-up after it; players
        entered only in private events are hidden as those events are; corrections of results that later matches
        depend on are guarded; the players' entry pages show the confirm-or-dispute block. And name the task that
        runs a result's follow-up, and the season table's points the divisions open by points check entries
        against.

        The imports are here because an app's models, services and tasks may only be imported once Django's app
        registry is ready."""
        from games import hooks
        from tournaments import tasks
        from tournaments.access import directed_matches, directs_match
        from tournaments.entry_caps import plug_season_points
        from tournaments.entry_panel import PANEL
        from tournaments.receivers import analyses_each_game, analyses_imported
        from tournaments.selectors.common import events_of_matches, hidden_players
        from tournaments.selectors.seasons import season_points
        from tournaments.services.events import import_target
        from tournaments.services.followup import plug_followup_task
        from tournaments.services.results import guard_correction, guard_take_back
        from tournaments.services.seasons import plug_season_points_tasks
        from tournaments.services.sync import show_match_result
        from tournaments.views import player_section

        hooks.register_director_check(directs_match)
        hooks.register_directed_matches(directed_matches)
        hooks.register_hidden_players(hidden_players)
        hooks.register_correction_guard(guard_correction)
        hooks.register_take_back_guard(guard_take_back)
        hooks.register_panel(PANEL)
        hooks.register_player_section(player_section)
        hooks.register_game_analysis_check(analyses_each_game)
        hooks.register_import_analysis_check(analyses_imported)
        hooks.register_import_target(import_target)
        hooks.register_result_writer(show_match_result)
        hooks.register_match_events(events_of_matches)
        plug_followup_task(tasks.advance_division)
        plug_season_points_tasks(of_season=tasks.season_points, of_event=tasks.season_points_of_event)
        plug_season_points(season_points)
