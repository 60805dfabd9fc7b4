"""Events around the matches: divisions, entries, rounds, pairings and brackets, standings and ratings."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Plug into games/: event directors direct their matches; results move divisions forward; corrections
        of results that later matches depend on are guarded."""
        from games import signals
        from games.access import CORRECTION_GUARDS, DIRECTOR_CHECKS
        from games.selectors import DIRECTED_MATCHES
        from tournaments.access import directed_matches, directs_match
        from tournaments.entry_panel import register_entry_panel
        from tournaments.receivers import on_match_changed
        from tournaments.services.results import guard_correction

        if directs_match not in DIRECTOR_CHECKS:
            DIRECTOR_CHECKS.append(directs_match)
        if directed_matches not in DIRECTED_MATCHES:
            DIRECTED_MATCHES.append(directed_matches)
        if guard_correction not in CORRECTION_GUARDS:
            CORRECTION_GUARDS.append(guard_correction)
        register_entry_panel()  # the confirm-or-dispute block of the players' entry pages
        signals.match_finished.connect(on_match_changed, dispatch_uid="tournaments.match_finished")
        signals.match_result_changed.connect(on_match_changed, dispatch_uid="tournaments.match_result_changed")
