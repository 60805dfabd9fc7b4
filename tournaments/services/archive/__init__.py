"""Whole-event archives: one zip file that carries an event from one installation to another, losslessly.

:func:`export_event` writes the archive; :func:`import_event` reads one back as a new event. Behind
``python manage.py export_event`` and ``python manage.py import_event``.

The archive is a zip file holding

- ``event.json``: the event, its divisions (every setting) with their entries, rounds, pairings (sources, reasons,
  decisions, confirmations, penalties, swap notes), standings and playoffs for ties (their tied entries, their
  order once played, their matches: matches of no pairing, whose source names the event), the players involved,
  every match of the event with every row of its action log in sequence order and its game rows, and the event's
  rating list (its ratings for the players involved and its rating changes for the matches in the file), if it has
  one;
- ``matches/<match id>-<player 1>-<player 2>.mat``: each match as a .mat match log (``games.export.match_mat``),
  for every match the .mat format can hold; the others are listed in ``mat_skipped`` with the reason.

``imported_matches`` lists the matches imported into the event from match logs (``import_matches --event``, the
API's import with an event), which belong to no pairing: each is in ``matches`` with its log, and the import attaches
it to the new event again (so that the event's "analyse imported matches" and its pages see it). A file written
before the list existed reads as none.

Terms and invariants

- **Ids** in the file are the exporting installation's; they only link records within the file. An import makes
  new rows with new ids, in file order, so a second export of the imported event lists the records in the same
  order. Keys are sorted, datetimes are ISO 8601 with their UTC offset, dates ISO 8601.
- **The log is the truth.** An imported match gets its action rows as they were (kind, side, dice, play, steps,
  value, data, positions, what each correction undoes, reasons, idempotency keys, times), then
  ``games.services.restore_matches`` replays them through the engine and sets the caches as the write path does
  (``apply_caches``); the import is refused
  unless the replay gives the score, status, winner and game rows the file says. The .mat files are derived (an
  import does not read them).
- **Not exported:** players' ``contact`` field (personal data), entry-link secrets, user accounts (directors, rating
  list owners, the users players are linked to, the user who created a match). The importing user becomes the
  event's director and the rating list's owner.
- **Who entered an action** is written ``"user:<username>"``, ``"entry-link:<side>"`` or null. On import an
  entry-link row points at a revoked entry link of that side made for the purpose (it opens nothing, but the log
  keeps saying which side entered what); a user's name, having no account to point at, is kept in the row's
  ``data`` under :data:`ENTERED_BY_KEY` (read back by the next export). New entry links are made after import.
- **Players** are created anew, never merged with players of the same name already in the installation.
- **Season points** (tournaments/services/seasons.py) are not carried: the imported event belongs to no club, so to
  no season (a club's seasons count its own events only, whose rows stay as they were); after restoring a whole
  database, ``manage.py season_points`` computes every season again.
- **Matches detached from their slot** (voided when an upstream correction changed the slot's players) belong to
  no pairing; they are found by their source ``<event slug>/<division>/<slot>`` and travel too. An import under a
  new address rewrites that prefix of the sources.
- **Nothing is stored on any error**: the import runs in one transaction, and every refusal is an
  ``ApplicationError`` (INVALID_INPUT naming the record and what is wrong; CONFLICT for an address in use).
"""

from __future__ import annotations

from tournaments.services.archive.export import archive_contents, dump_document, export_event
from tournaments.services.archive.restore import import_event, read_archive

__all__ = ["archive_contents", "dump_document", "export_event", "import_event", "read_archive"]
