"""The matches won over the board are read in one compound statement (the rounds' and the playoffs'), which the
venue's default database, SQLite, must accept too: it refuses an ORDER BY inside a compound statement, and the
models' default orderings put one there (every club night's follow-up then failed on a laptop)."""

from __future__ import annotations

import pytest
from django.db.backends.sqlite3.base import DatabaseWrapper

from tournaments.selectors.points import wins_over_the_board

pytestmark = pytest.mark.django_db


def test_the_wins_query_compiles_for_sqlite() -> None:
    settings = {"NAME": ":memory:", "OPTIONS": {}, "TIME_ZONE": None, "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": False}
    sqlite = DatabaseWrapper({**settings, "AUTOCOMMIT": True, "ATOMIC_REQUESTS": False}, alias="sqlite-check")
    query = wins_over_the_board([1, 2]).query
    sql, _params = query.get_compiler(connection=sqlite).as_sql()
    assert " UNION ALL " in sql
