"""Pure pairing algorithms for tournaments: round robin schedules and single-elimination draws.

Nothing here touches Django or the database; callers pass in plain values (entrants, seed counts) and get
plain data structures back.
"""
