"""The project's settings (config/settings.py, read from the environment as in a deployment) with one change for
bench/load_bench.py: ``STATIC_ROOT`` is the benchmark's own temporary folder (``BGMATCH_LOAD_STATIC_ROOT``), where
it runs ``collectstatic``, so that pages render with the manifest storage of DEBUG off without touching the
working tree."""

import os
from pathlib import Path

from config.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["BGMATCH_LOAD_STATIC_ROOT"])
