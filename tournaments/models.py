"""Models of the tournaments app (none yet).

This app will own events, divisions, entries, rounds, pairings and bracket nodes, and the cached standings
rows and ratings. Standings, brackets and ratings are recomputed from finished matches by Celery tasks that
react to games' ``match_finished`` signal; games/ never imports this app (DESIGN.md, "Layers").
"""
