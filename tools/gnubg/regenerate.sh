#!/bin/sh
# Regenerate every GNU Backgammon vector file.  Run from the repository root.
# Needs gnubg with Python support (Debian/Ubuntu: apt-get install gnubg).
set -e
GNUBG=${GNUBG:-$(command -v gnubg || echo /usr/games/gnubg)}
for script in gen_movegen.py gen_matchid.py gen_exported.py; do
    echo "== $script" >&2
    LC_ALL=C "$GNUBG" -t -q -r -p "tools/gnubg/$script" > /dev/null
done
