"""Events around the matches: divisions, entries, rounds, pairings and brackets, standings and ratings."""
