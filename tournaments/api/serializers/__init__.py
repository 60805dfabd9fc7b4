"""Input and output shapes of the tournaments API.

Input serializers check shape, types and ranges only; whether a setting, an entry or a decision is
allowed is the services' call. Output serializers render models and selector results; the ``*Doc`` serializers
only describe, for the OpenAPI schema, dictionaries the views build.

Every status is an enum of the schema, named in settings (``ENUM_NAME_OVERRIDES``: ``EventStatusEnum``,
``PairingStatusEnum``, ...), since the field name ``status`` means five different sets of values.

One module per part of the API, as :mod:`tournaments.api.views`: ``events`` (events and divisions), ``entries``
(and the money), ``rounds`` (running a division, pairings, results, standings), ``venue`` (tables), ``awards``
(payouts, master points, PR tables, playoffs), ``players`` (rating lists, next match), ``clubs`` (rosters, seasons,
merges); ``common`` holds the few fields they share.
"""
