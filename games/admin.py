"""Admin registrations for the games app (none yet; admin writes will go through the services)."""
