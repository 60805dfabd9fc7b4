from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    label = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"
