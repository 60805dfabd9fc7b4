"""Models of the games app (none yet).

This app will own players, matches to N points, the games of a match and each game's append-only action log
(rolls, plays, cube actions, resignations), with the cube history and results. The log is the source of truth:
scores, cube state and positions stored on a match or game are caches rebuilt by replaying the log through
engine/. Every write goes through games/services.py (DESIGN.md, "Where logic lives").
"""
