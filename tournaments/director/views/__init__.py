"""The directors' pages, one module per part of their work: events.py (their events, an event's dashboard and
venue), divisions.py (a division's page: the start, rounds, swaps, forfeits, playoffs), players.py (its players'
list: registration, check-in, seeds, withdrawals), money.py (fees, payments, payouts, the cash sheet), matches.py
(a match's decisions and corrections) and prints.py (sheets, slips, score cards, final standings), on what
base.py shares: who may open a page and how a page takes one action. tournaments/director/urls.py routes to them.
"""
