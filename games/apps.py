from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    label = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Plug the analysis into the match writes and signals (games/hooks.py), and its task into the analysis
        service."""
        from games.analysis.receivers import on_game_finished, on_match_imported, request_with_result
        from games.analysis.service import plug_analysis_task
        from games.hooks import game_finished, match_finished, register_result_writer
        from games.tasks import analyse_match

        plug_analysis_task(analyse_match)

        register_result_writer(request_with_result)
        match_finished.connect(on_match_imported, dispatch_uid="games.analysis.imported")
        game_finished.connect(on_game_finished, dispatch_uid="games.analysis.game_finished")
