"""Admin registrations for the tournaments app (none yet; admin writes will go through the services)."""
