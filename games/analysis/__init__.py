"""Analysis of recorded matches by GNU Backgammon, run as a separate program (docs/ARCHITECTURE.md, contract F).

- engine.py: the gnubg process (one long-lived per worker, fed match after match; time limit, restart on failure);
  gnubg_server.py is the script gnubg runs.
- service.py: the writes (analyse a match and store what gnubg found, request and invalidate an analysis).
- selectors.py: the reads (a match's analysis for its page and the API, a player's PR match by match).

Terms: an *unforced move* is a chequer play with more than one legal choice, a *close cube decision* one gnubg
deems close or actually taken; errors and luck are gnubg's normalised equity (EMG). A player's PR (performance
rating) is 500 x (chequer error + cube error) / (unforced moves + close cube decisions): the average equity given
away per decision, in thousandths of a point, halved (as online sites report it).
"""
