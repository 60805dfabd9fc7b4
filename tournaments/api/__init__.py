"""The tournaments app's REST API (DRF): events, divisions, entries, rounds, pairings (bracket slots included),
standings, rating lists, "your next match", and the directors' and players' writes on them.

It follows the games API (:mod:`games.api`): thin views, input serializers for shape only, one service call per
write, and the same error shape ``{"code", "message", ...}`` through the same exception handler. Reads are public but
a private event, and everything in it, is a 404 for whoever may not see it (``tournaments.selectors.
events_visible_to``). Writes need a user (session or DRF token) or, to answer for one's own result, an entry link
(``X-Entry-Token``); who may do what is decided by the services (``tournaments.access.check_directs``).
"""
