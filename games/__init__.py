"""Matches as they are played: players, matches to N points, games and their action logs."""
