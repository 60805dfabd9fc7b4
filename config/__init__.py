"""Project configuration: settings, root URLs, the Celery app, WSGI/ASGI entry points.

The Celery app is imported here so that ``@shared_task`` functions bind to it whenever Django starts.
"""

from config.celery import app as celery_app

__all__ = ["celery_app"]
