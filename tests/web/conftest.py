"""Fixtures for the web pages' tests: the cast, matches started through the services and the driver that plays
them action by action are the games app's own (tests/games/conftest.py), re-exported here."""

from tests.games.conftest import cast, drive, new_match  # noqa: F401 (fixtures)
