"""Interchange formats: GNU Backgammon Position and Match IDs (``gnubg_id``), XGID (``xgid``) and .mat logs.

Each module is a codec over plain values, written from the specifications in FORMATS.md.
"""
