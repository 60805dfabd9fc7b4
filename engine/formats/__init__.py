"""Interchange formats: XGID (``xgid``), SGF (``sgf``) and .mat logs (``mat``, replayed by ``matlog``); the GNU
Backgammon Position and Match IDs, which positions and matches speak themselves, are engine.gnubg_id.

Each module is a codec over plain values, written from the specifications in FORMATS.md.
"""
