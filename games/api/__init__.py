"""The games app's REST API (DRF): players, matches, the action log, director corrections, entry links, .mat files.

Views are thin (docs/ARCHITECTURE.md, "Where logic lives"): a serializer checks the shape of the input, one service
or selector
does the work, a serializer renders the answer. Every error, ours or DRF's, has one JSON shape
``{"code", "message", ...}`` (:mod:`games.api.exceptions`). Who is acting is a logged-in user (session or
``Authorization: Token <key>``) or the holder of a per-side entry link (``X-Entry-Token``, :mod:`games.api.auth`).
"""
