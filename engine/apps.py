"""The engine's Django app shell: lets ``engine`` appear in INSTALLED_APPS. It holds no models and no logic;
nothing else in engine/ imports Django (docs/ARCHITECTURE.md, "Layers")."""

from django.apps import AppConfig


class EngineConfig(AppConfig):
    name = "engine"
    label = "engine"
    verbose_name = "Rules engine"
