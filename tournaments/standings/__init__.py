"""Standings: pure functions that rank players from match results (score, then tie-breaks). No Django."""
