"""The games app's outgoing signals, sent after the transaction that caused them commits.

games/ never imports tournaments/: tournaments connects receivers to these (DESIGN.md, "Layers").
``match_finished(match_id)`` when a match ends (won, forfeited or voided); ``match_result_changed(match_id)`` when a
director's correction changes a result that was already final (a finished match reopened or a result replaced).
"""

from __future__ import annotations

import django.dispatch

match_finished = django.dispatch.Signal()
match_result_changed = django.dispatch.Signal()
