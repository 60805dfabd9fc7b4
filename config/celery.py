"""The Celery application "bgmatch".

Configuration comes from Django settings under the ``CELERY_`` prefix (see config/settings.py): with no
``CELERY_BROKER_URL`` tasks run eagerly in the calling process; with one, they go to the broker for a worker
started with ``celery -A config worker``. Tasks are found in each installed app's ``tasks.py``. What survives a
killed worker or a dead broker, and how long a request may wait on one, is set (and explained) in the Celery
section of config/settings.py.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("bgmatch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
