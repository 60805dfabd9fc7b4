"""The tournaments API's views: parse the input with a serializer, call one service or selector, render the answer.

Reads are public (``AllowAny``) but a private event, its divisions, entries, pairings and standings are a 404 for
whoever may not see it (``tournaments.selectors.events_visible_to``). Writes need a user (session or DRF token) or
an entry link; who may do what (the event's directors and staff; the player asked to confirm a result) is decided
by the services, never here. A write answers with what it wrote, rendered as the matching read renders it.

The events list and a division's pairings (a 500-player round robin has 124,750) are paginated like the games API's
lists; the other lists inside a division (entries, rounds, standings) are not: they hold a row per player or round.

One module per part of the API (``events``, ``divisions``, ``entries``, ``rounds``, ``venue``, ``awards``,
``players``, ``clubs``), each rendering with the serializers of its namesake in :mod:`tournaments.api.serializers`
where there is one; ``common`` holds the lookups, permissions and error answers they share.
"""
