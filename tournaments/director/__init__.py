"""The directors' pages: dashboard, registration, check-in, rounds, results queue, printable sheets."""
